"""The app shell: sign-in, sign-out and navigation by role (AppTest on the demo organisation)."""

import hashlib
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from agents import auth
from storage import sessions, users

WRONG = "Wrong email or password"
ROOT = Path(__file__).resolve().parents[2]


def _app() -> AppTest:
    return AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)


def _sign_in(at: AppTest, email: str, password: str) -> AppTest:
    at.text_input[0].input(email)
    at.text_input[1].input(password)
    at.button[0].click()
    return at.run()


@pytest.fixture(scope="module")
def demo(seeded_pool):
    with seeded_pool.connection() as conn:
        everyone = users.list_users(conn, users.get_org_by_slug(conn, "acme").id, active_only=False)
    return {"inactive": next(u for u in everyone if not u.is_active)}


def test_wrong_password_and_inactive_user_get_the_same_message(seeded_db_url, demo):
    at = _sign_in(_app().run(), "admin@acme.test", "not-the-password")
    wrong_password = [e.value for e in at.error]
    at = _sign_in(_app().run(), demo["inactive"].email, "skillnet-demo")
    inactive = [e.value for e in at.error]
    assert wrong_password == inactive and WRONG in wrong_password[0]
    assert "user" not in at.session_state


def test_admin_signs_in_and_sees_the_overview(seeded_db_url):
    at = _sign_in(_app().run(), "admin@acme.test", "skillnet-admin")
    assert not at.exception and not at.error
    assert at.session_state["user"].is_admin
    at.switch_page("pages/skills_matrix.py").run()
    assert not at.exception


def test_employee_home_and_no_admin_page_even_by_url(seeded_db_url):
    at = _sign_in(_app().run(), "lucia@acme.test", "skillnet-demo")
    assert not at.exception and not at.error
    assert not at.session_state["user"].is_admin
    with pytest.raises(ValueError):  # the admin page's file is not in an employee's navigation
        at.switch_page("pages/home_admin.py")


def test_admin_page_guard_stops_an_employee_who_runs_it_directly(seeded_db_url, seeded_pool):
    with seeded_pool.connection() as conn:
        employee = users.get_user_by_email(conn, "lucia@acme.test")
    at = AppTest.from_file(str(ROOT / "pages" / "home_admin.py"), default_timeout=60)
    at.session_state["user"] = employee
    at.run()
    assert [e.value for e in at.error] == ["Esta página es solo para administradores."]


def _session_row(pool, token: str):
    with pool.connection() as conn:
        return conn.execute(
            "SELECT user_id, revoked_at FROM user_sessions WHERE id_hash = %(hash)s",
            {"hash": hashlib.sha256(token.encode()).digest()},
        ).fetchone()


def test_every_sign_in_gets_a_new_session_id_and_kills_the_one_the_browser_had(
    seeded_db_url, seeded_pool, seeded_deps, monkeypatch
):
    """Session fixation: the id a browser carried before signing in (planted, or left from an idle
    sign-in) never becomes the signed-in session, and is revoked so no setting can revive it."""
    from ui import session

    with seeded_pool.connection() as conn:
        lucia = users.get_user_by_email(conn, "lucia@acme.test")
        carried = sessions.create_session(conn, lucia)
        conn.execute(
            "UPDATE user_sessions SET last_seen_at = now() - interval '3 hours' WHERE id_hash = %(h)s",
            {"h": hashlib.sha256(carried.encode()).digest()},
        )  # idle: the form shows
    # AppTest sends no cookies: the browser's skillnet_session cookie is what session._cookie reads
    monkeypatch.setattr(session, "_cookie", lambda: carried)
    at = _sign_in(_app().run(), "lucia@acme.test", "skillnet-demo")
    assert not at.exception and at.session_state["user"].id == lucia.id
    first = at.session_state["session_token"]
    assert first != carried and _session_row(seeded_pool, first) == (lucia.id, None)
    assert _session_row(seeded_pool, carried)[1] is not None  # the carried id is revoked

    monkeypatch.setattr(session, "_cookie", lambda: first)  # signed out and in again in the same browser
    at.run()  # AppTest: the run the sign-in's st.rerun landed on belongs to the sign-in page; settle on home
    next(b for b in at.button if b.key == "sign_out").click()
    at.run()
    monkeypatch.setattr(session, "_cookie", lambda: None)
    second = _sign_in(at, "lucia@acme.test", "skillnet-demo").session_state["session_token"]
    assert second not in (first, carried) and _session_row(seeded_pool, first)[1] is not None
    assert auth.resume(seeded_deps, second).id == lucia.id and auth.resume(seeded_deps, first) is None
