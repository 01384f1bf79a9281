"""Modules and lessons of a course, the whole course outline in order, and lesson lookups.

Functions take the connection first, are scoped by org_id and never commit.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from uuid import UUID

import psycopg
from psycopg.rows import class_row
from psycopg.types.json import Jsonb

from core.inputs import parse_uuid
from core.markup import product_text
from core.names import in_language
from storage.courses import CatalogError, Course, get_course, inserted_id, next_position
from storage.exercises import Exercise

LESSON_TYPES = ("theory", "example", "exercise", "summary")


def add_module(
    conn: psycopg.Connection,
    org_id: UUID,
    course_id: UUID,
    *,
    title: str,
    summary: str = "",
    position: int | None = None,
    bloom_level: str | None = None,
    skill_id: UUID | None = None,
    source_chunk_ids: Sequence[UUID] = (),
    version: int = 1,
) -> UUID:
    """Append a module to the course (or place it at ``position``)."""
    params = {"org_id": org_id, "course_id": course_id}
    if position is None:
        position = next_position(
            conn,
            "SELECT coalesce(max(position), 0) + 1 FROM modules"
            " WHERE org_id = %(org_id)s AND course_id = %(course_id)s",
            params,
        )
    return inserted_id(
        conn.execute(
            """INSERT INTO modules (org_id, course_id, position, title, summary, bloom_level, skill_id,
                                source_chunk_ids, version)
           SELECT %(org_id)s, id, %(position)s, %(title)s, %(summary)s, %(bloom)s, %(skill_id)s,
                  %(chunks)s, %(version)s
           FROM courses WHERE org_id = %(org_id)s AND id = %(course_id)s
           RETURNING id""",
            {
                **params,
                "position": position,
                "title": title,
                "summary": summary,
                "bloom": bloom_level,
                "skill_id": skill_id,
                "chunks": list(source_chunk_ids),
                "version": version,
            },
        ),
        "course",
    )


def add_lesson(
    conn: psycopg.Connection,
    org_id: UUID,
    module_id: UUID,
    *,
    title: str,
    content_type: str,
    content_md: str = "",
    citations: Sequence[dict] = (),
    source_chunk_ids: Sequence[UUID] = (),
    position: int | None = None,
) -> UUID:
    """Append a lesson (theory | example | exercise | summary) to the module.

    ``citations``: [{"document": title, "section": heading, "page": n, "chunk_id": id?}, ...].
    """
    if content_type not in LESSON_TYPES:
        raise CatalogError(f"lesson type must be one of {', '.join(LESSON_TYPES)}")
    params = {"org_id": org_id, "module_id": module_id}
    if position is None:
        position = next_position(
            conn,
            "SELECT coalesce(max(position), 0) + 1 FROM lessons"
            " WHERE org_id = %(org_id)s AND module_id = %(module_id)s",
            params,
        )
    return inserted_id(
        conn.execute(
            """INSERT INTO lessons (org_id, module_id, position, title, content_type, content_md, citations,
                                source_chunk_ids)
           SELECT %(org_id)s, id, %(position)s, %(title)s, %(type)s, %(md)s, %(citations)s, %(chunks)s
           FROM modules WHERE org_id = %(org_id)s AND id = %(module_id)s
           RETURNING id""",
            {
                **params,
                "position": position,
                "title": product_text(title),
                "type": content_type,
                "md": product_text(content_md),
                "citations": Jsonb(
                    [{k: str(v) if isinstance(v, UUID) else v for k, v in c.items()} for c in citations]
                ),
                "chunks": list(source_chunk_ids),
            },
        ),
        "module",
    )


@dataclass
class LessonOutline:
    id: UUID
    position: int
    title: str
    content_type: str
    content_md: str
    citations: list[dict]
    exercises: list[Exercise] = field(default_factory=list)


@dataclass
class ModuleOutline:
    id: UUID
    position: int
    title: str
    summary: str
    skill_id: UUID | None
    lessons: list[LessonOutline] = field(default_factory=list)


@dataclass
class CourseOutline:
    course: Course
    modules: list[ModuleOutline]


def get_course_outline(conn: psycopg.Connection, org_id: UUID, course_id: UUID) -> CourseOutline | None:
    """The course with its modules, lessons and live exercises (not retired), in order."""
    course = get_course(conn, org_id, course_id)
    if course is None:
        return None
    params = {"org_id": org_id, "course_id": course_id}
    modules = {
        row[0]: ModuleOutline(*row)
        for row in conn.execute(
            """SELECT id, position, title, summary, skill_id FROM modules
           WHERE org_id = %(org_id)s AND course_id = %(course_id)s ORDER BY position""",
            params,
        )
    }
    lessons: dict[UUID, LessonOutline] = {}
    for module_id, *row in conn.execute(
        """SELECT l.module_id, l.id, l.position, l.title, l.content_type, l.content_md, l.citations
               FROM lessons l JOIN modules m ON m.id = l.module_id
               WHERE l.org_id = %(org_id)s AND m.course_id = %(course_id)s ORDER BY m.position, l.position""",
        params,
    ):
        lesson = LessonOutline(*row)
        lessons[lesson.id] = lesson
        modules[module_id].lessons.append(lesson)
    with conn.cursor(row_factory=class_row(Exercise)) as cur:
        for exercise in cur.execute(
            """SELECT e.id, e.lesson_id, e.position, e.type, e.bloom_level, e.prompt, e.content,
                          e.explanation, e.source_chunk_ids
                   FROM exercises e JOIN lessons l ON l.id = e.lesson_id JOIN modules m ON m.id = l.module_id
                   WHERE e.org_id = %(org_id)s AND m.course_id = %(course_id)s AND e.retired_at IS NULL
                   ORDER BY e.position""",
            params,
        ):
            lessons[exercise.lesson_id].exercises.append(exercise)
    return CourseOutline(course, list(modules.values()))


@dataclass(frozen=True)
class LessonRef:
    id: UUID
    title: str
    course_id: UUID
    course_title: str


def find_lesson(
    conn: psycopg.Connection, org_id: UUID, ref: str, course_id: UUID | None = None, lang: str | None = None
) -> LessonRef | None:
    """A lesson by id or title (case-insensitive), within ``course_id`` when given; its course titled in
    ``lang``."""
    with conn.cursor(row_factory=class_row(LessonRef)) as cur:
        return cur.execute(
            f"""SELECT l.id, l.title, c.id AS course_id, {in_language("c.titles", "c.title")} AS course_title
               FROM lessons l JOIN modules m ON m.id = l.module_id JOIN courses c ON c.id = m.course_id
               WHERE l.org_id = %(org_id)s AND c.status <> 'draft'
                 AND (%(course_id)s::uuid IS NULL OR c.id = %(course_id)s)
                 AND (l.id = %(id)s OR lower(l.title) = lower(%(title)s))
               ORDER BY (l.id = %(id)s) DESC, m.position, l.position LIMIT 1""",
            {"org_id": org_id, "id": parse_uuid(ref), "title": str(ref).strip(), "course_id": course_id, "lang": lang},
        ).fetchone()


def course_lessons(conn: psycopg.Connection, org_id: UUID, course_id: UUID) -> list[tuple[UUID, str]]:
    """(lesson id, content type) in course order."""
    return conn.execute(
        """SELECT l.id, l.content_type FROM lessons l JOIN modules m ON m.id = l.module_id
           WHERE l.org_id = %(org_id)s AND m.course_id = %(course_id)s ORDER BY m.position, l.position""",
        {"org_id": org_id, "course_id": course_id},
    ).fetchall()
