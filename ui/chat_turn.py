"""One tutor turn in the chat: the question taken from the input (in the browser), the answer streamed into
the history, then its suggestion chips, the conversations list and its sources."""

from __future__ import annotations

import html
import json
import time

import gradio as gr

from agents.i18n import LANGUAGES, t
from agents.runtime.deps import process_deps
from agents.tutor import service
from core.markup import safe_markdown
from core.turns import Done, Error, Fallback, Grounding, Suggestions, Token
from ui import chat_failover
from ui.chat_render import StreamedAnswer, badge_html
from ui.chat_sign_in import chat_user, conversation_choices, request_language

UPDATE_INTERVAL = 0.05  # seconds from Gradio taking one streamed update to the next (at most ~20 per second)

# Gradio rebuilds a whole component on its one event loop for every gr.update/gr.skip of every update it sends
# (1-3 ms each), and that loop is the queue 20 concurrent chats wait in for their first token. So a turn's
# streamed updates carry only plain values (the chat, the status line) and states; the input is emptied in the
# browser before the turn starts, and what comes with the finished answer goes once, in `show_panels`.

# The question leaves the input at once, in the browser, into the hidden box the turn reads. One question may
# wait for the answer on screen (the turn's trigger_mode is "always_last"); a further one stays in the input,
# as every question sent while an answer streamed used to. A blank one is not taken: the input's placeholder
# says why, in the reader's language (the placeholders of every language are told apart by their text).
_TAKE_QUESTION = """(question, asked) => {
  const box = document.querySelector('#tutor-input textarea');
  const notices = NOTICES, placeholders = Object.fromEntries(Object.entries(notices).map(([p, n]) => [n, p]));
  if (!(question || '').trim()) {
    if (box && notices[box.placeholder]) box.placeholder = notices[box.placeholder];
    return [question, window.skillnetTutorWaiting ? asked : ''];
  }
  if (box && placeholders[box.placeholder]) box.placeholder = placeholders[box.placeholder];
  if (window.skillnetTutorWaiting) return [question, asked];
  window.skillnetTutorWaiting = true;
  return ['', question];
}"""
TURN_STARTS = "(...inputs) => { window.skillnetTutorWaiting = false; return inputs; }"  # the waiting question is taken


def take_question_js() -> str:
    """The browser's step before a typed turn (see _TAKE_QUESTION)."""
    notices = {t("tutor.chat.placeholder", lang): t("tutor.error.empty_message", lang) for lang in LANGUAGES}
    return _TAKE_QUESTION.replace("NOTICES", json.dumps(notices, ensure_ascii=False))


# The suggestion chips are one component whose value is their texts (a plain value: nothing rebuilt); a click
# asks the chip's text.
SUGGESTION_SLOTS = 3  # chips in the row at most
CHIPS_TEMPLATE = (
    '<div class="tutor-chips">{{#each value}}<button type="button" class="tutor-chip">{{this}}</button>{{/each}}</div>'
)
CHIP_CLICKS = """element.addEventListener('click', (event) => {
  const chip = event.target.closest('button.tutor-chip');
  if (chip) trigger('click', {question: chip.textContent});
});"""


def respond(
    message: str,
    history: list,
    user_ref: dict | None,
    session_id: str | None,
    context: dict,
    request: gr.Request = None,
):
    """Stream one answer; yields (chatbot, session, status, panels): ``panels`` is None until the answer is
    finished, then `show_panels`' outputs (the chips, the conversations list, the sources and their panel)."""
    user = chat_user(user_ref) if user_ref else chat_failover.cookie_user(request)  # no state here: a failover
    if user is None:
        yield history, session_id, t("common.sign_in_first", request_language(request)), None
        return
    context = context or {}
    session_id = session_id or (chat_failover.conversation_on_screen(user, history) if user_ref is None else None)
    if not (message or "").strip():  # nothing is sent (in the browser, the input says why)
        yield history, session_id, "", None
        return
    history = list(history or []) + [
        {"role": "user", "content": safe_markdown(message)},
        {"role": "assistant", "content": "…"},
    ]
    try:
        if not session_id:
            session_id = str(
                service.new_session(
                    process_deps(), user, course=(context or {}).get("course"), lesson=(context or {}).get("lesson")
                ).id
            )
    except service.TutorError as exc:
        history[-1]["content"] = f"⚠️ {exc}"
        yield history, session_id, str(exc), None
        return
    yield history, session_id, "", None
    answer, notice, status, last = "", "", "", 0.0
    suggestions: list[str] = []
    sources = gr.update(choices=[], value=None, visible=False)
    shown = StreamedAnswer()
    for event in service.run_turn(
        process_deps(), user, message, session_id=session_id, from_exercise=context.get("exercise")
    ):
        if isinstance(event, Token):  # most of a turn's events: nothing else looks at them
            answer += event.text
            if time.monotonic() - last >= UPDATE_INTERVAL:
                history[-1]["content"] = notice + safe_markdown(answer)  # streamed text is rendered too
                yield history, session_id, status, None
                # counted from when Gradio asks for the next update, not from this one's yield: on a busy
                # server the ask comes later than the interval, and every token was its own update (25-55
                # full-history updates per offline answer under 20 chats, the work they all queued behind)
                last = time.monotonic()
            continue
        shown.take(event)
        if isinstance(event, Grounding):
            asking = event.guided == "ask"  # a guiding question: no document has answered yet
            status = badge_html(None if asking else event.rung, None if asking else event.source, None, user.language)
            notice = f"_⚠️ {html.escape(event.notice)}_\n\n" if event.notice else ""
            if notice:  # shown above the answer before any token arrives
                history[-1]["content"] = notice + "…"
                yield history, session_id, status, None
        elif isinstance(event, Fallback):  # the model's text was rejected: clear it, the twin's answer follows
            answer = ""
            history[-1]["content"] = f"_{event.message}_"
            yield history, session_id, status, None
        elif isinstance(event, Suggestions):
            suggestions = event.suggestions
        elif isinstance(event, Error):
            history[-1]["content"] = f"⚠️ {event.message}"
            yield history, session_id, event.message, None
            return
        elif isinstance(event, Done):
            history[-1]["content"] = shown.html(context.get("app"))  # from the events: no database read
            status = ""  # the answer carries its own badges (and low confidence): the line under the chat was a copy
            choices = shown.sources()
            sources = gr.update(choices=choices, value=None, visible=bool(choices))
    chips, sessions = suggestions[:SUGGESTION_SLOTS], gr.update(choices=conversation_choices(user), value=session_id)
    yield history, session_id, status, (chips, sessions, sources, gr.update(value="", visible=False))


def ask_chip(
    history: list,
    user_ref: dict | None,
    session_id: str | None,
    context: dict,
    chip: gr.EventData,
    request: gr.Request = None,
):
    """A suggestion chip's question, asked as if typed (the input is left as it is)."""
    yield from respond(getattr(chip, "question", ""), history, user_ref, session_id, context, request)


def show_panels(panels: tuple | None):
    """What came with the finished answer: its suggestion chips, the conversations list, its sources; nothing
    before an answer finished."""
    return panels or (gr.skip(),) * 4
