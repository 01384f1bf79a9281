"""The admin's answer to a previewed write, decided inside the graph (spec 000 §5.5). A turn puts one
``Answer`` into the graph: its input when nothing waits, its resume when a preview waits in
``await_confirmation``. Then:

- the Confirm button's id of the preview waiting, or a typed "sí" → ``execute_write`` runs exactly what was
  previewed, once;
- Cancel, or a typed "no" → the preview is cancelled;
- a change to the preview ("wait, add María too") → the amended calls are prepared into a new preview;
- a question that only reads ("who is behind on Safety?") → it is planned and answered as any request, the
  preview keeps waiting and the reply reminds it in one line;
- anything else (another write, words no tool reads, a stale id) → ``explain`` says why nothing ran, and a
  preview still waiting keeps waiting.
"""

from __future__ import annotations

from typing import Literal

from langgraph.config import get_stream_writer
from langgraph.runtime import Runtime
from langgraph.types import interrupt

from agents.admin import amend
from agents.admin.nodes import execute_confirmed, tool_context
from agents.admin.resolve import ToolError
from agents.admin.state import AdminContext, AdminState, Answer
from agents.admin.tools import WRITE_TOOLS
from agents.admin.typed import typed_decision
from agents.i18n import t
from agents.offline import stream_words
from core.turns import Token
from storage import pending_actions

_CLEARED = {"tool_calls": [], "executed": [], "next_steps": [], "response": "", "asked_while_pending": False}
_UNDECIDED = {"confirmed_id": None, "decision": None, "cancelled": None, "amended": None}  # the preview stays


def route_at_start(state: AdminState) -> Literal["recall", "explain"]:
    """Nothing waits for a confirm: a message is planned; a confirm or a cancel has nothing to act on."""
    answer = state.get("answer") or {}
    if answer.get("confirm") or answer.get("cancel") or typed_decision(answer.get("message")) == "confirm":
        return "explain"
    return "recall"


def await_confirmation(state: AdminState, runtime: Runtime[AdminContext]) -> dict:
    """Pause until the admin answers the preview, then decide what the answer does to it (see the module)."""
    pending = state["pending"]
    if pending is None:  # the graph routes here only with a pending action (route_after_synthesize)
        raise RuntimeError("await_confirmation without a pending action")
    resumed = interrupt({"pending": pending})
    answer = Answer(**resumed) if isinstance(resumed, dict) else Answer()
    ctx, message, clicked = runtime.context, answer.get("message") or "", answer.get("confirm")
    if clicked and clicked != pending["id"]:  # not the action waiting: never run it
        return {"answer": answer, **_UNDECIDED}
    typed = typed_decision(message) if message and not clicked else None
    if message and typed is None:
        with ctx.pool.connection() as conn:
            planned = amend.amended_calls(conn, ctx.admin.org_id, message, dict(pending), ctx.today())
        if planned is None:  # a question or a new request under the preview: it stays as it is, the
            # message is planned (route_after_plan: a read is answered, another write held)
            return {**_CLEARED, "answer": answer, **_UNDECIDED, "message": message, "asked_while_pending": True}
        history, summary = ctx.recall(state.get("language", "es"))
        _cancel_pending(ctx)  # the old preview can't be confirmed any more
        return {
            **_CLEARED,
            "answer": answer,
            "history": history,
            "history_summary": summary,
            "pending": None,
            "confirmed_id": None,
            "decision": None,
            "planned": planned,
            "message": message,
            "cancelled": None,
            "amended": pending,
        }
    if clicked or typed == "confirm":
        return {**_CLEARED, "answer": answer, "confirmed_id": pending["id"], "decision": "confirm", "message": ""}
    _cancel_pending(ctx)
    return {
        **_CLEARED,
        "answer": answer,
        "pending": None,
        "confirmed_id": None,
        "decision": "cancel",
        "planned": [],
        "message": "",
        "cancelled": pending,
        "amended": None,
    }


def _cancel_pending(ctx: AdminContext) -> None:
    with ctx.pool.connection() as conn:
        pending_actions.cancel_pending(conn, ctx.admin.org_id, ctx.admin.id, ctx.session_id)


def route_after_await(
    state: AdminState,
) -> Literal["execute_write", "execute_tools", "synthesize", "recall", "explain"]:
    """Confirmed → write; amended → prepare the amended calls; cancelled → say so; another message → plan it;
    else → say why not."""
    if state.get("confirmed_id"):
        return "execute_write"
    if state.get("amended"):
        return "execute_tools"
    if state.get("cancelled"):
        return "synthesize"
    return "recall" if state.get("asked_while_pending") else "explain"


def route_after_plan(state: AdminState) -> Literal["execute_tools", "explain"]:
    """While a preview waits, only reads run: a second write (or nothing understood) is held and the preview
    shown again; with nothing waiting every plan runs."""
    if not state.get("asked_while_pending"):
        return "execute_tools"
    planned = state.get("planned") or []
    return "execute_tools" if planned and not any(c["tool"] in WRITE_TOOLS for c in planned) else "explain"


def execute_write(state: AdminState, runtime: Runtime[AdminContext]) -> dict:
    """Every action of the confirmed preview, in one transaction: all of them are written or none."""
    ctx, pending, lang = runtime.context, state.get("pending"), state.get("language", "es")
    if not pending or state.get("confirmed_id") != pending["id"]:
        raise PermissionError("a write runs only when resumed with its pending action's id")
    actions = pending.get("actions") or [pending]
    try:
        with ctx.pool.connection() as conn:
            results = [(action, execute_confirmed(tool_context(conn, ctx, lang), action["id"])) for action in actions]
    except ToolError as exc:
        results = [(actions[0], {"error": str(exc)})]
    executed = [
        {"id": action["id"], "tool": action["tool"], "result": result}
        for action, result in results
        if result is not None
    ]
    return {"executed": executed, "pending": None, "confirmed_id": None}


def explain(state: AdminState, runtime: Runtime[AdminContext]) -> dict:
    """Why nothing ran this turn: the id confirmed is done or gone, nothing waits, or the preview still does."""
    ctx, lang = runtime.context, state.get("language", "es")
    answer, pending = state.get("answer") or {}, state.get("pending")
    clicked = answer.get("confirm")
    if clicked and (pending is None or clicked != pending["id"]):
        with ctx.pool.connection() as conn:
            action = pending_actions.get_pending(conn, ctx.admin.org_id, ctx.admin.id, clicked)
        key = "already_done" if action is not None and action.status == "executed" else "not_pending"
        text = t(f"admin.phrase.{key}", lang)
    elif pending is not None:
        text = t("admin.still_pending", lang, preview=pending["preview"])
    elif typed_decision(answer.get("message")) == "confirm":
        text = t("admin.nothing_pending", lang)
    else:
        text = t("admin.phrase.not_pending", lang)
    emit = get_stream_writer()
    for token in stream_words(text):
        emit(Token(token))
    return {**_CLEARED, "response": text, "engine": "offline", "fallback": None, "tokens_used": 0}


def route_after_explain(state: AdminState) -> Literal["await_confirmation", "__end__"]:
    """A preview still waiting waits again; otherwise the turn ends."""
    return "await_confirmation" if state.get("pending") else "__end__"
