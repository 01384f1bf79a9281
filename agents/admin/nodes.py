"""The admin assistant's nodes: recall → plan → execute_tools → synthesize, then a preview waits for the
admin's answer (``agents.admin.confirmation``). Each is a plain function of the state returning the keys it
changes.

The write guard: ``execute_tools`` only *prepares* write tools (preview + a pending row); a write runs only
when the graph is resumed with that pending action's id, and ``execute_confirmed`` claims the row
(pending → executed) in the same transaction as the write.
"""

from __future__ import annotations

import json

from langchain_core.messages import AIMessage, HumanMessage, SystemMessage
from langgraph.config import get_stream_writer
from langgraph.runtime import Runtime

from agents.admin import clarify, replies, routing, twin
from agents.admin.deadline_moves import action_name
from agents.admin.earlier import asks_who_they_are
from agents.admin.gate import invalid_arguments, plan_disagreement, ungrounded_mentions
from agents.admin.names import OrgNames
from agents.admin.nearest import nearest_offer
from agents.admin.prompts import HISTORY_SUMMARY, SYNTHESIS_INSTRUCTION, SYSTEM_PROMPT
from agents.admin.resolve import ToolContext, ToolError, jsonable
from agents.admin.state import AdminContext, AdminState, Pending, ToolCall
from agents.admin.tools import ADMIN_TOOLS, TOOLS_BY_NAME
from agents.i18n import code_label, t
from agents.offline import stream_words
from core.turns import Replace, Step, Token
from storage import pending_actions


def tool_context(conn, ctx: AdminContext, lang: str) -> ToolContext:
    return ToolContext(conn, ctx.admin.org_id, ctx.admin, lang, ctx.today(), ctx.embedder)


def _model_messages(state: AdminState, ctx: AdminContext) -> list:
    system = SYSTEM_PROMPT.format(
        org_name=ctx.org_name,
        admin_name=ctx.admin.full_name,
        today=ctx.today(),
        language=code_label("language", state.get("language", "en"), "en"),
    )
    earlier = (
        [SystemMessage(HISTORY_SUMMARY.format(summary=state["history_summary"]))]
        if state.get("history_summary")
        else []
    )
    history = [
        HumanMessage(turn["content"]) if turn["role"] == "user" else AIMessage(turn["content"])
        for turn in state.get("history", [])
    ]
    return [SystemMessage(system), *earlier, *history, HumanMessage(state["message"])]


def _reply_tokens(reply) -> int:
    usage = getattr(reply, "usage_metadata", None) or {}
    return int(usage.get("total_tokens") or usage.get("input_tokens", 0) + usage.get("output_tokens", 0))


def recall(state: AdminState, runtime: Runtime[AdminContext]) -> dict:
    """The session's memory for the model: its recent turns and a summary of the older ones."""
    history, summary = runtime.context.recall(state.get("language", "es"))
    return {"history": history, "history_summary": summary}


def plan(state: AdminState, runtime: Runtime[AdminContext]) -> dict:
    """The model picks tools; offline (or when the model fails) the twin routes by exemplars. A model
    that answers in prose, with arguments its tool's schema refuses, with another write than the one
    asked for, or without a value the admin gave, while the twin maps the request to a tool, is overruled
    by the twin's plan, and ``fallback`` says why (issues 13, 32)."""
    ctx = runtime.context
    fallback, tokens, model_text = None, 0, ""
    if asked := state.get("asked"):  # "la primera" after "¿cuál?": the request that asked, completed
        with ctx.pool.connection() as conn:
            answered = clarify.answered_call(asked, state["message"], OrgNames.read(conn, ctx.admin.org_id))
        if answered is not None:
            return {"planned": [answered], "next_steps": [], "engine": "offline", "fallback": None, "response": ""}
    earlier = next((turn["content"] for turn in reversed(state.get("history", [])) if turn["role"] == "user"), None)
    with ctx.pool.connection() as conn:
        planned, next_steps = twin.plan_offline(
            conn, ctx.admin.org_id, state["message"], ctx.today(), ctx.embedder, earlier, state.get("earlier_answer")
        )
    if not ctx.llm.offline:
        reply = ctx.llm.with_tools("admin", _model_messages(state, ctx), [t.openai_schema() for t in ADMIN_TOOLS])
        if reply is not None:
            calls = [{"tool": call["name"], "arguments": call["args"] or {}} for call in reply.tool_calls]
            fallback, tokens = _plan_fault(calls) or plan_disagreement(calls, planned), _reply_tokens(reply)
            model_text = str(reply.text)
            if fallback is None:
                return {
                    "planned": calls,
                    "next_steps": [],
                    "engine": ctx.llm.engine,
                    "fallback": None,
                    "response": "" if calls else str(reply.text),
                    "tokens_used": tokens,
                }
        elif not ctx.llm.capabilities().tool_calling:
            fallback = "no_tool_calling"  # probed: the model can't call tools, it only phrases the reply
    if fallback in ("no_tool_call", "invalid_args") and not planned:  # the twin has no better plan:
        # the model's words are checked in synthesize, its refused calls reported by execute_tools
        return {
            "planned": calls,
            "next_steps": next_steps,
            "engine": ctx.llm.engine,
            "fallback": None,
            "response": "" if calls else model_text,
            "tokens_used": tokens,
        }
    return {
        "planned": planned,
        "next_steps": next_steps,
        "engine": "offline",
        "fallback": fallback,
        "response": "",
        "tokens_used": tokens,
    }


