"""Graph nodes: the supervisor, the tool nodes, the specialists (clarifier, classifier, writer, proposer),
the human gate (await_user) and the filing step. Each node returns only the keys it changes."""

from __future__ import annotations

import json
import time

from babel import Locale
from langgraph.runtime import Runtime
from langgraph.types import interrupt

from agents.helpdesk import metrics, prompts, twins
from agents.helpdesk.audit import audit
from agents.helpdesk.guards import Settings, redact, sanitise_title, sha, wrap_conversation, wrap_tool_output
from agents.helpdesk.state import (
    ClarifyingQuestion,
    Classification,
    HelpdeskContext,
    HelpdeskState,
    SupervisorDecision,
    TicketDraft,
)
from agents.i18n import code_label, language, t
from agents.llm import LLM, count_tokens
from agents.llm import Settings as LLMSettings

TOOL_OF_ACTION = {"retry_kb": "retry_kb", "web_search": "web_search", "search_duplicates": "search_existing_issues"}


def log_ids(state: HelpdeskState) -> dict:
    return {
        "session_id": state["session_id"],
        "chat_session_id": state.get("chat_session_id"),
        "user_id": state.get("user_id"),
    }


def _lang(state: HelpdeskState) -> str:
    return language(state.get("language"))


def language_name(state: HelpdeskState) -> str:
    """The reply language named in English, for the prompts ("Spanish")."""
    return Locale("en").languages[_lang(state)]


def step_record(node: str, started: float, **extra) -> list[dict]:
    """The trace entry of one step (no text), counted and timed by phase."""
    elapsed = time.perf_counter() - started
    metrics.STEPS.labels(node, extra.pop("outcome", "ok")).inc()
    phase = (
        "supervisor" if node == "supervisor" else "tool" if node in (*TOOL_OF_ACTION, "file_ticket") else "specialist"
    )
    metrics.TURN_LATENCY.labels(phase).observe(elapsed)
    return [{"node": node, "ms": round(elapsed * 1000, 1), **extra}]


def _work_seconds(state: HelpdeskState, ctx: HelpdeskContext) -> float:
    """The agent's own working time: time spent waiting for the person does not count."""
    return state.get("agent_seconds", 0.0) + max(0.0, ctx.clock() - state.get("run_started_at", ctx.clock()))


def _run_seconds(state: HelpdeskState, ctx: HelpdeskContext) -> float:
    """Wall clock since the person's latest message (the deadline's clock, issue 13)."""
    now = ctx.clock()
    return max(0.0, now - state.get("run_started_at", now))


def _model(state: HelpdeskState, ctx: HelpdeskContext) -> tuple[LLM, float | None]:
    """(engine, per-call timeout) for the next model call: the time left before the deadline; once a
    cap or the deadline was hit, the twins finish the offer (an offline engine answers at once)."""
    left = ctx.settings.deadline_seconds - _run_seconds(state, ctx)
    if state.get("cut_short") or ctx.llm.offline or left <= 0:
        return _OFFLINE, None
    return ctx.llm, left


_OFFLINE = LLM(LLMSettings())  # no server configured: every call is the caller's twin
# Hitting a cap or the deadline offers what was found instead of ending with nothing (issue 13).
_OFFER_WHEN_CUT_SHORT = ("link_existing", "propose_solution", "await_user_confirm", "write_draft")


def _pause(state: HelpdeskState, ctx: HelpdeskContext) -> dict:
    return {"agent_seconds": _work_seconds(state, ctx)}


def _charge(ctx: HelpdeskContext, role: str, prompt: str, output: str) -> int:
    """Tokens a model call cost (0 offline): the per-session cap counts these."""
    if ctx.llm.offline:
        return 0
    used = count_tokens(prompt) + count_tokens(output)
    metrics.TOKENS.labels(role).inc(used)
    return used


def _context_text(state: HelpdeskState, settings: Settings, extra: str = "") -> str:
    answers = [
        {"role": "user", "content": f"Q: {q}\nA: {a}"}
        for q, a in zip(state.get("questions_asked", []), state.get("user_replies", []))
    ]
    return prompts.CONTEXT_TEMPLATE.format(
        conversation=wrap_conversation(state.get("conversation", []), settings.conversation_max_chars),
        answers=wrap_conversation(answers, settings.conversation_max_chars) if answers else "(none)",
        facts=json.dumps(state.get("facts", {}), ensure_ascii=False),
        extra=extra,
    )


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


