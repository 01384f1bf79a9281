"""Organisations and users: sign-in, lookup, the demo accounts, and the employee list admins read."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

import psycopg
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from psycopg.rows import class_row

from core.inputs import Refusal
from core.names import fold, fold_sql
from storage.rows import NoRow

_hasher = PasswordHasher()
# Verified when the email is unknown so a wrong email costs as long as a wrong password.
_DUMMY_HASH = _hasher.hash("not-a-real-password")


@dataclass(frozen=True)
class Organization:
    id: UUID
    slug: str
    name: str
    default_language: str


@dataclass(frozen=True)
class User:
    id: UUID
    org_id: UUID
    email: str
    full_name: str
    role: str
    is_active: bool
    department: str | None
    job_title: str | None
    language: str

    @property
    def is_admin(self) -> bool:
        return self.role == "admin"


USER_COLUMNS = "id, org_id, email, full_name, role, is_active, department, job_title, language"


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def get_org_by_slug(conn: psycopg.Connection, slug: str) -> Organization | None:
    with conn.cursor(row_factory=class_row(Organization)) as cur:
        return cur.execute(
            "SELECT id, slug, name, default_language FROM organizations WHERE slug = %(slug)s", {"slug": slug}
        ).fetchone()


def get_org(conn: psycopg.Connection, org_id: UUID) -> Organization | None:
    with conn.cursor(row_factory=class_row(Organization)) as cur:
        return cur.execute(
            "SELECT id, slug, name, default_language FROM organizations WHERE id = %(id)s", {"id": org_id}
        ).fetchone()


_SLUG = re.compile(r"[a-z0-9][a-z0-9-]{0,62}")  # organizations.slug's CHECK


def ensure_org(
    conn: psycopg.Connection, slug: str, name: str | None = None, default_language: str = "es"
) -> Organization:
    """The organisation with this slug, created if missing; a Refusal for a slug the table would refuse."""
    if not _SLUG.fullmatch(slug or ""):
        raise Refusal(
            f"'{slug}' is not an organisation slug (lowercase letters, digits and hyphens, at most 63)",
            "bad_org_slug",
            slug=slug,
        )
    conn.execute(
        "INSERT INTO organizations (slug, name, default_language) VALUES (%(slug)s, %(name)s, %(lang)s)"
        " ON CONFLICT (slug) DO NOTHING",
        {"slug": slug, "name": name or slug, "lang": default_language},
    )
    org = get_org_by_slug(conn, slug)
    if org is None:  # inserted above or already there: only a concurrent delete gets here
        raise NoRow(f"organisation '{slug}' was deleted while being ensured")
    return org


def authenticate(conn: psycopg.Connection, email: str, password: str) -> User | None:
    """The active user with this email and password, else None (one answer for every failure)."""
    row = conn.execute(
        f"SELECT {USER_COLUMNS}, password_hash FROM users WHERE email = %(email)s",
        {"email": (email or "").strip().lower()},
    ).fetchone()
    stored_hash = row[-1] if row else _DUMMY_HASH
    try:
        _hasher.verify(stored_hash, password or "")
    except (VerificationError, InvalidHashError):
        return None
    if row is None or not row[5]:
        return None
    conn.execute("UPDATE users SET last_active_at = now() WHERE id = %(id)s", {"id": row[0]})
    return User(*row[:-1])


def verify_dummy(password: str) -> None:
    """Spend the time of one password check on nothing (refusals that skip the real check)."""
    try:
        _hasher.verify(_DUMMY_HASH, password or "")
    except (VerificationError, InvalidHashError):
        pass


def get_user(conn: psycopg.Connection, org_id: UUID, user_id: UUID) -> User | None:
    with conn.cursor(row_factory=class_row(User)) as cur:
        return cur.execute(
            f"SELECT {USER_COLUMNS} FROM users WHERE org_id = %(org_id)s AND id = %(id)s",
            {"org_id": org_id, "id": user_id},
        ).fetchone()


def get_user_and_org_name(conn: psycopg.Connection, org_id: UUID, user_id: UUID) -> tuple[User, str] | None:
    """The user and their organisation's name, in one statement (what a tutor turn reads first)."""
    columns = ", ".join(f"u.{column.strip()}" for column in USER_COLUMNS.split(","))
    row = conn.execute(
        f"SELECT {columns}, o.name FROM users u JOIN organizations o ON o.id = u.org_id"
        " WHERE u.org_id = %(org_id)s AND u.id = %(id)s",
        {"org_id": org_id, "id": user_id},
    ).fetchone()
    return None if row is None else (User(*row[:-1]), row[-1])


def get_user_by_email(conn: psycopg.Connection, email: str) -> User | None:
    """Look a user up by email (CLI entry points: the email names the org too)."""
    with conn.cursor(row_factory=class_row(User)) as cur:
        return cur.execute(
            f"SELECT {USER_COLUMNS} FROM users WHERE email = %(email)s", {"email": (email or "").strip().lower()}
        ).fetchone()