def _plan_fault(calls: list[dict]) -> str | None:
    if not calls:
        return "no_tool_call"
    if any(invalid_arguments(TOOLS_BY_NAME[c["tool"]].parameters, c["arguments"]) for c in calls):
        return "invalid_args"
    return None


def execute_tools(state: AdminState, runtime: Runtime[AdminContext]) -> dict:
    """Reads run now. Every write is prepared and held as a pending action; one confirm runs them all
    ("deactivate Harry and archive the expenses course": both previewed together)."""
    ctx, lang = runtime.context, state.get("language", "es")
    trace: list[ToolCall] = []
    actions: list[Pending] = []
    asked = None
    for call in state.get("planned", []):
        tool = TOOLS_BY_NAME.get(call["tool"])
        if tool is None:
            continue  # the LLM seam already refuses unknown tool names; nothing else can plan one
        invalid = invalid_arguments(tool.parameters, call["arguments"])
        if invalid:  # checked before anything runs, whoever planned it
            trace.append(
                {
                    "tool": tool.name,
                    "arguments": jsonable(call["arguments"]),
                    "result": {"error": f"{tool.name}: invalid arguments ({invalid})", "rows": []},
                }
            )
            continue
        if not tool.requires_confirmation:  # the page shows which step is running
            get_stream_writer()(Step(tool.name, _chip(tool.name, call["arguments"], lang)))
        with ctx.pool.connection() as conn:
            try:
                result = tool.run(tool_context(conn, ctx, lang), dict(call["arguments"]))
            except ToolError as exc:
                result = {"error": str(exc), "rows": exc.candidates}
                asked = asked or clarify.question(tool.name, dict(call["arguments"]), exc)
            except (TypeError, ValueError) as exc:  # a model's malformed argument: say so, run nothing
                result = {"error": f"{tool.name}: invalid arguments ({type(exc).__name__})", "rows": []}
            else:
                if tool.requires_confirmation:
                    action = pending_actions.create_pending(
                        conn,
                        ctx.admin.org_id,
                        ctx.admin.id,
                        ctx.session_id,
                        tool=tool.name,
                        arguments=result["arguments"],
                        preview=result["preview"],
                        joins_batch=bool(actions),
                    )
                    actions.append(
                        {
                            "id": str(action.id),
                            "tool": tool.name,
                            "arguments": jsonable(result["arguments"]),
                            "preview": result["preview"],
                        }
                    )
                    result = {"rows": result["rows"], "preview": result["preview"], "action": result.get("action")}
            if tool.requires_confirmation:  # named once prepared: what it will do, not the tool's name
                get_stream_writer()(Step(tool.name, _chip(tool.name, call["arguments"], lang, result.get("action"))))
        trace.append({"tool": tool.name, "arguments": jsonable(call["arguments"]), "result": result})
    pending = (
        (state.get("pending") if state.get("asked_while_pending") else None)  # a read under a preview: it waits
        if not actions
        else actions[0]
        if len(actions) == 1
        else {**actions[0], "preview": "\n\n".join(a["preview"] for a in actions), "actions": actions}
    )
    return {"tool_calls": trace, "pending": pending, "next_steps": state.get("next_steps", []), "asked": asked}


def _chip(tool: str, arguments: dict, lang: str, action: str | None = None) -> str:
    """The step's label: what the call does ("ampliar un plazo", "cambiar una fecha límite", "asignar un curso")."""
    return t("admin.assistant.running", lang, tool=code_label("tool", action or action_name(tool, arguments), lang))


def execute_confirmed(ctx: ToolContext, action_id: str) -> dict | None:
    """Run a confirmed pending action exactly once: None when it is no longer pending (already
    executed, cancelled, another admin's or another organisation's)."""
    action = pending_actions.claim_pending(ctx.conn, ctx.org_id, ctx.admin.id, action_id)
    if action is None:
        return None
    execute = TOOLS_BY_NAME[action.tool].execute
    if execute is None:  # only a write tool's preview is held as a pending action
        raise PermissionError(f"{action.tool} is not a write tool")
    result = execute(ctx, action.arguments)
    pending_actions.set_pending_result(ctx.conn, ctx.org_id, action.id, result)
    return result