# --- supervisor ------------------------------------------------------------------------------------
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
    if _run_seconds(state, ctx) >= ctx.settings.deadline_seconds:
        return "deadline"
    return None


def supervisor(state: HelpdeskState, runtime: Runtime[HelpdeskContext]) -> dict:
    ctx, started = runtime.context, time.perf_counter()
    ctx.heartbeat(state["session_id"])
    turn = state.get("turns_taken", 0) + 1
    if turn == 1:  # the first visible step, before any model call however slow the model is
        ctx.on_step("specialist", {"node": "supervisor"})
    stop = hard_stop(state, ctx)
    if stop in ("budget_exhausted", "deadline"):
        allowed = allowed_actions(state, ctx) - {"ask_user", "await_user_confirm", *TOOL_OF_ACTION}
        if state.get("draft"):
            allowed.add("await_user_confirm")
        offer = next((action for action in _OFFER_WHEN_CUT_SHORT if action in allowed), None)
        if offer:
            ctx.on_step("decision", {"action": offer})
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
        llm, timeout = _model(state, ctx)
        result = llm.structured(
            "supervisor", [("system", system), ("human", human)], SupervisorDecision, twin, timeout=timeout
        )
        decision, engine, reason = result.value, result.engine, result.value.reason
        tokens = _charge(ctx, "supervisor", system + human, decision.model_dump_json())
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
    ctx.on_step("decision", {"action": action})
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


# --- specialists -----------------------------------------------------------------------------------
def question_id_for(state: HelpdeskState, kind: str) -> str:
    return sha(f"{state['session_id']}:{state.get('turns_taken', 0)}:{len(state.get('trace', []))}:{kind}", 12)


def clarifier(state: HelpdeskState, runtime: Runtime[HelpdeskContext]) -> dict:
    ctx, started = runtime.context, time.perf_counter()
    ctx.on_step("specialist", {"node": "clarifier"})
    fact = twins.missing_fact(state) or "details"
    system = prompts.CLARIFIER_PROMPT.format(
        preamble=prompts.UNTRUSTED_PREAMBLE, fact=fact, language_name=language_name(state)
    )
    human = _context_text(state, ctx.settings)
    llm, timeout = _model(state, ctx)
    result = llm.structured(
        "classifier",
        [("system", system), ("human", human)],
        ClarifyingQuestion,
        lambda: twins.clarifying_question(state),
        timeout=timeout,
    )
    question = result.value
    text = redact(question.question)
    position = len(state.get("questions_asked", [])) + 1
    metrics.QUESTIONS.labels(str(position)).inc()
    qid = question_id_for(state, "question")
    audit("agent.awaiting_user", at=ctx.clock(), **log_ids(state), question_id=qid, question_hash=sha(text))
    return {
        "questions_asked": [*state.get("questions_asked", []), text],
        "awaiting_user": {
            "kind": "question",
            "question_id": qid,
            "message": text,
            "choices": [redact(c)[:60] for c in question.choices],
            "fact": fact,
        },
        "tokens_used": state.get("tokens_used", 0)
        + _charge(ctx, "clarifier", system + human, question.model_dump_json()),
        "trace": step_record("clarifier", started, engine=result.engine),
        **_pause(state, ctx),
    }


def classifier(state: HelpdeskState, runtime: Runtime[HelpdeskContext]) -> dict:
    ctx, started = runtime.context, time.perf_counter()
    ctx.on_step("specialist", {"node": "classifier"})
    system = prompts.CLASSIFIER_PROMPT.format(preamble=prompts.UNTRUSTED_PREAMBLE)
    human = _context_text(state, ctx.settings)
    llm, timeout = _model(state, ctx)
    result = llm.structured(
        "classifier",
        [("system", system), ("human", human)],
        Classification,
        lambda: twins.classify(state),
        timeout=timeout,
    )
    value, engine = result.value.model_dump(), result.engine
    rule = twins.classify(state).model_dump()
    overridden = sorted(f for f in twins.decisive_fields(state) if value[f] != rule[f])
    if overridden:  # the same report in another language must classify the same way
        value.update({f: rule[f] for f in overridden})
        engine = f"{engine}+rules({','.join(overridden)})"
    return {
        "classification": value,
        "tokens_used": state.get("tokens_used", 0)
        + _charge(ctx, "classifier", system + human, result.value.model_dump_json()),
        "trace": step_record("classifier", started, engine=engine),
    }


