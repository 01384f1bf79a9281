"""One tutor turn in the chat: the answer streamed into the history, then its suggestion chips, the
conversations list and its sources."""

from __future__ import annotations

import html
import time

import gradio as gr

from agents.i18n import t
from agents.runtime.deps import process_deps
from agents.tutor import service
from core.markup import safe_markdown
from core.turns import Done, Error, Fallback, Grounding, Suggestions, Token
from ui import chat_failover
from ui.chat_render import StreamedAnswer, badge_html
from ui.chat_sign_in import chat_user, conversation_choices, request_language

UPDATE_INTERVAL = 0.05  # seconds from Gradio taking one streamed update to the next (at most ~20 per second)
SUGGESTION_SLOTS = 3


def suggestion_chips(suggestions: list[str]) -> list:
    padded = (suggestions + [""] * SUGGESTION_SLOTS)[:SUGGESTION_SLOTS]
    return [gr.update(value=s, visible=bool(s)) for s in padded]


def respond(
    message: str,
    history: list,
    user_ref: dict | None,
    session_id: str | None,
    context: dict,
    request: gr.Request = None,
):
    """Stream one answer; yields (chatbot, textbox, session, chip×3, sessions, status, sources, panel)."""
    keep = [gr.skip()] * (SUGGESTION_SLOTS + 1)  # chips and the sessions list
    untouched = (gr.skip(), gr.skip())  # the source panel
    user = chat_user(user_ref) if user_ref else chat_failover.cookie_user(request)  # no state here: a failover
    if user is None:
        yield (history, message, session_id, *keep, t("common.sign_in_first", request_language(request)), *untouched)
        return
    context = context or {}
    session_id = session_id or (chat_failover.conversation_on_screen(user, history) if user_ref is None else None)
    if not (message or "").strip():  # nothing is sent; the input itself says why
        yield (
            history,
            gr.update(value="", placeholder=t("tutor.error.empty_message", user.language)),
            session_id,
            *keep,
            "",
            *untouched,
        )
        return
    history = list(history or []) + [
        {"role": "user", "content": safe_markdown(message)},
        {"role": "assistant", "content": "…"},
    ]
    try:
        if not session_id and (message or "").strip():
            session_id = str(
                service.new_session(
                    process_deps(), user, course=(context or {}).get("course"), lesson=(context or {}).get("lesson")
                ).id
            )
    except service.TutorError as exc:
        history[-1]["content"] = f"⚠️ {exc}"
        yield (history, message, session_id, *keep, str(exc), *untouched)
        return
    yield (
        history,
        gr.update(value="", placeholder=t("tutor.chat.placeholder", user.language)),
        session_id,
        *keep,
        "",
        *untouched,
    )
    answer, notice, status, last = "", "", "", 0.0
    suggestions: list[str] = []
    sources = gr.update(choices=[], value=None, visible=False)
    shown = StreamedAnswer()
    for event in service.run_turn(
        process_deps(), user, message, session_id=session_id, from_exercise=context.get("exercise")
    ):
        shown.take(event)
        if isinstance(event, Token):
            answer += event.text
            if time.monotonic() - last >= UPDATE_INTERVAL:
                history[-1]["content"] = notice + safe_markdown(answer)  # streamed text is rendered too
                yield (history, gr.skip(), session_id, *keep, status, *untouched)
                # counted from when Gradio asks for the next update, not from this one's yield: on a busy
                # server the ask comes later than the interval, and every token was its own update (25-55
                # full-history updates per offline answer under 20 chats, the work they all queued behind)
                last = time.monotonic()
        elif isinstance(event, Grounding):
            status = badge_html(event.rung, event.source, None, user.language)
            notice = f"_⚠️ {html.escape(event.notice)}_\n\n" if event.notice else ""
            if notice:  # shown above the answer before any token arrives
                history[-1]["content"] = notice + "…"
                yield (history, gr.skip(), session_id, *keep, status, *untouched)
        elif isinstance(event, Fallback):  # the model's text was rejected: clear it, the twin's answer follows
            answer = ""
            history[-1]["content"] = f"_{event.message}_"
            yield (history, gr.skip(), session_id, *keep, status, *untouched)
        elif isinstance(event, Suggestions):
            suggestions = event.suggestions
        elif isinstance(event, Error):
            history[-1]["content"] = f"⚠️ {event.message}"
            yield (history, gr.skip(), session_id, *keep, event.message, *untouched)
            return
        elif isinstance(event, Done):
            history[-1]["content"] = shown.html(context.get("app"))  # from the events: no database read
            status = ""  # the answer carries its own badges (and low confidence): the line under the chat was a copy
            choices = shown.sources()
            sources = gr.update(choices=choices, value=None, visible=bool(choices))
    yield (
        history,
        gr.skip(),
        session_id,
        *suggestion_chips(suggestions),
        gr.update(choices=conversation_choices(user), value=session_id),
        status,
        sources,
        gr.update(value="", visible=False),
    )


def stream_turn(
    message: str,
    history: list,
    user_ref: dict | None,
    session_id: str | None,
    context: dict,
    request: gr.Request = None,
):
    """One turn as Gradio runs it: respond's answer streams into the chat with only what changes while it
    streams, and the rest of its last update (chips, sessions list, sources) waits in ``panels`` for
    `show_panels`. Gradio rebuilds a whole component on its one event loop for each gr.update/gr.skip of
    every streamed update (1-3 ms each): respond's six skipped side outputs made that loop the queue that
    20 concurrent chats waited in for their first token (p95 2.5 s; the answers themselves took 0.1 s)."""
    for update in respond(message, history, user_ref, session_id, context, request):
        chatbot, box, session, *side, status, sources, panel = update
        yield chatbot, box, session, status, (*side, sources, panel)


PANEL_OUTPUTS = SUGGESTION_SLOTS + 3  # chip×3, sessions, sources, panel


def show_panels(panels: tuple | None):
    """What came with the finished answer: its suggestion chips, the sessions list, its sources."""
    return panels or (gr.skip(),) * PANEL_OUTPUTS
