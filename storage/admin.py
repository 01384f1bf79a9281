"""What HR admins read and change: employees, courses and their statistics, enrollments, and the
write actions the admin assistant holds until the admin confirms them."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

import psycopg
from psycopg.rows import class_row
from psycopg.types.json import Jsonb

from storage.names import fold, fold_sql


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


@dataclass(frozen=True)
class PendingAction:
    id: UUID
    admin_id: UUID
    session_id: UUID | None
    tool: str
    arguments: dict
    preview: str
    status: str
    result: Any
    created_at: datetime


_EMPLOYEE_SQL = """
    SELECT u.id, u.full_name, u.email, u.role, u.is_active,
           department_in(u.org_id, u.department, %(lang)s) AS department, u.job_title,
           (SELECT count(*) FROM enrollments e WHERE e.user_id = u.id
              AND e.status IN ('assigned', 'in_progress'))::int AS active_courses,
           (SELECT count(*) FROM enrollments e WHERE e.user_id = u.id AND e.status = 'completed')::int
              AS completed_courses,
           (SELECT count(*) FROM user_skills us WHERE us.user_id = u.id)::int AS skills_count,
           u.last_active_at
    FROM users u WHERE u.org_id = %(org_id)s"""


def list_employees(conn: psycopg.Connection, org_id: UUID, *, search: str | None = None,
                   role: str | None = None, is_active: bool | None = None,
                   lang: str | None = None) -> list[EmployeeSummary]:
    """The organisation's people (optionally by name or email, role, active), departments in ``lang``."""
    with conn.cursor(row_factory=class_row(EmployeeSummary)) as cur:
        return cur.execute(
            _EMPLOYEE_SQL + f"""
              AND (%(search)s::text IS NULL OR {fold_sql('u.full_name')} LIKE '%%' || %(search)s || '%%'
                   OR u.email LIKE '%%' || %(search)s || '%%')
              AND (%(role)s::text IS NULL OR u.role = %(role)s)
              AND (%(active)s::boolean IS NULL OR u.is_active = %(active)s)
            ORDER BY u.full_name""",
            {"org_id": org_id, "search": fold(search) if search else None, "role": role,
             "active": is_active, "lang": lang}).fetchall()


def find_people(conn: psycopg.Connection, org_id: UUID, name: str, lang: str | None = None) -> list[EmployeeSummary]:
    """People whose name or email contains ``name``; an exact name or email alone wins."""
    found = list_employees(conn, org_id, search=name, lang=lang)
    exact = [p for p in found if fold(name) in (fold(p.full_name), p.email)]
    return exact or found


# ---- pending write actions ---------------------------------------------------------------------

_PENDING_COLUMNS = "id, admin_id, session_id, tool, arguments, preview, status, result, created_at"


def create_pending(conn: psycopg.Connection, org_id: UUID, admin_id: UUID, session_id: UUID | None, *,
                   tool: str, arguments: dict, preview: str) -> PendingAction:
    """Hold a write for the admin's confirm; any older pending action in the session is cancelled."""
    cancel_pending(conn, org_id, admin_id, session_id)
    with conn.cursor(row_factory=class_row(PendingAction)) as cur:
        return cur.execute(
            f"""INSERT INTO admin_pending_actions (org_id, admin_id, session_id, tool, arguments, preview)
                VALUES (%(org_id)s, %(admin_id)s, %(session_id)s, %(tool)s, %(arguments)s, %(preview)s)
                RETURNING {_PENDING_COLUMNS}""",
            {"org_id": org_id, "admin_id": admin_id, "session_id": session_id, "tool": tool,
             "arguments": Jsonb(arguments), "preview": preview}).fetchone()


def get_pending(conn: psycopg.Connection, org_id: UUID, admin_id: UUID, action_id: UUID | str) -> PendingAction | None:
    try:
        action_id = UUID(str(action_id))
    except ValueError:
        return None
    with conn.cursor(row_factory=class_row(PendingAction)) as cur:
        return cur.execute(
            f"""SELECT {_PENDING_COLUMNS} FROM admin_pending_actions
                WHERE org_id = %(org_id)s AND admin_id = %(admin_id)s AND id = %(id)s""",
            {"org_id": org_id, "admin_id": admin_id, "id": action_id}).fetchone()


def claim_pending(conn: psycopg.Connection, org_id: UUID, admin_id: UUID, action_id: UUID | str) -> PendingAction | None:
    """Mark the action executed if, and only if, it is still pending: the write that follows in the
    same transaction therefore happens at most once, however often the confirm arrives."""
    try:
        action_id = UUID(str(action_id))
    except ValueError:
        return None
    with conn.cursor(row_factory=class_row(PendingAction)) as cur:
        return cur.execute(
            f"""UPDATE admin_pending_actions SET status = 'executed', resolved_at = now()
                WHERE org_id = %(org_id)s AND admin_id = %(admin_id)s AND id = %(id)s AND status = 'pending'
                RETURNING {_PENDING_COLUMNS}""",
            {"org_id": org_id, "admin_id": admin_id, "id": action_id}).fetchone()


def set_pending_result(conn: psycopg.Connection, org_id: UUID, action_id: UUID, result: Any) -> None:
    conn.execute("UPDATE admin_pending_actions SET result = %(result)s WHERE org_id = %(org_id)s AND id = %(id)s",
                 {"result": Jsonb(result), "org_id": org_id, "id": action_id})


def cancel_pending(conn: psycopg.Connection, org_id: UUID, admin_id: UUID, session_id: UUID | None) -> int:
    return conn.execute(
        """UPDATE admin_pending_actions SET status = 'cancelled', resolved_at = now()
           WHERE org_id = %(org_id)s AND admin_id = %(admin_id)s AND status = 'pending'
             AND session_id IS NOT DISTINCT FROM %(session_id)s""",
        {"org_id": org_id, "admin_id": admin_id, "session_id": session_id}).rowcount
