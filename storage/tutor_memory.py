"""Tutor-specific reads beside storage/chat.py: rate-limit windows and course/lesson context lookups."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

import psycopg
from psycopg.rows import class_row


@dataclass(frozen=True)
class LessonRef:
    id: UUID
    title: str
    course_id: UUID
    course_title: str


@dataclass(frozen=True)
class CourseRef:
    id: UUID
    title: str


def user_message_times_since(conn: psycopg.Connection, org_id: UUID, user_id: UUID, agent_type: str,
                             since: datetime) -> list[datetime]:
    """When this user sent each message to this agent since ``since``, oldest first."""
    rows = conn.execute(
        """SELECT m.created_at FROM chat_messages m JOIN chat_sessions s ON s.id = m.session_id
           WHERE m.org_id = %(org_id)s AND s.user_id = %(user_id)s AND s.agent_type = %(agent_type)s
             AND m.role = 'user' AND m.created_at >= %(since)s
           ORDER BY m.created_at""",
        {"org_id": org_id, "user_id": user_id, "agent_type": agent_type, "since": since}).fetchall()
    return [row[0] for row in rows]


def _as_uuid(ref: str) -> UUID | None:
    try:
        return UUID(str(ref))
    except ValueError:
        return None


def find_course(conn: psycopg.Connection, org_id: UUID, ref: str) -> CourseRef | None:
    """A course of the organisation by id or by title (case-insensitive); drafts are not offered."""
    with conn.cursor(row_factory=class_row(CourseRef)) as cur:
        return cur.execute(
            """SELECT id, title FROM courses
               WHERE org_id = %(org_id)s AND status <> 'draft'
                 AND (id = %(id)s OR lower(title) = lower(%(title)s))
               ORDER BY (id = %(id)s) DESC LIMIT 1""",
            {"org_id": org_id, "id": _as_uuid(ref), "title": str(ref).strip()}).fetchone()


def find_lesson(conn: psycopg.Connection, org_id: UUID, ref: str,
                course_id: UUID | None = None) -> LessonRef | None:
    """A lesson by id or title (case-insensitive), within ``course_id`` when given."""
    with conn.cursor(row_factory=class_row(LessonRef)) as cur:
        return cur.execute(
            """SELECT l.id, l.title, c.id AS course_id, c.title AS course_title
               FROM lessons l JOIN modules m ON m.id = l.module_id JOIN courses c ON c.id = m.course_id
               WHERE l.org_id = %(org_id)s AND c.status <> 'draft'
                 AND (%(course_id)s::uuid IS NULL OR c.id = %(course_id)s)
                 AND (l.id = %(id)s OR lower(l.title) = lower(%(title)s))
               ORDER BY (l.id = %(id)s) DESC, m.position, l.position LIMIT 1""",
            {"org_id": org_id, "id": _as_uuid(ref), "title": str(ref).strip(),
             "course_id": course_id}).fetchone()
