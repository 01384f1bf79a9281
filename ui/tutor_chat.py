"""Embed the Gradio tutor chat in a Streamlit page, signed in as the current learner.

The frame is served from the host the browser reached Streamlit on, so the browser sends it the
app's session cookie and the chat signs the learner in from that (no token in the address).
"""
from __future__ import annotations

from urllib.parse import urlencode, urlsplit

import streamlit as st

from storage.users import User
from ui.chat_server import chat_server_port


def chat_url(course_id=None, lesson_id=None) -> str:
    """The chat's address on the same host the browser reached Streamlit on."""
    port = chat_server_port()
    host = urlsplit(st.context.url or "http://localhost").hostname or "localhost"
    query = {}
    if course_id:  # shown beside a lesson, in a narrow column: the chat's compact layout
        query.update(course=str(course_id), embed="1")
    if lesson_id:
        query["lesson"] = str(lesson_id)
    return f"http://{host}:{port}/?{urlencode(query)}" if query else f"http://{host}:{port}/"


def embed_tutor(user: User, course_id=None, lesson_id=None, height: int | None = None) -> None:
    """The tutor chat in an iframe; ``course_id``/``lesson_id`` tell it what the learner is viewing.

    The chat fills the frame (its history shrinks first), so the input box and Send stay in view.
    """
    st.iframe(chat_url(course_id, lesson_id), height=height or (720 if course_id else 760))
