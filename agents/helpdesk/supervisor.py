"""The supervisor node: what it may do next (allowed_actions), when it must stop (hard_stop), and its pick among
them, by the model or the twin."""

from __future__ import annotations

import json
import time

from langgraph.runtime import Runtime

from agents.helpdesk import metrics, prompts, twins
from agents.helpdesk.audit import audit
from agents.helpdesk.guards import Settings, wrap_conversation, wrap_tool_output
from agents.helpdesk.nodes import (
    TOOL_OF_ACTION,
    charge_tokens,
    log_ids,
    model_for_next_call,
    run_seconds,
    step_record,
)
from agents.helpdesk.state import (
    HelpdeskContext,
    HelpdeskState,
    SupervisorDecision,
)
from agents.helpdesk.turns import announce


def allowed_actions(state: HelpdeskState, ctx: HelpdeskContext) -> set[str]:
    s, tools = ctx.settings, ctx.tools
    reads = state.get("kb_retry_attempts", 0) + state.get("web_search_attempts", 0)
    allowed = (
        {"classify", "write_draft", "await_user_confirm"}
        if not state.get("classification")
        else {"write_draft", "await_user_confirm"}
    )
    for action, tool in TOOL_OF_ACTION.items():
        if tool in tools.available and s.tool_flags.get(tool, True):
            if action == "search_duplicates":
                if state.get("duplicate_search_attempts", 0) < s.max_duplicate_searches:
                    allowed.add(action)
            elif reads < s.max_tool_retries:
                allowed.add(action)
    if len(state.get("questions_asked", [])) < s.max_questions:
        allowed.add("ask_user")
    if len(state.get("proposed_solutions", [])) < s.max_proposals and twins.unproposed_source(state):
        allowed.add("propose_solution")
    if twins.strong_duplicate(state):
        allowed.add("link_existing")
    return allowed


def hard_stop(state: HelpdeskState, ctx: HelpdeskContext) -> str | None:
    if ctx.settings.kill_switch:
        return "kill_switch"
    requested = ctx.stop_reason(state["session_id"])
    if requested:
        return requested
    if state.get("tokens_used", 0) >= ctx.settings.max_tokens:
        return "budget_exhausted"
    if run_seconds(state, ctx) >= ctx.settings.deadline_seconds:
        return "deadline"
    return None


def supervisor(state: HelpdeskState, runtime: Runtime[HelpdeskContext]) -> dict:
    ctx, started = runtime.context, time.perf_counter()
    ctx.heartbeat(state["session_id"])
    turn = state.get("turns_taken", 0) + 1
    if turn == 1:  # the first visible step, before any model call however slow the model is
        announce("supervisor", state["language"])
    stop = hard_stop(state, ctx)
    if stop in ("budget_exhausted", "deadline"):
        allowed = allowed_actions(state, ctx) - {"ask_user", "await_user_confirm", *TOOL_OF_ACTION}
        if state.get("draft"):
            allowed.add("await_user_confirm")
        offer = next((action for action in _OFFER_WHEN_CUT_SHORT if action in allowed), None)
        if offer:
            return {
                "next_action": offer,
                "turns_taken": turn,
                "cut_short": stop,
                "trace": step_record("supervisor", started, action=offer, engine="rule", reason=stop),
            }
    if stop:
        return {
            "next_action": "abort",
            "abort_reason": stop,
            "trace": step_record("supervisor", started, action="abort", engine="rule", reason=stop),
        }
    allowed = allowed_actions(state, ctx)
    tokens, engine, reason = 0, "rule", "max_turns"
    if state.get("turns_taken", 0) >= ctx.settings.max_turns:
        action = "await_user_confirm" if state.get("draft") else "write_draft"
    else:

        def twin() -> SupervisorDecision:
            return SupervisorDecision(next_action=twins.next_action(state, allowed), reason="rule")

        system = prompts.SUPERVISOR_PROMPT.format(
            preamble=prompts.UNTRUSTED_PREAMBLE, allowed=", ".join(sorted(allowed))
        )
        human = _supervisor_view(state, ctx.settings, turn)
        llm, timeout = model_for_next_call(state, ctx)
        result = llm.structured(
            "supervisor", [("system", system), ("human", human)], SupervisorDecision, twin, timeout=timeout
        )
        decision, engine, reason = result.value, result.engine, result.value.reason
        tokens = charge_tokens(ctx, "supervisor", system + human, decision.model_dump_json())
        action = "await_user_confirm" if decision.next_action == "file_new" else decision.next_action
        rejected = action not in allowed or (engine == "offline" and not ctx.llm.offline)
        if rejected and _saw_untrusted(state):
            metrics.INJECTION_BLOCKED.inc()  # the model's answer was refused after it read untrusted text
        if action not in allowed:  # the closed allow-list: anything else goes to the deterministic supervisor
            action, engine, reason = twins.next_action(state, allowed), "rule", "not_allowed"
    audit(
        "agent.supervisor_decision",
        at=ctx.clock(),
        **log_ids(state),
        turn=turn,
        next_action=action,
        engine=engine.split(":")[0],
        tokens=tokens,
        latency_ms=round((time.perf_counter() - started) * 1000, 1),
    )
    return {
        "next_action": action,
        "turns_taken": turn,
        "tokens_used": state.get("tokens_used", 0) + tokens,
        "trace": step_record("supervisor", started, action=action, engine=engine, reason=reason[:80] if reason else ""),
    }


