"""Who is signed in: the Streamlit session's user, and the guards every page starts with."""
from __future__ import annotations

import streamlit as st

from storage import users
from storage.db import app_pool

USER_KEY = "user"


def sign_in(email: str, password: str) -> users.User | None:
    with app_pool().connection() as conn:
        user = users.authenticate(conn, email, password)
    if user is not None:
        st.session_state[USER_KEY] = user
    return user


def sign_out() -> None:
    st.session_state.pop(USER_KEY, None)


def current_user() -> users.User | None:
    return st.session_state.get(USER_KEY)


def require_user() -> users.User:
    """The signed-in user; stops the page for anyone else."""
    user = current_user()
    if user is None:
        st.warning("Please sign in first. / Inicia sesión primero.")
        st.stop()
    return user


def require_admin() -> users.User:
    """The signed-in admin; an employee (or anyone) stops here, even arriving by URL."""
    user = require_user()
    if not user.is_admin:
        st.error("This page is for HR admins. / Esta página es solo para administradores.")
        st.stop()
    return user
