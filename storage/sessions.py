"""Sign-in sessions (a row per signed-in browser) and the failed-attempt counters that throttle guessing."""
from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

import psycopg
from psycopg.rows import class_row

from storage.users import USER_COLUMNS, User


def _digest(token: str) -> bytes:
    return hashlib.sha256(token.encode()).digest()


def create_session(conn: psycopg.Connection, user: User, *, method: str = "password") -> str:
    """A new session for ``user``; returns the random id the browser keeps (never stored as such)."""
    token = secrets.token_urlsafe(32)
    conn.execute("INSERT INTO user_sessions (id_hash, user_id, org_id, method)"
                 " VALUES (%(hash)s, %(user_id)s, %(org_id)s, %(method)s)",
                 {"hash": _digest(token), "user_id": user.id, "org_id": user.org_id, "method": method})
    return token


def resume_session(conn: psycopg.Connection, token: str | None, *, idle_minutes: int,
                   absolute_hours: int) -> User | None:
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
            {"hash": _digest(token), "idle": idle_minutes, "absolute": absolute_hours}).fetchone()


def revoke_session(conn: psycopg.Connection, token: str | None) -> None:
    if token:
        conn.execute("UPDATE user_sessions SET revoked_at = now() WHERE id_hash = %(hash)s AND revoked_at IS NULL",
                     {"hash": _digest(token)})


@dataclass(frozen=True)
class Failures:
    scope: str
    subject: str
    failures: int
    last_failure_at: datetime
    locked_until: datetime | None


def current_failures(conn: psycopg.Connection, keys: list[tuple[str, str]]) -> list[Failures]:
    """Counters for these (scope, subject) keys; a lock that has run out reads as unlocked."""
    with conn.cursor(row_factory=class_row(Failures)) as cur:
        return cur.execute(
            """SELECT scope, subject, failures, last_failure_at,
                      CASE WHEN locked_until > now() THEN locked_until END AS locked_until
               FROM sign_in_failures WHERE (scope, subject) IN (SELECT * FROM unnest(%(scopes)s::text[], %(subjects)s::text[]))""",
            {"scopes": [k[0] for k in keys], "subjects": [k[1] for k in keys]}).fetchall()


def record_failure(conn: psycopg.Connection, scope: str, subject: str, *, lock_after: int,
                   lock_minutes: int) -> Failures:
    """Count one more failure and lock at ``lock_after``; a lock that has run out starts the count again."""
    with conn.cursor(row_factory=class_row(Failures)) as cur:
        return cur.execute(
            """INSERT INTO sign_in_failures AS f (scope, subject, failures, locked_until)
               VALUES (%(scope)s, %(subject)s, 1,
                       CASE WHEN %(lock_after)s <= 1 THEN now() + make_interval(mins => %(minutes)s) END)
               ON CONFLICT (scope, subject) DO UPDATE SET
                   failures = CASE WHEN f.locked_until <= now() THEN 1 ELSE f.failures + 1 END,
                   last_failure_at = now(),
                   locked_until = CASE
                       WHEN f.locked_until > now() THEN f.locked_until
                       WHEN (CASE WHEN f.locked_until <= now() THEN 1 ELSE f.failures + 1 END) >= %(lock_after)s
                           THEN now() + make_interval(mins => %(minutes)s)
                   END
               RETURNING scope, subject, failures, last_failure_at, locked_until""",
            {"scope": scope, "subject": subject, "lock_after": lock_after, "minutes": lock_minutes}).fetchone()


def clear_failures(conn: psycopg.Connection, scope: str, subject: str) -> None:
    """Forget a counter (after a successful sign-in)."""
    conn.execute("DELETE FROM sign_in_failures WHERE scope = %(scope)s AND subject = %(subject)s",
                 {"scope": scope, "subject": subject})


def unlock_account(conn: psycopg.Connection, org_id: UUID, email: str) -> bool:
    """An admin's unlock of one of their organisation's accounts; False for any other email."""
    return conn.execute(
        """DELETE FROM sign_in_failures f WHERE f.scope = 'account' AND f.subject = %(email)s
           AND EXISTS (SELECT 1 FROM users u WHERE u.email = f.subject AND u.org_id = %(org_id)s)""",
        {"email": (email or "").strip().lower(), "org_id": org_id}).rowcount == 1


def locked_accounts(conn: psycopg.Connection, org_id: UUID) -> list[Failures]:
    """The organisation's accounts locked right now (clients are shown by address, no org to scope them)."""
    with conn.cursor(row_factory=class_row(Failures)) as cur:
        return cur.execute(
            """SELECT f.scope, f.subject, f.failures, f.last_failure_at, f.locked_until
               FROM sign_in_failures f JOIN users u ON u.email = f.subject
               WHERE f.scope = 'account' AND u.org_id = %(org_id)s AND f.locked_until > now()
               ORDER BY f.locked_until DESC""", {"org_id": org_id}).fetchall()
