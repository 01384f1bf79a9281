"""Embed the Gradio tutor chat in a Streamlit page, signed in as the current learner."""
from __future__ import annotations

import time
from urllib.parse import urlencode, urlsplit

import streamlit as st

from agents.tutor.auth_token import issue_token
from storage.users import User
from ui.chat_server import chat_server_port

TOKEN_TTL_SECONDS = 3600


def _token(user: User) -> str:
    """One token per sign-in, renewed at half-life: an unchanged iframe URL keeps the chat from reloading."""
    key = f"tutor_token:{user.id}"
    token, issued = st.session_state.get(key, (None, 0.0))
    if token is None or time.time() - issued > TOKEN_TTL_SECONDS / 2:
        token, issued = issue_token(user.id, user.org_id, ttl_seconds=TOKEN_TTL_SECONDS), time.time()
        st.session_state[key] = (token, issued)
    return token


def chat_url(user: User, course_id=None, lesson_id=None) -> str:
    """The chat's address with a fresh signed token (same host the browser reached Streamlit on)."""
    port = chat_server_port()
    host = urlsplit(st.context.url or "http://localhost").hostname or "localhost"
    query = {"token": _token(user)}
    if course_id:  # shown beside a lesson, in a narrow column: the chat's compact layout
        query.update(course=str(course_id), embed="1")
    if lesson_id:
        query["lesson"] = str(lesson_id)
    return f"http://{host}:{port}/?{urlencode(query)}"


def embed_tutor(user: User, course_id=None, lesson_id=None, height: int | None = None) -> None:
    """The tutor chat in an iframe; ``course_id``/``lesson_id`` tell it what the learner is viewing.

    The chat fills the frame (its history shrinks first), so the input box and Send stay in view.
    """
    st.iframe(chat_url(user, course_id, lesson_id), height=height or (720 if course_id else 760))