def proposer(state: HelpdeskState, runtime: Runtime[HelpdeskContext]) -> dict:
    from agents.offline import extractive_answer

    ctx, started = runtime.context, time.perf_counter()
    ctx.on_step("specialist", {"node": "proposer"})
    unproposed = twins.unproposed_source(state)
    if unproposed is None:  # the supervisor proposes only when a source has results not yet proposed
        raise RuntimeError("proposer reached without results to propose")
    source, hits = unproposed
    passages = [(i + 1, f"{h.get('title', '')}: {h.get('content', '')}") for i, h in enumerate(hits[:3])]
    sources = "; ".join(f"[{i}] {h.get('title', '')}" for i, h in enumerate(hits[:3], start=1))

    def twin() -> str:
        return f"{extractive_answer(state.get('original_question', ''), passages, max_chars=700)}\n\n{sources}"

    system = prompts.PROPOSER_PROMPT.format(preamble=prompts.UNTRUSTED_PREAMBLE, language_name=language_name(state))
    human = _context_text(
        state,
        ctx.settings,
        wrap_tool_output(source, "\n---\n".join(text for _, text in passages), ctx.settings.tool_output_max_chars),
    )
    llm, timeout = _model(state, ctx)
    stream = llm.stream("generator", [("system", system), ("human", human)], twin, timeout=timeout, deadline_s=timeout)
    text = redact("".join(stream).strip())[:1500]
    choices = [t("helpdesk.choice_solved", _lang(state)), t("helpdesk.choice_not_solved", _lang(state))]
    return {
        "proposed_solutions": [*state.get("proposed_solutions", []), {"source": source, "text": text}],
        "awaiting_user": {
            "kind": "solution",
            "question_id": question_id_for(state, "solution"),
            "message": text,
            "choices": choices,
        },
        "tokens_used": state.get("tokens_used", 0) + _charge(ctx, "writer", system + human, text),
        "trace": step_record("proposer", started, engine=stream.engine),
        **_pause(state, ctx),
    }


def link_existing(state: HelpdeskState, runtime: Runtime[HelpdeskContext]) -> dict:
    ctx, started = runtime.context, time.perf_counter()
    candidate = twins.strong_duplicate(state)
    if candidate is None:  # the supervisor links only with a strong duplicate
        raise RuntimeError("link_existing reached without a strong duplicate")
    ticket = {k: candidate.get(k) for k in ("number", "title", "state", "url")}
    # Someone else's ticket reads as its title and status only (never its body or reporter).
    message = t(
        "helpdesk.duplicate_offer",
        _lang(state),
        number=ticket["number"],
        title=ticket["title"],
        status=code_label("status", ticket["state"], _lang(state)),
    )
    choices = [t("helpdesk.choice_link", _lang(state)), t("helpdesk.choice_not_same", _lang(state))]
    return {
        "awaiting_user": {
            "kind": "duplicate",
            "question_id": question_id_for(state, "duplicate"),
            "message": message,
            "choices": choices,
            "ticket": ticket,
        },
        "trace": step_record("link_existing", started),
        **_pause(state, ctx),
    }


def writer(state: HelpdeskState, runtime: Runtime[HelpdeskContext]) -> dict:
    ctx, started = runtime.context, time.perf_counter()
    ctx.on_step("specialist", {"node": "writer"})
    updates: dict = {}
    engine = "reused"
    draft = state.get("draft")
    if not draft or state.get("next_action") == "write_draft":
        cls = state.get("classification") or twins.classify(state).model_dump()
        system = prompts.WRITER_PROMPT.format(
            preamble=prompts.UNTRUSTED_PREAMBLE,
            severity=cls["severity"],
            category=cls["category"],
            language_name=language_name(state),
        )
        human = _context_text(state, ctx.settings)
        llm, timeout = _model(state, ctx)
        result = llm.structured(
            "generator",
            [("system", system), ("human", human)],
            TicketDraft,
            lambda: twins.write_draft(state),
            timeout=timeout,
        )
        value, engine = result.value, result.engine
        draft = {
            "title": sanitise_title(value.title),
            "body": redact(value.body),
            "severity": value.severity,
            "category": value.category,
        }
        updates = {
            "draft": draft,
            "tokens_used": state.get("tokens_used", 0)
            + _charge(ctx, "writer", system + human, value.model_dump_json()),
        }
        audit(
            "agent.draft_ready",
            at=ctx.clock(),
            **log_ids(state),
            title_hash=sha(draft["title"]),
            severity=draft["severity"],
            category=draft["category"],
        )
    return {
        **updates,
        "awaiting_user": {
            "kind": "draft_ready",
            "question_id": question_id_for(state, "draft"),
            "message": "",
            "draft": draft,
        },
        "trace": step_record("writer", started, engine=engine),
        **_pause(state, ctx),
    }