def _saw_untrusted(state: HelpdeskState) -> bool:
    return bool(state.get("duplicate_candidates") or state.get("kb_retry_results") or state.get("web_search_results"))


def _supervisor_view(state: HelpdeskState, s: Settings, turn: int) -> str:
    return prompts.SUPERVISOR_STATE.format(
        conversation=wrap_conversation(state.get("conversation", []), s.conversation_max_chars),
        answers=wrap_conversation(
            [
                {"role": "user", "content": f"Q: {q}\nA: {a}"}
                for q, a in zip(state.get("questions_asked", []), state.get("user_replies", []))
            ],
            s.conversation_max_chars,
        ),
        facts=json.dumps(state.get("facts", {}), ensure_ascii=False),
        turn=turn,
        max_turns=s.max_turns,
        questions=len(state.get("questions_asked", [])),
        max_questions=s.max_questions,
        reads=state.get("kb_retry_attempts", 0) + state.get("web_search_attempts", 0),
        max_reads=s.max_tool_retries,
        proposals=len(state.get("proposed_solutions", [])),
        max_proposals=s.max_proposals,
        dups=state.get("duplicate_search_attempts", 0),
        max_dups=s.max_duplicate_searches,
        rejected_solutions=len(state.get("rejected_solutions", [])),
        rejected_duplicates=[f"#{n}" for n in state.get("rejected_duplicates", [])] or "none",
        classified=json.dumps(state.get("classification")),
        drafted="yes" if state.get("draft") else "no",
        tool_outputs=tool_outputs_text(state, s),
    )


# Hitting a cap or the deadline offers what was found instead of ending with nothing (issue 13).
_OFFER_WHEN_CUT_SHORT = ("link_existing", "propose_solution", "await_user_confirm", "write_draft")


def tool_outputs_text(state: HelpdeskState, settings: Settings) -> str:
    blocks = []
    if state.get("duplicate_search_attempts"):
        lines = [
            f"#{c['number']} [{c['state']}] {c['title']} (similarity {c['similarity']}, "
            f"{'strong' if c.get('strong') else 'weak'} match)\n{c.get('body', '')[:300]}"
            for c in state.get("duplicate_candidates", [])
        ]
        blocks.append(wrap_tool_output("tickets", "\n".join(lines) or "results=[]", settings.tool_output_max_chars))
    for source, results, attempts in (
        ("kb", state.get("kb_retry_results", []), state.get("kb_retry_attempts")),
        ("web", state.get("web_search_results", []), state.get("web_search_attempts")),
    ):
        if attempts:
            lines = [
                f"{r.get('title', '')} {r.get('section', '') or r.get('url', '')}\n{r.get('content', '')}"
                for r in results
            ]
            blocks.append(
                wrap_tool_output(source, "\n---\n".join(lines) or "results=[]", settings.tool_output_max_chars)
            )
    return "\n".join(blocks) or "(no tool has run yet)"
