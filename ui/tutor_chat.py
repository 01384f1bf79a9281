"""Embed the Gradio tutor chat in a Streamlit page, signed in as the current learner.

The frame is served from the host the browser reached Streamlit on (under SKILLNET_CHAT_PATH on the
app's own origin behind a proxy, else on the chat's port), so the browser sends it the app's session
cookie and the chat signs the learner in from that (no token in the address).
"""

from __future__ import annotations

from urllib.parse import urlencode, urlsplit

import streamlit as st

from core import config
from storage.users import User
from ui.chat_server import chat_server_port


def chat_url(course_id=None, lesson_id=None, exercise_id=None, session_id=None) -> str:
    """The chat's address: under SKILLNET_CHAT_PATH on the app's own origin (one https origin behind the
    proxy), else on the chat's port of the host the browser reached Streamlit on.

    ``exercise_id``: the exercise on screen beside the chat (hint-only answers about it); ``app`` tells
    the chat where the app's pages are, for its source, course and helpdesk links."""
    page = urlsplit(st.context.url or "http://localhost")
    host = page.hostname or "localhost"
    origin = f"{page.scheme or 'http'}://{page.netloc or host}"
    query = {"app": origin}
    if course_id:  # shown beside a lesson, in a narrow column: the chat's compact layout
        query.update(course=str(course_id), embed="1")
    if lesson_id:
        query["lesson"] = str(lesson_id)
    if exercise_id:
        query["exercise"] = str(exercise_id)
    if session_id:  # a past conversation to open (Home's recent chats)
        query["session"] = str(session_id)
    path = config.get("SKILLNET_CHAT_PATH")
    if path is not None:
        return f"{origin}{path}?{urlencode(query)}"
    return f"http://{host}:{chat_server_port()}/?{urlencode(query)}"


def embed_tutor(
    user: User, course_id=None, lesson_id=None, height: int | None = None, exercise_id=None, session_id=None
) -> None:
    """The tutor chat in an iframe; ``course_id``/``lesson_id`` tell it what the learner is viewing.

    The chat fills the frame (its history shrinks first), so the input box and Send stay in view.
    """
    st.iframe(chat_url(course_id, lesson_id, exercise_id, session_id), height=height or (720 if course_id else 760))