# --- the human gate --------------------------------------------------------------------------------
def _edited_draft(current: dict, edited: dict | None) -> dict:
    try:
        draft = TicketDraft.model_validate({**current, **(edited or {})})
    except ValueError:
        return current
    return draft.model_dump()


def await_user(state: HelpdeskState, runtime: Runtime[HelpdeskContext]) -> dict:
    """Pause for the person; resume with {"action": reply|solved|not_solved|link|not_same|file|abort, ...}."""
    pending = state["awaiting_user"]
    if pending is None:  # the graph routes here only with something to ask (route_after_*)
        raise RuntimeError("await_user without a pending question")
    answer = interrupt(pending) or {}
    ctx = runtime.context
    action = answer.get("action", "reply")
    audit(
        "agent.resumed", at=ctx.clock(), **log_ids(state), question_id=pending["question_id"], action=str(action)[:20]
    )
    base = {
        "awaiting_user": None,
        "run_started_at": ctx.clock(),
        "cut_short": None,
        "trace": [{"node": "await_user", "action": action}],
    }
    kind = pending["kind"]
    if action == "abort":
        return {**base, "outcome": "aborted", "abort_reason": "user_cancelled"}
    if kind == "question":
        reply = redact(str(answer.get("text", "")).strip())[:500] or "-"
        return {
            **base,
            "user_replies": [*state.get("user_replies", []), reply],
            "facts": {**state.get("facts", {}), pending.get("fact", "details"): reply[:200]},
        }
    if kind == "solution":
        if action == "solved":
            return {**base, "solution_accepted": True, "outcome": "resolved_by_agent"}
        return {**base, "rejected_solutions": [*state.get("rejected_solutions", []), sha(pending["message"])]}
    if kind == "duplicate":
        if action == "link":
            return {**base, "outcome": "linked", "linked_ticket": pending["ticket"]}
        return {**base, "rejected_duplicates": [*state.get("rejected_duplicates", []), pending["ticket"]["number"]]}
    if action == "file":  # kind == draft_ready: the only way to reach file_ticket
        draft = state.get("draft")
        if draft is None:
            raise RuntimeError("a draft_ready question without its draft")
        return {**base, "draft": _edited_draft(draft, answer.get("draft")), "confirmed": True}
    return {**base, "awaiting_user": pending}  # anything else keeps the draft waiting


def finish(state: HelpdeskState, runtime: Runtime[HelpdeskContext]) -> dict:
    ctx = runtime.context
    outcome = state.get("outcome") or "aborted"
    reason = state.get("abort_reason") if outcome == "aborted" else None
    metrics.OUTCOMES.labels("budget_exhausted" if reason in ("budget_exhausted", "deadline") else outcome).inc()
    metrics.TURNS_PER_SESSION.observe(state.get("turns_taken", 0))
    metrics.QUESTIONS_PER_SESSION.observe(len(state.get("questions_asked", [])))
    metrics.SESSION_LATENCY.observe(max(0.0, ctx.clock() - state.get("started_at", ctx.clock())))
    audit(
        "agent.outcome",
        at=ctx.clock(),
        **log_ids(state),
        outcome=outcome,
        total_turns=state.get("turns_taken", 0),
        total_tokens=state.get("tokens_used", 0),
    )
    if outcome == "aborted":
        audit("agent.aborted", at=ctx.clock(), **log_ids(state), reason=reason or "unknown")
    ctx.on_step("outcome", {"outcome": outcome})
    return {
        "outcome": outcome,
        "abort_reason": reason,
        "awaiting_user": None,
        "tool_cache": {},
        "trace": [{"node": "finish", "outcome": outcome, "reason": reason}],
    }