class _Reply:
    """The reply as it is built, streamed to the page piece by piece as it is written (the turn's events)."""

    def __init__(self):
        self.parts: list[str] = []
        self._emit = get_stream_writer()

    def add(self, text: str) -> None:
        if text:
            self.stream(stream_words(text))

    def stream(self, tokens) -> str:
        """Send ``tokens`` as they come and keep them as the next part; returns that part."""
        part = ""
        for token in tokens:
            if not part and self.parts:
                self._emit(Token("\n\n"))
            part += token
            self._emit(Token(token))
        if part:
            self.parts.append(part)
        return part

    def replace_last(self, text: str) -> None:
        """The last part was judged unusable: the page swaps everything shown for the corrected reply."""
        self.parts[-1:] = [text]
        self._emit(Replace(self.text))

    @property
    def text(self) -> str:
        return "\n\n".join(self.parts)


def _model_summary(state: AdminState, ctx: AdminContext, twin_text: str, reply: _Reply) -> tuple[str, str | None, int]:
    """(engine, fallback, tokens): the model phrases the results, streamed as it writes; a reply naming
    people or figures the results don't hold is replaced by the templated one."""
    results = state["tool_calls"]
    language = code_label("language", state.get("language", "en"), "en")
    # A slow model reads the twin's summary of the results, not their JSON: a skills matrix is ~4,000
    # tokens, which SmolLM2 on 2 busy cores read for over ten minutes before writing a word (issue 13).
    facts = twin_text if ctx.llm.capabilities().slow else json.dumps(results, ensure_ascii=False, default=str)[:12000]
    messages = [
        *_model_messages(state, ctx)[:-1],
        HumanMessage(state["message"]),
        HumanMessage(SYNTHESIS_INSTRUCTION.format(language=language, results=facts)),
    ]
    stream = ctx.llm.stream(
        "admin",
        messages,
        twin=lambda: twin_text,
        max_tokens=ctx.llm.answer_tokens("admin"),
        deadline_s=ctx.llm.settings.answer_seconds,
    )
    text = reply.stream(stream)
    tokens = stream.tokens_in + stream.tokens_out if stream.attempts else 0
    if stream.engine == "offline":
        return "offline", stream.outcome.split(":", 1)[-1], tokens
    cut = {"timeout": "timeout", "truncated": "error"}.get(stream.outcome)  # a phrasing cut off half-way
    cut = cut or ("length" if stream.finish_reason == "length" else None)
    if cut or ungrounded_mentions(text, results, state["message"]):
        reply.replace_last(twin_text)
        return "offline", cut or "ungrounded", tokens
    return stream.engine, None, tokens


def synthesize(state: AdminState, runtime: Runtime[AdminContext]) -> dict:
    """The reply: what was cancelled or done, the reads summarised, the preview verbatim, next steps."""
    ctx, lang = runtime.context, state.get("language", "es")
    engine, fallback, tokens = state.get("engine", "offline"), state.get("fallback"), state.get("tokens_used", 0)
    reply = _Reply()
    if cancelled := state.get("cancelled"):
        reply.add(t("admin.phrase.cancelled", lang, preview=cancelled["preview"].splitlines()[0]))
    if state.get("amended"):
        reply.add(t("admin.phrase.amended", lang))
    for done in state.get("executed", []):
        message = done["result"].get("message") or done["result"].get("error", "")
        reply.add(t("admin.phrase.done", lang, message=message) if "message" in done["result"] else message)
    reads = [call for call in state.get("tool_calls", []) if "preview" not in call["result"]]
    if reads:
        in_full = asks_who_they_are(state.get("message", ""), state.get("earlier_answer"))  # "¿y quiénes son?"
        twin_text = "\n".join(
            replies.summarize(c["tool"], c["arguments"], c["result"], lang, in_full=in_full) for c in reads
        )
        if ctx.llm.offline or (engine == "offline" and fallback is None):  # offline, or the model failed
            reply.add(twin_text)
        else:
            engine, phrased_fallback, used = _model_summary(state, ctx, twin_text, reply)
            fallback, tokens = phrased_fallback or state.get("fallback"), tokens + used
    elif state.get("response"):
        if ungrounded_mentions(state["response"], [], state["message"]):
            fallback, engine = "ungrounded", "offline"
            reply.add(t("admin.phrase.help", lang))
        else:
            reply.add(state["response"])
    elif state.get("message") and not state.get("pending") and not state.get("amended"):
        nearest = ""
        if not routing.asks_for_help(state["message"]):  # said, so the list doesn't read as an answer
            with ctx.pool.connection() as conn:  # "delete the expenses course": why not, and what is nearest
                nearest = nearest_offer(tool_context(conn, ctx, lang), state["message"])
            reply.add(nearest or t("admin.phrase.not_understood", lang))
        if not nearest:
            reply.add(t("admin.phrase.help", lang))
    if (pending := state.get("pending")) and state.get("asked_while_pending"):  # answered under the preview
        reply.add(t("admin.phrase.still_waiting_line", lang, preview=pending["preview"].splitlines()[0]))
    elif pending:
        reply.add(pending["preview"])
        reply.add(t("admin.phrase.preview_ask", lang))
    for step in state.get("next_steps", []):
        reply.add(t("admin.phrase.next_step", lang, step=step))
    return {
        "response": reply.text,
        "engine": engine,
        "fallback": fallback,
        "tokens_used": tokens,
        "asked_while_pending": False,
    }
