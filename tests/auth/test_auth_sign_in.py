"""Sign-in sessions and throttled guessing, against the demo organisation's real database."""

from __future__ import annotations

import hashlib

import pytest

from agents import auth
from storage import audit, sessions, users
from tests.people import upsert_user


class RecordedSleep:
    """Stands in for time.sleep so eleven attempts take no real minutes; keeps the waits asked for."""

    def __init__(self):
        self.waits: list[float] = []

    def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)


@pytest.fixture(scope="module")
def admin(seeded_pool):
    with seeded_pool.connection() as conn:
        return users.get_user_by_email(conn, "admin@acme.test")


def _employee(pool, email: str) -> users.User:
    with pool.connection() as conn:
        return users.get_user_by_email(conn, email)


def test_eleven_wrong_passwords_delay_from_the_fourth_and_lock_at_the_eleventh(seeded_pool, seeded_deps, admin):
    james = _employee(seeded_pool, "james@acme.test")
    sleep = RecordedSleep()
    for _ in range(11):
        assert auth.sign_in_with_password(seeded_deps, "James@acme.test ", "wrong", "10.0.0.1", sleep=sleep) is None
    # the 11th never reaches the password check: it is refused by the lock, with no wait of its own
    assert sleep.waits == [0, 0, 0, 1, 2, 4, 8, 16, 30, 30]
    assert auth.sign_in_with_password(seeded_deps, "james@acme.test", "skillnet-demo", "10.0.0.2", sleep=sleep) is None
    assert [a.subject for a in auth.locked_accounts(seeded_deps, admin)] == ["james@acme.test"]
    with seeded_pool.connection() as conn:
        actions = [e.action for e in audit.list_entries(conn, james.org_id, entity_id=james.id)]
    assert actions.count("sign_in_failed") == 10 and actions.count("sign_in_refused_locked") == 2

    assert auth.unlock_account(seeded_deps, admin, "james@acme.test")
    signed = auth.sign_in_with_password(seeded_deps, "james@acme.test", "skillnet-demo", "10.0.0.2", sleep=sleep)
    assert signed is not None and signed.user.id == james.id
    assert auth.locked_accounts(seeded_deps, admin) == []


def test_an_unknown_account_is_throttled_and_answered_the_same_way(seeded_pool, seeded_deps):
    sleep = RecordedSleep()
    for _ in range(11):
        assert auth.sign_in_with_password(seeded_deps, "nobody@acme.test", "wrong", "10.0.1.1", sleep=sleep) is None
    assert sleep.waits == [0, 0, 0, 1, 2, 4, 8, 16, 30, 30]


def test_unlock_is_for_the_admins_own_organisation_only(seeded_pool, seeded_deps, admin):
    with seeded_pool.connection() as conn:
        other = users.ensure_org(conn, "globex")
        upsert_user(conn, other.id, email="boss@globex.test", full_name="Boss", role="employee", password="right-one")
    for _ in range(10):
        auth.sign_in_with_password(seeded_deps, "boss@globex.test", "wrong", "10.0.2.1", sleep=RecordedSleep())
    assert auth.locked_accounts(seeded_deps, admin) == [] and not auth.unlock_account(
        seeded_deps, admin, "boss@globex.test"
    )
    assert (
        auth.sign_in_with_password(seeded_deps, "boss@globex.test", "right-one", "10.0.2.2", sleep=RecordedSleep())
        is None
    )


def test_a_session_resumes_until_signed_out_idle_too_long_or_the_user_is_deactivated(seeded_pool, seeded_deps, admin):
    person = _employee(seeded_pool, "lucia@acme.test")
    with seeded_pool.connection() as conn:
        first, second, third = (sessions.create_session(conn, person) for _ in range(3))
    assert auth.resume(seeded_deps, first).id == person.id and auth.resume(seeded_deps, "made-up") is None
    auth.sign_out(seeded_deps, first)
    assert auth.resume(seeded_deps, first) is None and auth.resume(seeded_deps, second).id == person.id
    with seeded_pool.connection() as conn:  # a browser left alone past the idle timeout
        conn.execute("UPDATE user_sessions SET last_seen_at = now() - interval '3 hours'")
    assert auth.resume(seeded_deps, second) is None
    with seeded_pool.connection() as conn:
        conn.execute("UPDATE user_sessions SET last_seen_at = now()")
        users.set_active(conn, person.org_id, person.id, False)
    assert auth.resume(seeded_deps, third) is None
    with seeded_pool.connection() as conn:
        users.set_active(conn, person.org_id, person.id, True)
    assert auth.resume(seeded_deps, third) is None  # reactivation does not bring a revoked session back


