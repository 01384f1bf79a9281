"""Who is signed in: the browser's session cookie resumed on every run, and the guards pages start with.

The session id travels in the ``skillnet_session`` cookie. Streamlit reads cookies
(``st.context.cookies``, sent with the page's connection) but a script cannot send response headers,
so the server sets it (ui/cookie_routes.py: HttpOnly, SameSite=Strict, Secure over https) when the
browser fetches an image this script draws; no script runs in the page. The cookie holds only a random
id: the session lives in the database, where sign-out and deactivation revoke it, and the idle and
absolute timeouts apply.
"""

from __future__ import annotations

import streamlit as st
from streamlit.runtime.pages_manager import PagesManager

from agents import auth
from agents.i18n import t
from storage import users
from ui import cookie_routes
from ui.deps import app_deps

USER_KEY = "user"
SSO_REFUSED_KEY = "sso_refused"
TOKEN_KEY = "session_token"
COOKIE = cookie_routes.COOKIE
_COOKIE_ACTION = (
    "session_cookie_action"  # "clear": drop the cookie on the next run (st.rerun drops this run's elements)
)
_HANDOFF_KEY = "session_cookie_handoff"  # (token or None, code) the browser is to fetch


def _cookie() -> str | None:
    """The session id the browser sent with this page's connection, if any."""
    value = st.context.cookies.get(COOKIE)
    return value if isinstance(value, str) and value else None


def client_address() -> str | None:
    """The browser's address (None without a browser connection, as under AppTest)."""
    address = st.context.ip_address
    return address if isinstance(address, str) and address else None


def _start(signed: auth.SignedIn) -> users.User:
    old = st.session_state.get(TOKEN_KEY) or _cookie()
    if old and old != signed.token:
        auth.sign_out(app_deps(), old)  # rotation: the id the browser had before this sign-in is dead now
    st.session_state[USER_KEY] = signed.user
    st.session_state[TOKEN_KEY] = signed.token
    return signed.user


def sign_in(email: str, password: str) -> users.User | None:
    signed = auth.sign_in_with_password(app_deps(), email, password, client_address())
    return _start(signed) if signed else None


def sign_in_sso(email: str | None) -> users.User | None:
    signed = auth.sign_in_with_sso(app_deps(), email)
    return _start(signed) if signed else None


def sso_configured() -> bool:
    """Company SSO is set up: an [auth] section in .streamlit/secrets.toml (st.login's own config)."""
    try:
        return "auth" in st.secrets
    except FileNotFoundError:  # no secrets file at all (StreamlitSecretNotFoundError)
        return False


def _sso_email() -> str | None:
    """The email claim of the identity provider's sign-in Streamlit holds (its own HttpOnly cookie)."""
    if not sso_configured() or not st.user.is_logged_in:
        return None
    email = st.user.get("email")
    return email if isinstance(email, str) else None


def sign_out() -> None:
    auth.sign_out(app_deps(), st.session_state.get(TOKEN_KEY) or _cookie())
    st.session_state.pop(USER_KEY, None)
    st.session_state.pop(TOKEN_KEY, None)
    st.session_state[_COOKIE_ACTION] = "clear"
    if _sso_email():
        st.logout()  # else the provider's sign-in would sign this browser straight back in


def resume_user() -> users.User | None:
    """The user of this browser's live session, checked once per run by app.py (so a sign-out in
    another tab, a deactivation or a timeout ends it on the next click).

    A user put in session_state without a session id can only come from a test: production code
    signs in through ``sign_in``.
    """
    token = st.session_state.get(TOKEN_KEY) or _cookie()
    if token:
        user = auth.resume(app_deps(), token)
        if user is None:
            st.session_state.pop(USER_KEY, None)
            st.session_state.pop(TOKEN_KEY, None)
            if _cookie():
                st.session_state[_COOKIE_ACTION] = "clear"
            return None
        st.session_state[USER_KEY], st.session_state[TOKEN_KEY] = user, token
        return user
    if (email := _sso_email()) and not st.session_state.get(SSO_REFUSED_KEY):
        signed = auth.sign_in_with_sso(app_deps(), email)
        if signed is None:
            st.session_state[SSO_REFUSED_KEY] = True  # said once on the sign-in page
            return None
        return _start(signed)
    return st.session_state.get(USER_KEY)


def current_user() -> users.User | None:
    """The user app.py resumed for this run (pages and widgets ask this, without a query)."""
    return st.session_state.get(USER_KEY)


def write_session_cookie() -> None:
    """Keep the browser's cookie in step with this run's session; call once per run, before the page.

    The image is drawn on every run until the browser has fetched it (not only after signing in): a
    click right after signing in can start the next run before the first one's image has loaded.
    """
    token = st.session_state.get(TOKEN_KEY)
    pending = st.session_state.get(_HANDOFF_KEY)
    if token:
        if token != _cookie():
            _hand_off(token, pending)
    elif st.session_state.pop(_COOKIE_ACTION, None) == "clear" or (pending and pending[0] is None):
        _hand_off(None, pending)


def _hand_off(token: str | None, pending: tuple[str | None, str] | None) -> None:
    if pending is None or pending[0] != token:
        pending = (token, cookie_routes.hand_off(token))
        st.session_state[_HANDOFF_KEY] = pending
    if cookie_routes.waiting(pending[1]):
        st.html(cookie_routes.image_html(pending[1]))


def _run_through_app() -> None:
    """Rerun through app.py when Streamlit ran this page file alone.

    A server's first run serves ``pages/`` the legacy way (the page file by its address, without
    app.py), until some run has called ``st.navigation``; a deep link as that first request would
    skip app.py's session resume and ask to sign in. Streamlit keeps that mode in one class flag,
    which ``st.navigation`` clears: clearing it here and rerunning runs app.py at the same address.
    """
    if PagesManager.uses_pages_directory:
        PagesManager.uses_pages_directory = False
        st.rerun()


def require_user() -> users.User:
    """The signed-in user; stops the page for anyone else."""
    _run_through_app()
    user = current_user()
    if user is None:
        st.warning(t("common.sign_in_first", None))
        st.stop()
    return user


def require_admin() -> users.User:
    """The signed-in admin; an employee (or anyone) stops here, even arriving by URL."""
    user = require_user()
    if not user.is_admin:
        st.error(t("common.admins_only", user.language))
        st.stop()
    return user
