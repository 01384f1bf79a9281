"""The tutor chat's conversations: open one (its bubbles and the source panel's options), start, rename, delete
and rate them, and show a cited source; anybody else's conversation answers "not found"."""

from __future__ import annotations

import html
import json

import gradio as gr

from agents.i18n import t
from agents.runtime.deps import process_deps
from agents.tutor import service
from agents.tutor.sources import SOURCE_KEYS, open_source
from core.markup import safe_markdown
from ui.chat_render import render_answer, source_choices
from ui.chat_sign_in import chat_user, conversation_choices, request_language
from ui.source_html import source_html, source_summary


def show_source(target: str | None, user_ref: dict | None):
    """The source panel: the cited document with the passage highlighted."""
    user = chat_user(user_ref)
    if user is None or not target:
        return gr.update(value="", visible=False)
    query = json.loads(target)
    view = open_source(process_deps(), user, **{key: query.get(key) for key in SOURCE_KEYS})
    if view is None:
        return gr.update(value=html.escape(t("tutor.source.not_found", user.language)), visible=True)
    heading = f"<p><b>{html.escape(source_summary(view, user.language))}</b></p>"
    return gr.update(value=heading + source_html(view, user.language), visible=True)


SCROLL_TO_CITED = (
    "() => { setTimeout(() => document.getElementById('sv-cited')?.scrollIntoView({block: 'center'}), 200); }"
)


def _history(user, session_id, app_url: str | None = None) -> tuple[list[dict], list]:
    """The conversation as chat bubbles, and the source panel's options for its last answer."""
    shown, last = [], {}
    for message in service.session_messages(process_deps(), user, session_id):
        content = (
            safe_markdown(message.content)
            if message.role == "user"
            else render_answer(
                message.content, message.metadata, message.metadata.get("language") or user.language, app_url
            )
        )
        shown.append({"role": message.role, "content": content})
        if message.role == "assistant":
            last = message.metadata
    return shown, source_choices(last)


def open_session(
    session_id: str | None, user_ref: dict | None, context: dict | None = None, request: gr.Request = None
):
    """Show one of the user's conversations; anybody else's id answers "not found"."""
    user = chat_user(user_ref)
    if user is None or not session_id:
        signed_out = t("common.sign_in_first", request_language(request)) if user is None else ""
        return gr.skip(), gr.skip(), signed_out, gr.skip()
    try:
        shown, choices = _history(user, session_id, (context or {}).get("app"))
    except service.TutorError as exc:
        return [], None, str(exc), gr.update(choices=[], visible=False)
    return shown, session_id, "", gr.update(choices=choices, value=None, visible=bool(choices))


def new_chat():
    return (
        [],
        None,
        [],  # no chips
        gr.update(value=None),
        "",
        gr.update(choices=[], value=None, visible=False),
        gr.update(value="", visible=False),
    )


def rename(session_id: str | None, title: str, user_ref: dict | None):
    user = chat_user(user_ref)
    if user is None or not session_id or not (title or "").strip():
        return gr.skip(), ""
    try:
        service.rename_session(process_deps(), user, session_id, title)
    except service.TutorError as exc:
        return gr.skip(), str(exc)
    return gr.update(choices=conversation_choices(user), value=session_id), ""


def rate(session_id: str | None, user_ref: dict | None, liked: gr.LikeData):
    """👍 or 👎 on an answer (clicking it again takes it back): kept on the message, and a 👎 counts the
    question as a knowledge gap for the admins."""
    user = chat_user(user_ref)
    index = liked.index[0] if isinstance(liked.index, list | tuple) else liked.index
    if user is None or not session_id or not isinstance(index, int):
        return gr.skip()
    helpful = liked.liked if isinstance(liked.liked, bool) else None
    try:
        service.rate_answer(process_deps(), user, session_id, index, helpful)
    except service.TutorError as exc:
        return str(exc)
    return gr.skip()


def delete(session_id: str | None, user_ref: dict | None):
    user = chat_user(user_ref)
    if user is None or not session_id:
        return gr.skip(), gr.skip(), gr.skip(), ""
    try:
        service.delete_session(process_deps(), user, session_id)
    except service.TutorError as exc:
        return gr.skip(), gr.skip(), gr.skip(), str(exc)
    return [], None, gr.update(choices=conversation_choices(user), value=None), ""
