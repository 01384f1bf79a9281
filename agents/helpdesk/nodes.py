"""Graph nodes: the human gate (await_user) and finish, with what every node shares: the trace entry, the
time budget, the model for the next call, the token charge, the context text. The supervisor is in
supervisor.py, the tool nodes in tool_nodes.py, the specialists in specialists.py. Each node returns only the keys
it changes."""

from __future__ import annotations

import json
import time

from babel import Locale
from langgraph.runtime import Runtime
from langgraph.types import interrupt

from agents.helpdesk import metrics, prompts
from agents.helpdesk.audit import audit
from agents.helpdesk.guards import Settings, redact, sha, wrap_conversation
from agents.helpdesk.state import (
    HelpdeskContext,
    HelpdeskState,
    TicketDraft,
)
from agents.i18n import language
from agents.llm import LLM, count_tokens
from agents.llm import Settings as LLMSettings

TOOL_OF_ACTION = {"retry_kb": "retry_kb", "web_search": "web_search", "search_duplicates": "search_existing_issues"}


def log_ids(state: HelpdeskState) -> dict:
    return {
        "session_id": state["session_id"],
        "chat_session_id": state.get("chat_session_id"),
        "user_id": state.get("user_id"),
    }


def state_language(state: HelpdeskState) -> str:
    return language(state.get("language"))


def language_name(state: HelpdeskState) -> str:
    """The reply language named in English, for the prompts ("Spanish")."""
    return Locale("en").languages[state_language(state)]


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


def run_seconds(state: HelpdeskState, ctx: HelpdeskContext) -> float:
    """Wall clock since the person's latest message (the deadline's clock, issue 13)."""
    now = ctx.clock()
    return max(0.0, now - state.get("run_started_at", now))


def model_for_next_call(state: HelpdeskState, ctx: HelpdeskContext) -> tuple[LLM, float | None]:
    """(engine, per-call timeout) for the next model call: the time left before the deadline; once a
    cap or the deadline was hit, the twins finish the offer (an offline engine answers at once)."""
    left = ctx.settings.deadline_seconds - run_seconds(state, ctx)
    if state.get("cut_short") or ctx.llm.offline or left <= 0:
        return _OFFLINE, None
    return ctx.llm, left


_OFFLINE = LLM(LLMSettings())  # no server configured: every call is the caller's twin


def paused(state: HelpdeskState, ctx: HelpdeskContext) -> dict:
    return {"agent_seconds": _work_seconds(state, ctx)}


def charge_tokens(ctx: HelpdeskContext, role: str, prompt: str, output: str) -> int:
    """Tokens a model call cost (0 offline): the per-session cap counts these."""
    if ctx.llm.offline:
        return 0
    used = count_tokens(prompt) + count_tokens(output)
    metrics.TOKENS.labels(role).inc(used)
    return used


def context_text(state: HelpdeskState, settings: Settings, extra: str = "") -> str:
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
    return {
        "outcome": outcome,
        "abort_reason": reason,
        "awaiting_user": None,
        "tool_cache": {},
        "trace": [{"node": "finish", "outcome": outcome, "reason": reason}],
    }
