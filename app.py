"""SkillNet: sign in, then the pages your role may use.

Every page's address exists for everyone, so a reload or a bookmarked link never meets "Page not
found": signed out, any address shows the sign-in form and, once signed in, the same address (and
its query) opens the page; a page of the other role answers that it is not available for yours.

`streamlit run app.py` reads this file twice: imported (as ``app``) for the server it serves, the
``st.App`` at the bottom with the route that sets the session cookie (ui/cookie_routes.py); then run
as each browser session's script, under the name ``__main__`` (``main``).
"""

from __future__ import annotations

import asyncio
import contextlib
import faulthandler
import signal
from pathlib import Path

import streamlit as st

from agents.i18n import language, t
from ui import cookie_routes, startup

# Pages by role: (file, title message id, icon); the first is the role's home.
EMPLOYEE_PAGES = [
    ("pages/home_employee.py", "nav.home", "🏠"),
    ("pages/my_courses.py", "nav.my_courses", "📚"),
    ("pages/course_player.py", "nav.course_player", "▶️"),
    ("pages/reviews.py", "nav.reviews", "🔁"),
    ("pages/tutor.py", "nav.tutor", "💬"),
    ("pages/helpdesk.py", "nav.helpdesk", "🛟"),
    ("pages/my_tickets.py", "nav.my_tickets", "🎟️"),
    ("pages/manuals.py", "nav.manuals", "📘"),
]
ADMIN_PAGES = [
    ("pages/home_admin.py", "nav.overview", "🏢"),
    ("pages/skills_matrix.py", "nav.skills_matrix", "🧩"),
    ("pages/skill_gaps.py", "nav.skill_gaps", "🎯"),
    ("pages/knowledge_gaps.py", "nav.knowledge_gaps", "🕳️"),
    ("pages/course_stats.py", "nav.course_stats", "📊"),
    ("pages/employee_detail.py", "nav.employees", "👥"),
    ("pages/content_studio.py", "nav.content_studio", "🏭"),
    ("pages/manuals.py", "nav.manuals", "📘"),
    ("pages/course_player.py", "nav.course_player", "▶️"),
    ("pages/admin_assistant.py", "nav.admin_assistant", "🤖"),
    ("pages/helpdesk.py", "nav.helpdesk", "🛟"),
    ("pages/my_tickets.py", "nav.my_tickets", "🎟️"),
    ("pages/helpdesk_admin.py", "nav.helpdesk_tickets", "🎫"),
    ("pages/operations.py", "nav.operations", "🩺"),
    ("pages/audit_log.py", "nav.audit_log", "🧾"),
    ("pages/retrieval_lab.py", "nav.retrieval_lab", "🔬"),
]
ALL_ADDRESSES = list(dict.fromkeys(Path(path).stem for path, _, _ in EMPLOYEE_PAGES + ADMIN_PAGES))


SIGN_IN_WIDTH = 480  # px, the sign-in form's


def browser_language() -> str:
    """The language the browser asks for (the sign-in form has no user to ask yet)."""
    locale = st.context.locale
    return language(locale if isinstance(locale, str) else None)


def preparing_page() -> None:
    """A first start: what is happening, until the sign-in form can replace it (the run then starts over)."""
    lang = browser_language()
    st.title("🎓 SkillNet")
    st.caption(t("auth.tagline", lang))
    with st.spinner(t("auth.preparing", lang)):
        while not startup.wait_until_ready(timeout=0.2):
            if (reason := startup.failure()) is not None:
                st.error(t("auth.preparing_failed", lang, reason=reason))
                return
    st.rerun()


def preparing_navigation() -> list[st.Page]:
    """The preparing page at every address, so the address (and its query) survives the wait."""
    title = t("auth.preparing_title", browser_language())
    return [st.Page(preparing_page, title=title, icon="⏳", url_path="preparing", default=True)] + [
        st.Page(preparing_page, title=title, icon="⏳", url_path=address, visibility="hidden")
        for address in ALL_ADDRESSES
    ]


def sign_in_page() -> None:
    """The form in one container: the page a sign-in opens replaces all of it with its first element (its title),
    where the form's fields used to stay on screen, faded, until that page had finished loading. As wide as a
    sign-in form, not the screen (two 1,200 px fields on a laptop)."""
    with st.container(width=SIGN_IN_WIDTH):
        sign_in_form()


def sign_in_form() -> None:
    from agents import auth  # imported once the database is ready (main)
    from ui.session import SSO_REFUSED_KEY, sign_in, sso_configured

    lang = browser_language()
    st.title("🎓 SkillNet")
    st.caption(t("auth.tagline", lang))
    if sso_configured():
        if st.session_state.get(SSO_REFUSED_KEY):
            st.error(t("auth.sso_refused", lang))
        if st.button(t("auth.sso", lang), type="primary", key="sso"):
            st.session_state.pop(SSO_REFUSED_KEY, None)
            st.login()  # Streamlit's OIDC flow; back here, resume_user maps the email claim to a user
    if not auth.settings().password_login:
        return
    with st.form("sign_in"):
        email = st.text_input(t("auth.email", lang))
        password = st.text_input(t("auth.password", lang), type="password")
        submitted = st.form_submit_button(t("auth.sign_in", lang), type="primary")
    if submitted:
        with st.spinner(t("auth.signing_in", lang)):  # a process's first sign-in takes seconds on a busy machine
            signed_in = sign_in(email, password)
        if signed_in:
            st.rerun()  # the same address now opens the page it names
        st.error(t("auth.refused", lang))


