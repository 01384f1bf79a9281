"""Sessions in a real browser: a reload, a bookmarked link, two tabs, and a page of the other role."""

from __future__ import annotations

from pathlib import Path

from agents.i18n import t
from tests.browser import chromium_page, free_port, needs_chromium, running_app, session_cookie

SHOTS = Path("/tmp/auth-shots")


def _sign_in_here(page, email: str, password: str) -> None:
    """Fill the sign-in form shown at whatever address the page is on."""
    page.get_by_label("Email").wait_for(timeout=180_000)
    page.get_by_label("Email").fill(email)
    page.get_by_label("Password", exact=True).fill(password)
    page.get_by_role("button", name="Sign in").click()
    page.get_by_text(email).wait_for(timeout=60_000)


@needs_chromium
def test_sessions_survive_reloads_and_links_and_end_everywhere(seeded_db_url, seeded_pool):
    from storage.enrollments import list_enrollments
    from storage.users import get_user_by_email

    with seeded_pool.connection() as conn:
        james = get_user_by_email(conn, "james@acme.test")
        course_id = list_enrollments(conn, james.org_id, james.id)[0].course_id
    SHOTS.mkdir(exist_ok=True)
    with (
        running_app(seeded_db_url, extra_env={"SKILLNET_CHAT_PORT": str(free_port())}) as base,
        chromium_page() as page,
    ):
        # a bookmarked deep link, signed out, as the fresh server's very first request (Streamlit's
        # legacy pages/ mode until app.py has run once): the sign-in form at that address
        page.goto(f"{base}/course_player?course={course_id}")
        _sign_in_here(page, "james@acme.test", "skillnet-demo")
        assert page.get_by_text("Please sign in first").count() == 0
        page.wait_for_url(f"**/course_player?course={course_id}", timeout=30_000)
        page.locator("[data-testid=stSidebarNav] a[href$=course_player]").wait_for(timeout=30_000)
        assert page.get_by_text("Page not found").count() == 0
        cookie = session_cookie(page)
        # set by the server, out of scripts' reach: HttpOnly, SameSite=Strict (no Secure over plain http)
        assert cookie["httpOnly"] is True and cookie["sameSite"] == "Strict" and cookie["secure"] is False
        assert "skillnet_session" not in page.evaluate("document.cookie")

        page.reload()  # still signed in, on the same page
        page.get_by_text("james@acme.test").wait_for(timeout=60_000)
        page.wait_for_url(f"**/course_player?course={course_id}", timeout=30_000)
        assert page.get_by_label("Password", exact=True).count() == 0
        page.screenshot(path=str(SHOTS / "course_player_after_reload.png"))

        for address in ("home_employee", "home_admin"):  # either role's home address: this user's home
            page.goto(f"{base}/{address}")
            page.wait_for_url(f"{base}/", timeout=60_000)
            page.get_by_role("heading", name=t("learning.hello", "en", name="James")).wait_for(timeout=60_000)
            assert page.get_by_text("Page not found").count() == 0
            assert page.get_by_text("This page is not available for your role.").count() == 0

        page.goto(f"{base}/skills_matrix")  # an admin page: refused in the reader's language
        page.get_by_text("This page is not available for your role.").wait_for(timeout=60_000)
        page.screenshot(path=str(SHOTS / "not_for_your_role.png"))

        other = page.context.browser.new_page()  # a second tab: same browser cookies, signed in at once
        other.context.add_cookies(page.context.cookies())
        other.goto(f"{base}/my_courses")
        other.get_by_text("james@acme.test").wait_for(timeout=60_000)
        page.goto(f"{base}/reviews")
        page.get_by_role("button", name="Sign out").click()
        page.get_by_label("Password", exact=True).wait_for(timeout=60_000)
        assert session_cookie(page, present=False) is None  # cleared by the server too
        other.locator("[data-testid=stSidebarNav] a[href$=reviews]").click()  # its next action
        other.get_by_label("Password", exact=True).wait_for(timeout=60_000)
        assert other.get_by_text("james@acme.test").count() == 0
        other.screenshot(path=str(SHOTS / "other_tab_signed_out.png"))
