"""Tool nodes: the read tools (timeouts, retries, cache, flags, neutralised results) and the filing step,
which runs only after the person's "File it"."""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any, Literal

from langgraph.runtime import Runtime

from agents.helpdesk import metrics
from agents.helpdesk.audit import audit
from agents.helpdesk.guards import neutralise, redact, sanitise_body, sanitise_title, sha
from agents.helpdesk.nodes import TOOL_OF_ACTION, log_ids, step_record
from agents.helpdesk.specialists import question_id_for
from agents.helpdesk.state import HelpdeskContext, HelpdeskState
from agents.helpdesk.tools import ToolError, call_with_budget
from agents.helpdesk.turns import announce


def _tool_query(state: HelpdeskState, action: str) -> str:
    if action == "retry_kb":
        return " ".join([state.get("original_question", "")] + list(state.get("user_replies", [])))[:500]
    return state.get("original_question", "")[:300]


def _clean_results(results: list[dict]) -> list[dict]:
    """Third-party text redacted and stripped of instruction-like sentences (each removal counted)."""
    cleaned = []
    for item in results[:8]:
        item = dict(item)
        for key in ("title", "body", "content"):
            if isinstance(item.get(key), str):
                text, removed = neutralise(redact(item[key]))
                if removed:
                    metrics.INJECTION_BLOCKED.inc()
                    item["flagged"] = True
                item[key] = text[:2000]
        cleaned.append(item)
    return cleaned


_ATTEMPTS_KEY: dict[str, Literal["kb_retry_attempts", "web_search_attempts", "duplicate_search_attempts"]] = {
    "retry_kb": "kb_retry_attempts",
    "web_search": "web_search_attempts",
    "search_duplicates": "duplicate_search_attempts",
}


def make_tool_node(action: str):
    tool = TOOL_OF_ACTION[action]
    attempts_key = _ATTEMPTS_KEY[action]
    results_key = {
        "retry_kb": "kb_retry_results",
        "web_search": "web_search_results",
        "search_duplicates": "duplicate_candidates",
    }[action]

    def tool_node(state: HelpdeskState, runtime: Runtime[HelpdeskContext]) -> dict:
        ctx, started = runtime.context, time.perf_counter()
        announce(tool, state["language"])
        query = redact(_tool_query(state, action))
        cache = dict(state.get("tool_cache", {}))
        key = f"{tool}:{' '.join(query.lower().split())}"
        outcome, reason, results = "ok", "ok", []
        if key in cache:
            outcome, reason, results = "ok", "cached", cache[key]
        elif not ctx.settings.tool_flags.get(tool, True):
            outcome, reason = "error", "disabled"
        else:
            try:
                results = _clean_results(call_with_budget(tool, getattr(ctx.tools, tool), query))
                cache[key] = results
            except ToolError as exc:
                outcome, reason = ("timeout" if exc.reason == "timeout" else "error"), exc.reason
            except Exception:  # a misbehaving tool never blocks the loop: the supervisor sees results=[]
                outcome, reason = "error", "exception"
        elapsed = time.perf_counter() - started
        metrics.TOOLS.labels(tool, outcome, reason).inc()
        audit(
            "agent.tool_call",
            at=ctx.clock(),
            **log_ids(state),
            tool=tool,
            outcome=outcome,
            reason=reason,
            duration_ms=round(elapsed * 1000, 1),
            results=len(results),
        )
        ctx.heartbeat(state["session_id"])
        return {
            attempts_key: state.get(attempts_key, 0) + 1,
            results_key: results,
            "tool_cache": cache,
            "tools_invoked": [tool],
            "trace": step_record(action, started, outcome=outcome, reason=reason),
        }

    tool_node.__name__ = action
    return tool_node


def session_snapshot(state: Mapping[str, Any]) -> list[dict]:  # a HelpdeskState or a graph result
    """The redacted conversation staff read on the ticket: the report, each question and its answer,
    and each fix offered."""
    turns = [dict(turn) for turn in state.get("conversation", [])]
    turns += [{"role": "assistant", "content": p["text"]} for p in state.get("proposed_solutions", [])]
    for question, reply in zip(state.get("questions_asked", []), state.get("user_replies", [])):
        turns += [{"role": "assistant", "content": question}, {"role": "user", "content": reply}]
    return turns


def filing_context(state: HelpdeskState) -> dict:
    """What the ticket row keeps beside the draft: snapshot, facts, the agent's steps, language, session."""
    steps = [
        {"node": s["node"], "outcome": s.get("outcome", "ok")}
        for s in state.get("trace", [])
        if s.get("node") not in ("supervisor", "await_user", "finish")
    ]
    return {
        "snapshot": session_snapshot(state),
        "facts": dict(state.get("facts", {})),
        "steps": steps,
        "problem": state.get("original_question", ""),
        "language": state.get("language"),
        "session_id": state["session_id"],
    }


def file_ticket(state: HelpdeskState, runtime: Runtime[HelpdeskContext]) -> dict:
    ctx, started = runtime.context, time.perf_counter()
    if not state.get("confirmed"):  # defence in depth: the graph only routes here after "File it"
        raise RuntimeError("file_ticket reached without the person's confirmation")
    if ctx.settings.kill_switch:
        return {"outcome": "aborted", "abort_reason": "kill_switch", "confirmed": False}
    announce("file_ticket", state["language"])
    draft = state["draft"]
    if draft is None:  # "File it" confirms a written draft
        raise RuntimeError("file_ticket reached without a draft")
    final = {
        "title": sanitise_title(draft["title"]),
        "severity": draft["severity"],
        "category": draft["category"],
        "body": sanitise_body(
            draft["body"],
            agent_session_id=state["session_id"],
            chat_session_id=state.get("chat_session_id") or state["session_id"],
            limit=ctx.settings.body_max_chars,
        ),
    }
    key = "helpdesk:" + sha(f"{state['session_id']}|{final['title']}|{final['body']}", 40)
    error = None
    if not ctx.settings.tool_flags.get("file_ticket", True):
        error, reason = "disabled", "disabled"
    else:
        try:
            ticket = call_with_budget(
                "file_ticket", ctx.tools.file_ticket, {**final, "context": filing_context(state)}, key
            )
            reason = "ok"
        except ToolError as exc:
            error, reason = str(exc), exc.reason
        except Exception as exc:
            error, reason = type(exc).__name__, "exception"
    elapsed = time.perf_counter() - started
    metrics.TOOLS.labels("file_ticket", "error" if error else "ok", reason).inc()
    audit(
        "agent.tool_call",
        at=ctx.clock(),
        **log_ids(state),
        tool="file_ticket",
        outcome="error" if error else "ok",
        reason=reason,
        duration_ms=round(elapsed * 1000, 1),
    )
    if error:  # never auto-retry a write: the person re-confirms or aborts
        return {
            "file_error": reason,
            "confirmed": False,
            "tools_invoked": ["file_ticket"],
            "awaiting_user": {
                "kind": "draft_ready",
                "question_id": question_id_for(state, "draft-retry"),
                "message": "",
                "draft": draft,
                "error": reason,
            },
            "trace": step_record("file_ticket", started, outcome="error", reason=reason),
        }
    audit("agent.user_confirmed", at=ctx.clock(), **log_ids(state), issue_number=ticket["number"])
    return {
        "outcome": "filed",
        "ticket": ticket,
        "draft": final,
        "confirmed": False,
        "file_error": None,
        "tools_invoked": ["file_ticket"],
        "trace": step_record("file_ticket", started),
    }