def not_for_your_role() -> None:
    from ui.session import current_user  # imported once the database is ready (main)

    user = current_user()
    assert user is not None, "a role's pages exist only once someone is signed in"
    st.warning(t("auth.not_for_your_role", user.language))


HOME_ADDRESSES = [Path(pages[0][0]).stem for pages in (EMPLOYEE_PAGES, ADMIN_PAGES)]


def go_home() -> None:
    from ui.session import current_user  # imported once the database is ready (main)

    user = current_user()
    assert user is not None, "a role's pages exist only once someone is signed in"
    st.switch_page((ADMIN_PAGES if user.is_admin else EMPLOYEE_PAGES)[0][0])


def navigation_for(user) -> dict[str, list[st.Page]]:
    pages, section = (ADMIN_PAGES, "nav.section_admin") if user.is_admin else (EMPLOYEE_PAGES, "nav.section_employee")
    # the home is served at "/" under the address "home", so either role's home address (a bookmark,
    # a link from the other role) can lead to this user's home instead of "Page not found"
    own = [
        st.Page(path, title=t(title, user.language), icon=icon, default=i == 0, url_path="home" if i == 0 else None)
        for i, (path, title, icon) in enumerate(pages)
    ]
    homes = [
        st.Page(go_home, title=own[0].title, icon=own[0].icon, url_path=address, visibility="hidden")
        for address in HOME_ADDRESSES
    ]
    mine = {Path(path).stem for path, _, _ in pages}
    others = [
        st.Page(not_for_your_role, title=t("auth.not_available", user.language), url_path=address, visibility="hidden")
        for address in ALL_ADDRESSES
        if address not in mine | set(HOME_ADDRESSES)
    ]
    # opened from citations and lesson sources (the passage in its address), not from the menu
    viewer = [
        st.Page("pages/source_viewer.py", title=t("tutor.source.title", user.language), icon="📄", visibility="hidden")
    ]
    return {t(section, user.language): own + homes + others + viewer}


def signed_out_navigation() -> list[st.Page]:
    """The sign-in form at every address, so the address (and its query) survives signing in."""
    title = t("auth.sign_in", browser_language())
    return [st.Page(sign_in_page, title=title, icon="🔑", url_path="sign_in", default=True)] + [
        st.Page(sign_in_page, title=title, icon="🔑", url_path=address, visibility="hidden")
        for address in ALL_ADDRESSES
    ]


def main() -> None:
    st.set_page_config(page_title="SkillNet", page_icon="🎓", layout="wide")
    startup.begin_preparing()  # once per process: the database, the demo organisation, then the chat and worker
    if not startup.ready():
        # Called before the imports below (seconds on a first start): until a run of this process calls
        # st.navigation, Streamlit lists pages/ by file name in the sidebar.
        st.navigation(preparing_navigation(), position="hidden").run()
        st.stop()

    # imported once the database is ready: a first start's preparing page shows without waiting for them
    from ui.session import resume_user, sign_out, write_session_cookie

    user = resume_user()
    write_session_cookie()  # first, so the cookie is in the browser before anything signed-in shows
    if user is None:
        page = st.navigation(signed_out_navigation(), position="hidden")
    else:
        with st.sidebar:
            role = t("auth.role_admin" if user.is_admin else "auth.role_employee", user.language)
            st.markdown(f"**{user.full_name}**  \n{user.email} · {role}")
            if st.button(t("auth.sign_out", user.language), key="sign_out"):
                sign_out()
                st.rerun()
        page = st.navigation(navigation_for(user), expanded=True)  # all pages listed: no English "View N more"
        startup.wait_until_imported(startup.IMPORTS_WAIT_SECONDS)  # a first start's imports, not two at once
    page.run()
    startup.page_served()


@contextlib.asynccontextmanager
async def serving(_app):
    """The server's life: once it stops serving, what the process started stops with it (ui/startup.py)."""
    yield
    await asyncio.to_thread(startup.shut_down)


if __name__ == "__main__":
    main()
else:
    # `kill -USR1 <pid>` prints every thread's stack to the server's output: what a page that never draws waits on
    faulthandler.register(signal.SIGUSR1, all_threads=True)
    # the server is starting: the database is prepared now, not on the first browser visit
    startup.begin_preparing()
    app = st.App(__file__, routes=cookie_routes.routes(st.get_option("server.baseUrlPath")), lifespan=serving)
