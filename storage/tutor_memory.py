"""Tutor-specific reads beside storage/chat.py: course and lesson context lookups by id or title."""
from __future__ import annotations

from dataclasses import dataclass
from uuid import UUID

import psycopg
from psycopg.rows import class_row

from storage.inputs import parse_uuid


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


def find_course(conn: psycopg.Connection, org_id: UUID, ref: str) -> CourseRef | None:
    """A course of the organisation by id or by title (case-insensitive); drafts are not offered."""
    with conn.cursor(row_factory=class_row(CourseRef)) as cur:
        return cur.execute(
            """SELECT id, title FROM courses
               WHERE org_id = %(org_id)s AND status <> 'draft'
                 AND (id = %(id)s OR lower(title) = lower(%(title)s))
               ORDER BY (id = %(id)s) DESC LIMIT 1""",
            {"org_id": org_id, "id": parse_uuid(ref), "title": str(ref).strip()}).fetchone()


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
            {"org_id": org_id, "id": parse_uuid(ref), "title": str(ref).strip(),
             "course_id": course_id}).fetchone()
