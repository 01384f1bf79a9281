"""Sign-in sessions (a row per signed-in browser) and the failed-attempt counters that throttle guessing."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

import psycopg
from psycopg.rows import class_row, tuple_row

from storage.rows import one_row
from storage.users import USER_COLUMNS, User


def _digest(token: str) -> bytes:
    return hashlib.sha256(token.encode()).digest()


def create_session(conn: psycopg.Connection, user: User, *, method: str = "password") -> str:
    """A new session for ``user``; returns the random id the browser keeps (never stored as such)."""
    token = secrets.token_urlsafe(32)
    conn.execute(
        "INSERT INTO user_sessions (id_hash, user_id, org_id, method)"
        " VALUES (%(hash)s, %(user_id)s, %(org_id)s, %(method)s)",
        {"hash": _digest(token), "user_id": user.id, "org_id": user.org_id, "method": method},
    )
    return token


def resume_session(
    conn: psycopg.Connection, token: str | None, *, idle_minutes: int, absolute_hours: int
) -> User | None:
    """The active user behind a live session, touching it; None when revoked, idle or too old."""
    if not token:
        return None
    columns = ", ".join(f"u.{c.strip()}" for c in USER_COLUMNS.split(","))
    with conn.cursor(row_factory=class_row(User)) as cur:
        return cur.execute(
            f"""UPDATE user_sessions s SET last_seen_at = now() FROM users u
                WHERE s.id_hash = %(hash)s AND s.revoked_at IS NULL AND u.id = s.user_id AND u.is_active
                  AND s.last_seen_at > now() - make_interval(mins => %(idle)s)
                  AND s.created_at > now() - make_interval(hours => %(absolute)s)
                RETURNING {columns}""",
            {"hash": _digest(token), "idle": idle_minutes, "absolute": absolute_hours},
        ).fetchone()


def revoke_session(conn: psycopg.Connection, token: str | None) -> None:
    if token:
        conn.execute(
            "UPDATE user_sessions SET revoked_at = now() WHERE id_hash = %(hash)s AND revoked_at IS NULL",
            {"hash": _digest(token)},
        )


@dataclass(frozen=True)
class Failures:
    scope: str
    subject: str
    failures: int
    last_failure_at: datetime
    locked_until: datetime | None


@dataclass(frozen=True)
class Attempt:
    """One sign-in attempt as counted: ``failures_before`` sets its wait; ``refused`` when a lock
    stood before it arrived."""

    failures_before: int
    refused: bool
    counter: Failures


def count_attempt(conn: psycopg.Connection, scope: str, subject: str, *, lock_after: int, lock_minutes: int) -> Attempt:
    """Count one attempt against a counter before its password is checked, locking at ``lock_after``.

    The counter's row is locked for the rest of the caller's transaction, so concurrent attempts
    are counted one after the other and each sees every attempt before it (a burst cannot slip
    through on a stale count). A lock that has run out starts the count again.
    """
    key = {"scope": scope, "subject": subject}
    conn.execute(
        "INSERT INTO sign_in_failures (scope, subject, failures) VALUES (%(scope)s, %(subject)s, 0)"
        " ON CONFLICT (scope, subject) DO NOTHING",
        key,
    )
    with conn.cursor(row_factory=tuple_row) as cur:
        prior = one_row(
            cur.execute(
                """SELECT CASE WHEN locked_until <= now() THEN 0 ELSE failures END,
                      coalesce(locked_until > now(), false)
               FROM sign_in_failures WHERE scope = %(scope)s AND subject = %(subject)s FOR UPDATE""",
                key,
            )
        )
    with conn.cursor(row_factory=class_row(Failures)) as cur:
        counter = one_row(
            cur.execute(
                """UPDATE sign_in_failures SET
                   failures = %(before)s + 1,
                   last_failure_at = now(),
                   locked_until = CASE
                       WHEN %(locked)s THEN locked_until
                       WHEN %(before)s + 1 >= %(lock_after)s THEN now() + make_interval(mins => %(minutes)s)
                   END
               WHERE scope = %(scope)s AND subject = %(subject)s
               RETURNING scope, subject, failures, last_failure_at, locked_until""",
                {**key, "before": prior[0], "locked": prior[1], "lock_after": lock_after, "minutes": lock_minutes},
            )
        )
    return Attempt(failures_before=prior[0], refused=prior[1], counter=counter)


def forget_account_failures(conn: psycopg.Connection, email: str) -> None:
    """A successful sign-in clears its account's counter (and lock)."""
    conn.execute("DELETE FROM sign_in_failures WHERE scope = 'account' AND subject = %(email)s", {"email": email})


def uncount_success(conn: psycopg.Connection, client: str) -> None:
    """Take a successful attempt back off its client address's counter, and no more: the failures
    counted there (another account's guesses from the same address) stand."""
    conn.execute(
        "UPDATE sign_in_failures SET failures = greatest(failures - 1, 0)"
        " WHERE scope = 'client' AND subject = %(client)s",
        {"client": client},
    )


def unlock_account(conn: psycopg.Connection, org_id: UUID, email: str) -> bool:
    """An admin's unlock of one of their organisation's accounts; False for any other email."""
    return (
        conn.execute(
            """DELETE FROM sign_in_failures f WHERE f.scope = 'account' AND f.subject = %(email)s
           AND EXISTS (SELECT 1 FROM users u WHERE u.email = f.subject AND u.org_id = %(org_id)s)""",
            {"email": (email or "").strip().lower(), "org_id": org_id},
        ).rowcount
        == 1
    )


def locked_accounts(conn: psycopg.Connection, org_id: UUID) -> list[Failures]:
    """The organisation's accounts locked right now (clients are shown by address, no org to scope them)."""
    with conn.cursor(row_factory=class_row(Failures)) as cur:
        return cur.execute(
            """SELECT f.scope, f.subject, f.failures, f.last_failure_at, f.locked_until
               FROM sign_in_failures f JOIN users u ON u.email = f.subject
               WHERE f.scope = 'account' AND u.org_id = %(org_id)s AND f.locked_until > now()
               ORDER BY f.locked_until DESC""",
            {"org_id": org_id},
        ).fetchall()
