"""Signing in and staying signed in, for the Streamlit app and the Gradio chat alike.

A sign-in (password or SSO) opens a server-side session whose random id the browser keeps in a
cookie; every request resumes it, so a reload or a bookmarked link stays signed in and a sign-out
anywhere ends it everywhere. Password guesses are throttled per account (the email as typed, known
or not, so unknown accounts behave the same) and per client address: from the 4th failure each
attempt waits exponentially longer, and the 10th locks the account for 15 minutes. A success clears
its account's counter only: the address's stands, so one working account cannot wipe out the
count of guesses made against others from the same address. Every refusal
reads the same, so the answer never tells which accounts exist or are locked.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from core import config
from storage import audit, sessions, users
from storage.db import relax_durability

if TYPE_CHECKING:
    from agents.runtime.deps import AppDeps

log = logging.getLogger(__name__)

DELAY_AFTER_FAILURES = 3
ACCOUNT_LOCK_AFTER = 10
# A client address is often a whole office behind one NAT: it is slowed down like an account but
# locked only after many more failures, so one person's typos never lock their colleagues out.
CLIENT_LOCK_AFTER = 50
LOCK_MINUTES = 15
BASE_DELAY_SECONDS = 1.0
MAX_DELAY_SECONDS = 30.0


@dataclass(frozen=True)
class SessionSettings:
    idle_minutes: int
    absolute_hours: int
    password_login: bool


def settings() -> SessionSettings:
    return SessionSettings(
        idle_minutes=config.get("SKILLNET_SESSION_IDLE_MINUTES"),
        absolute_hours=config.get("SKILLNET_SESSION_MAX_HOURS"),
        password_login=config.get("SKILLNET_PASSWORD_LOGIN"),
    )


@dataclass(frozen=True)
class SignedIn:
    user: users.User
    token: str  # the session id for the cookie


def delay_before_attempt(failures: int) -> float:
    """Seconds an attempt waits after ``failures`` earlier failures: 0, 0, 0, then 1, 2, 4… up to 30."""
    if failures < DELAY_AFTER_FAILURES:
        return 0.0
    return min(BASE_DELAY_SECONDS * 2 ** (failures - DELAY_AFTER_FAILURES), MAX_DELAY_SECONDS)


def sign_in_with_password(
    deps: AppDeps, email: str, password: str, client: str | None = None, *, sleep: Callable[[float], None] = time.sleep
) -> SignedIn | None:
    """A new session for the right email and password, else None (also while locked or switched off).

    Each attempt is counted before anything else, in one transaction holding its counters' row
    locks (account, then client address: one order, so concurrent attempts never deadlock), and
    waits after being counted: a burst of concurrent guesses is counted one by one, and those past
    the lock never reach the password check.
    """
    if not settings().password_login:
        return None
    email = (email or "").strip().lower()
    pool = deps.pool
    with pool.connection() as conn:
        attempts = [
            sessions.count_attempt(conn, "account", email, lock_after=ACCOUNT_LOCK_AFTER, lock_minutes=LOCK_MINUTES)
        ]
        if client:
            attempts.append(
                sessions.count_attempt(conn, "client", client, lock_after=CLIENT_LOCK_AFTER, lock_minutes=LOCK_MINUTES)
            )
        known = users.get_user_by_email(conn, email)
    if any(a.refused for a in attempts):
        users.verify_dummy(password)  # a locked account answers as slowly as any other refusal
        _audit(pool, known, "sign_in_refused_locked", client)
        return None
    sleep(max(delay_before_attempt(a.failures_before) for a in attempts))
    with pool.connection() as conn:
        user = users.authenticate(conn, email, password)
        if user is not None:
            sessions.forget_account_failures(conn, email)
            if client:
                sessions.uncount_success(conn, client)
            token = sessions.create_session(conn, user)
            audit.record(
                conn,
                user.org_id,
                actor_id=user.id,
                action="sign_in",
                entity_type="user",
                entity_id=user.id,
                before=None,
                after={"method": "password", "client": client},
            )
            return SignedIn(user, token)
    account = attempts[0].counter
    _audit(
        pool,
        known,
        "sign_in_failed",
        client,
        failures=account.failures,
        locked_until=account.locked_until.isoformat() if account.locked_until else None,
    )
    return None


def sign_in_with_sso(deps: AppDeps, email: str | None) -> SignedIn | None:
    """A new session for the organisation user behind an identity provider's email claim, else None."""
    with deps.pool.connection() as conn:
        user = users.get_user_by_email(conn, email or "")
        if user is None or not user.is_active:
            log.warning("SSO sign-in refused: no active user for the identity provider's email")
            return None
        token = sessions.create_session(conn, user, method="sso")
        audit.record(
            conn,
            user.org_id,
            actor_id=user.id,
            action="sign_in",
            entity_type="user",
            entity_id=user.id,
            before=None,
            after={"method": "sso"},
        )
    return SignedIn(user, token)


def resume(deps: AppDeps, token: str | None) -> users.User | None:
    """The user of a live session (a reload, a link, the chat frame); None once it is over."""
    if not token:
        return None
    config = settings()
    with deps.pool.connection() as conn:
        relax_durability(conn)  # the touch that keeps it alive: losing one in a crash only ages it
        return sessions.resume_session(
            conn, token, idle_minutes=config.idle_minutes, absolute_hours=config.absolute_hours
        )


def sign_out(deps: AppDeps, token: str | None) -> None:
    with deps.pool.connection() as conn:
        sessions.revoke_session(conn, token)


def locked_accounts(deps: AppDeps, admin: users.User) -> list[sessions.Failures]:
    """The admin's organisation's accounts locked right now (nothing for anyone but an admin)."""
    if not admin.is_admin:
        return []
    with deps.pool.connection() as conn:
        return sessions.locked_accounts(conn, admin.org_id)


def unlock_account(deps: AppDeps, admin: users.User, email: str) -> bool:
    """Lift the lock on one of the admin's organisation's accounts (audited); False for any other, and
    for anyone but an admin."""
    if not admin.is_admin:
        return False
    with deps.pool.connection() as conn:
        unlocked = sessions.unlock_account(conn, admin.org_id, email)
        if unlocked:
            audit.record(
                conn,
                admin.org_id,
                actor_id=admin.id,
                action="unlock_sign_in",
                entity_type="user",
                entity_id=email,
                before={"locked": True},
                after={"locked": False},
            )
    return unlocked


def _audit(pool, known: users.User | None, action: str, client: str | None, **after) -> None:
    """Failures of a known account go to its organisation's audit log; unknown emails have no org."""
    if known is None:
        log.warning("%s for an unknown account from %s", action, client or "an unknown client")
        return
    with pool.connection() as conn:
        audit.record(
            conn,
            known.org_id,
            actor_id=None,
            action=action,
            entity_type="user",
            entity_id=known.id,
            before=None,
            after={"client": client, **after},
        )