def list_users(
    conn: psycopg.Connection, org_id: UUID, *, role: str | None = None, active_only: bool = True
) -> list[User]:
    with conn.cursor(row_factory=class_row(User)) as cur:
        return cur.execute(
            f"""SELECT {USER_COLUMNS} FROM users WHERE org_id = %(org_id)s
                AND (%(role)s::text IS NULL OR role = %(role)s) AND (NOT %(active_only)s OR is_active)
                ORDER BY full_name""",
            {"org_id": org_id, "role": role, "active_only": active_only},
        ).fetchall()


def set_active(conn: psycopg.Connection, org_id: UUID, user_id: UUID, active: bool) -> bool:
    """Switch a user on or off; switching off also ends every session they have open."""
    cur = conn.execute(
        "UPDATE users SET is_active = %(active)s WHERE org_id = %(org_id)s AND id = %(id)s",
        {"active": active, "org_id": org_id, "id": user_id},
    )
    if cur.rowcount == 1 and not active:
        conn.execute(
            "UPDATE user_sessions SET revoked_at = now() WHERE user_id = %(id)s AND revoked_at IS NULL", {"id": user_id}
        )
    return cur.rowcount == 1


def ensure_user(
    conn: psycopg.Connection,
    org_id: UUID,
    *,
    email: str,
    full_name: str,
    role: str,
    password_hash: str,
    department: str,
    job_title: str,
    language: str,
    is_active: bool,
) -> UUID:
    """Create the user unless the email exists (a reload keeps later edits, such as a deactivation).

    Takes a ready hash: the demo's accounts share two passwords, so each is hashed once per load.
    """
    conn.execute(
        """INSERT INTO users (org_id, email, full_name, role, password_hash, department, job_title, language,
                              is_active)
           VALUES (%(org_id)s, %(email)s, %(full_name)s, %(role)s, %(hash)s, %(department)s, %(job_title)s,
                   %(language)s, %(is_active)s)
           ON CONFLICT (email) DO NOTHING""",
        {
            "org_id": org_id,
            "email": email,
            "full_name": full_name,
            "role": role,
            "hash": password_hash,
            "department": department,
            "job_title": job_title,
            "language": language,
            "is_active": is_active,
        },
    )
    row = conn.execute(
        "SELECT id FROM users WHERE org_id = %(org_id)s AND email = %(email)s", {"org_id": org_id, "email": email}
    ).fetchone()
    if row is None:
        raise ValueError(f"{email} belongs to another organisation")
    return row[0]


@dataclass(frozen=True)
class EmployeeSummary:
    id: UUID
    full_name: str
    email: str
    role: str
    is_active: bool
    department: str | None
    job_title: str | None
    active_courses: int
    completed_courses: int
    skills_count: int
    last_active_at: datetime | None


_EMPLOYEE_SQL = """
    SELECT u.id, u.full_name, u.email, u.role, u.is_active,
           department_in(u.org_id, u.department, %(lang)s) AS department, u.job_title,
           (SELECT count(*) FROM enrollments e WHERE e.user_id = u.id
              AND e.status IN ('assigned', 'in_progress'))::int AS active_courses,
           (SELECT count(*) FROM enrollments e WHERE e.user_id = u.id AND e.status = 'completed')::int
              AS completed_courses,
           (SELECT count(*) FROM user_skills us WHERE us.user_id = u.id)::int AS skills_count,
           -- a sign-in or the last thing done in a course: a learner kept signed in by their cookie still shows
           greatest(u.last_active_at, (SELECT max(e.last_activity_at) FROM enrollments e WHERE e.user_id = u.id))
              AS last_active_at
    FROM users u WHERE u.org_id = %(org_id)s"""


def list_employees(
    conn: psycopg.Connection,
    org_id: UUID,
    *,
    search: str | None = None,
    role: str | None = None,
    is_active: bool | None = None,
    lang: str | None = None,
) -> list[EmployeeSummary]:
    """The organisation's people (optionally by name or email, role, active), departments in ``lang``."""
    with conn.cursor(row_factory=class_row(EmployeeSummary)) as cur:
        return cur.execute(
            _EMPLOYEE_SQL
            + f"""
              AND (%(search)s::text IS NULL OR {fold_sql("u.full_name")} LIKE '%%' || %(search)s || '%%'
                   OR u.email LIKE '%%' || %(search)s || '%%')
              AND (%(role)s::text IS NULL OR u.role = %(role)s)
              AND (%(active)s::boolean IS NULL OR u.is_active = %(active)s)
            ORDER BY u.full_name""",
            {
                "org_id": org_id,
                "search": fold(search) if search else None,
                "role": role,
                "active": is_active,
                "lang": lang,
            },
        ).fetchall()


def find_people(conn: psycopg.Connection, org_id: UUID, name: str, lang: str | None = None) -> list[EmployeeSummary]:
    """People whose name or email contains ``name``; an exact name or email alone wins."""
    found = list_employees(conn, org_id, search=name, lang=lang)
    exact = [p for p in found if fold(name) in (fold(p.full_name), p.email)]
    return exact or found