def test_a_busy_session_still_ends_at_the_absolute_timeout(seeded_pool, seeded_deps, monkeypatch):
    monkeypatch.setenv("SKILLNET_SESSION_MAX_HOURS", "12")
    person = _employee(seeded_pool, "james@acme.test")
    with seeded_pool.connection() as conn:
        young, old = sessions.create_session(conn, person), sessions.create_session(conn, person)
        for token, hours in ((young, 11), (old, 13)):  # both clicked a moment ago
            conn.execute(
                "UPDATE user_sessions SET created_at = now() - make_interval(hours => %(h)s),"
                " last_seen_at = now() WHERE id_hash = %(hash)s",
                {"h": hours, "hash": hashlib.sha256(token.encode()).digest()},
            )
    assert auth.resume(seeded_deps, young).id == person.id
    assert auth.resume(seeded_deps, old) is None


def test_password_sign_in_can_be_switched_off(seeded_pool, seeded_deps, monkeypatch):
    monkeypatch.setenv("SKILLNET_PASSWORD_LOGIN", "off")
    assert auth.sign_in_with_password(seeded_deps, "lucia@acme.test", "skillnet-demo", sleep=RecordedSleep()) is None
    monkeypatch.setenv("SKILLNET_PASSWORD_LOGIN", "on")
    assert (
        auth.sign_in_with_password(seeded_deps, "lucia@acme.test", "skillnet-demo", sleep=RecordedSleep()) is not None
    )


def test_sso_maps_the_email_claim_to_an_active_user_only(seeded_pool, seeded_deps):
    with seeded_pool.connection() as conn:
        inactive = next(
            u
            for u in users.list_users(conn, users.get_org_by_slug(conn, "acme").id, active_only=False)
            if not u.is_active
        )
    assert auth.sign_in_with_sso(seeded_deps, "LUCIA@acme.test").user.email == "lucia@acme.test"
    assert auth.sign_in_with_sso(seeded_deps, "stranger@acme.test") is None
    assert (
        auth.sign_in_with_sso(seeded_deps, inactive.email) is None and auth.sign_in_with_sso(seeded_deps, None) is None
    )


def test_thirty_concurrent_wrong_passwords_lock_the_account_before_the_right_one(seeded_pool, seeded_deps, admin):
    """The red team's burst: every guess sent at once, then the right password. Each guess is counted
    before its check, so only the first ten reach the password at all and the right one is refused."""
    from concurrent.futures import ThreadPoolExecutor

    lucia = _employee(seeded_pool, "lucia@acme.test")
    sleep = RecordedSleep()
    with ThreadPoolExecutor(max_workers=30) as burst:
        answers = list(
            burst.map(
                lambda n: auth.sign_in_with_password(
                    seeded_deps, "lucia@acme.test", f"guess-{n}", f"10.0.3.{n}", sleep=sleep
                ),
                range(30),
            )
        )
    assert answers == [None] * 30
    assert auth.sign_in_with_password(seeded_deps, "lucia@acme.test", "skillnet-demo", "10.0.3.99", sleep=sleep) is None
    assert [a.subject for a in auth.locked_accounts(seeded_deps, admin)] == ["lucia@acme.test"]
    with seeded_pool.connection() as conn:
        actions = [e.action for e in audit.list_entries(conn, lucia.org_id, entity_id=lucia.id)]
    assert actions.count("sign_in_failed") == 10 and actions.count("sign_in_refused_locked") == 21
    assert sorted(sleep.waits) == [0, 0, 0, 1, 2, 4, 8, 16, 30, 30]  # each count served its own wait
    assert auth.unlock_account(seeded_deps, admin, "lucia@acme.test")


def test_an_address_keeps_its_count_when_another_account_signs_in_from_it(seeded_pool, seeded_deps):
    """Guesses against one account from an address, then a colleague's success from the same address:
    the address's counter stands (a success clears only its own account's)."""
    sleep = RecordedSleep()
    for n in range(6):
        auth.sign_in_with_password(seeded_deps, f"victim{n}@acme.test", "wrong", "10.0.4.1", sleep=sleep)
    assert (
        auth.sign_in_with_password(seeded_deps, "james@acme.test", "skillnet-demo", "10.0.4.1", sleep=sleep) is not None
    )
    with seeded_pool.connection() as conn:
        client = conn.execute(
            "SELECT failures FROM sign_in_failures WHERE scope = 'client' AND subject = '10.0.4.1'"
        ).fetchone()
        account = conn.execute(
            "SELECT count(*) FROM sign_in_failures WHERE scope = 'account' AND subject = 'james@acme.test'"
        ).fetchone()
    assert client[0] == 6 and account[0] == 0
    sleep.waits.clear()
    auth.sign_in_with_password(seeded_deps, "victim9@acme.test", "wrong", "10.0.4.1", sleep=sleep)
    assert sleep.waits == [8]  # the 7th guess from the address waits as the 7th, not as a first
