"""Courses: creating and publishing them, the documents and skills they link, lookups by id or title,
and the statistics admins read.

Functions take the connection first, are scoped by org_id, return ids or small dataclasses and never
commit. A parent (course, module, lesson) of another organisation is "not found" (CatalogError).
"""

from __future__ import annotations

from dataclasses import dataclass
from uuid import UUID

import psycopg
from psycopg.rows import class_row
from psycopg.types.json import Jsonb

from core.inputs import parse_uuid
from core.names import fold, fold_sql, in_language
from storage.rows import one_row, scalar


class CatalogError(ValueError):
    """Invalid course content; the message is one line."""


def create_course(
    conn: psycopg.Connection,
    org_id: UUID,
    *,
    title: str,
    description: str = "",
    outcome: str = "",
    language: str = "es",
    source_document_id: UUID | None = None,
    created_by: UUID | None = None,
    generation_job_id: UUID | None = None,
    status: str = "draft",
) -> UUID:
    row = one_row(
        conn.execute(
            """INSERT INTO courses (org_id, title, description, outcome, language, source_document_id,
                                created_by, generation_job_id, status, published_at)
           VALUES (%(org_id)s, %(title)s, %(description)s, %(outcome)s, %(language)s, %(source)s,
                   %(created_by)s, %(job)s, %(status)s,
                   CASE WHEN %(status)s = 'published' THEN now() END)
           RETURNING id""",
            {
                "org_id": org_id,
                "title": title,
                "description": description,
                "outcome": outcome,
                "language": language,
                "source": source_document_id,
                "created_by": created_by,
                "job": generation_job_id,
                "status": status,
            },
        )
    )
    return row[0]


def delete_draft_course(conn: psycopg.Connection, org_id: UUID, course_id: UUID) -> bool:
    """Delete a course that is still a draft, with what hangs off it (modules, lessons, exercises cascade; a
    job that produced it keeps its record, without the link). A published or archived course is never deleted."""
    cur = conn.execute(
        "DELETE FROM courses WHERE org_id = %(org_id)s AND id = %(id)s AND status = 'draft'",
        {"org_id": org_id, "id": course_id},
    )
    return cur.rowcount == 1


def set_course_status(conn: psycopg.Connection, org_id: UUID, course_id: UUID, status: str) -> bool:
    """draft | published | archived; publishing stamps published_at once."""
    cur = conn.execute(
        """UPDATE courses SET status = %(status)s,
               published_at = CASE WHEN %(status)s = 'published' THEN coalesce(published_at, now())
                                   ELSE published_at END
           WHERE org_id = %(org_id)s AND id = %(id)s""",
        {"status": status, "org_id": org_id, "id": course_id},
    )
    return cur.rowcount == 1


def next_position(conn: psycopg.Connection, sql: str, params: dict) -> int:
    return scalar(conn, sql, params)


def inserted_id(cur: psycopg.Cursor, parent: str) -> UUID:
    """The id an INSERT ... SELECT returned; none means the parent is not in this organisation."""
    row = cur.fetchone()
    if row is None:
        raise CatalogError(f"{parent} not found in this organisation")
    return row[0]


def link_course_document(conn: psycopg.Connection, org_id: UUID, course_id: UUID, document_id: UUID) -> None:
    conn.execute(
        """INSERT INTO course_documents (course_id, document_id, org_id)
           SELECT c.id, d.id, c.org_id FROM courses c JOIN documents d ON d.org_id = c.org_id
           WHERE c.org_id = %(org_id)s AND c.id = %(course_id)s AND d.id = %(document_id)s
           ON CONFLICT DO NOTHING""",
        {"org_id": org_id, "course_id": course_id, "document_id": document_id},
    )


def link_course_skill(
    conn: psycopg.Connection, org_id: UUID, course_id: UUID, skill_id: UUID, target_level: str = "medium"
) -> None:
    conn.execute(
        """INSERT INTO course_skills (course_id, skill_id, org_id, target_level)
           SELECT c.id, s.id, c.org_id, %(level)s FROM courses c JOIN skills s ON s.org_id = c.org_id
           WHERE c.org_id = %(org_id)s AND c.id = %(course_id)s AND s.id = %(skill_id)s
           ON CONFLICT (course_id, skill_id) DO UPDATE SET target_level = EXCLUDED.target_level""",
        {"org_id": org_id, "course_id": course_id, "skill_id": skill_id, "level": target_level},
    )


@dataclass(frozen=True)
class Course:
    id: UUID
    title: str
    description: str
    outcome: str
    status: str
    language: str
    source_document_id: UUID | None
    titles: dict  # {"es": ..., "en": ...}: the title in each language (empty when only ``title``)

    def title_in(self, lang: str) -> str:
        return self.titles.get(lang) or self.title


_COURSE_COLUMNS = "id, title, description, outcome, status, language, source_document_id, titles"


def get_course(conn: psycopg.Connection, org_id: UUID, course_id: UUID) -> Course | None:
    with conn.cursor(row_factory=class_row(Course)) as cur:
        return cur.execute(
            f"SELECT {_COURSE_COLUMNS} FROM courses WHERE org_id = %(org_id)s AND id = %(id)s",
            {"org_id": org_id, "id": course_id},
        ).fetchone()


def list_courses(conn: psycopg.Connection, org_id: UUID, *, status: str | None = None) -> list[Course]:
    with conn.cursor(row_factory=class_row(Course)) as cur:
        return cur.execute(
            f"""SELECT {_COURSE_COLUMNS} FROM courses WHERE org_id = %(org_id)s
                AND (%(status)s::text IS NULL OR status = %(status)s) ORDER BY title""",
            {"org_id": org_id, "status": status},
        ).fetchall()


def course_org_id(conn: psycopg.Connection, course_id: UUID) -> UUID | None:
    """The organisation a course belongs to (for operator commands given only a course id)."""
    row = conn.execute("SELECT org_id FROM courses WHERE id = %(id)s", {"id": course_id}).fetchone()
    return row[0] if row else None


def set_course_titles(conn: psycopg.Connection, org_id: UUID, course_id: UUID, titles: dict[str, str]) -> None:
    """The course's title in each language (the canonical ``title`` is unchanged)."""
    conn.execute(
        "UPDATE courses SET titles = %(titles)s WHERE org_id = %(org_id)s AND id = %(id)s",
        {"titles": Jsonb(titles), "org_id": org_id, "id": course_id},
    )


def course_skill_targets(conn: psycopg.Connection, org_id: UUID, course_id: UUID) -> dict[UUID, str]:
    rows = conn.execute(
        "SELECT skill_id, target_level FROM course_skills WHERE org_id = %(org_id)s AND course_id = %(course_id)s",
        {"org_id": org_id, "course_id": course_id},
    )
    return dict(rows.fetchall())


@dataclass(frozen=True)
class CourseRef:
    id: UUID
    title: str


def find_course(conn: psycopg.Connection, org_id: UUID, ref: str, lang: str | None = None) -> CourseRef | None:
    """A course of the organisation by id or by its title in any language (case and accents aside),
    titled in ``lang``; drafts are not offered."""
    with conn.cursor(row_factory=class_row(CourseRef)) as cur:
        return cur.execute(
            f"""SELECT id, {in_language("titles", "title")} AS title FROM courses
                WHERE org_id = %(org_id)s AND status <> 'draft'
                  AND (id = %(id)s OR {fold_sql("title")} = %(title)s
                       OR EXISTS (SELECT 1 FROM jsonb_each_text(titles) AS t(lang, value)
                                  WHERE {fold_sql("t.value")} = %(title)s))
                ORDER BY (id = %(id)s) DESC LIMIT 1""",
            {"org_id": org_id, "id": parse_uuid(ref), "title": fold(str(ref)), "lang": lang},
        ).fetchone()


def course_id_by_title(conn: psycopg.Connection, org_id: UUID, title: str) -> UUID | None:
    row = conn.execute(
        "SELECT id FROM courses WHERE org_id = %(org_id)s AND title = %(title)s", {"org_id": org_id, "title": title}
    ).fetchone()
    return row[0] if row else None


@dataclass(frozen=True)
class CourseSummary:
    id: UUID
    title: str
    status: str
    language: str
    enrolled: int
    completed: int
    completion_rate: float
    avg_score: float | None


def list_course_summaries(
    conn: psycopg.Connection, org_id: UUID, *, status: str | None = None, lang: str | None = None
) -> list[CourseSummary]:
    """Every course (optionally of one status) with its enrollment figures, titled in ``lang``."""
    with conn.cursor(row_factory=class_row(CourseSummary)) as cur:
        return cur.execute(
            f"""SELECT c.id, {in_language("c.titles", "c.title")} AS title, c.status, c.language,
                      count(e.id) FILTER (WHERE e.status <> 'cancelled')::int AS enrolled,
                      count(e.id) FILTER (WHERE e.status = 'completed')::int AS completed,
                      coalesce(count(e.id) FILTER (WHERE e.status = 'completed')::float
                               / nullif(count(e.id) FILTER (WHERE e.status <> 'cancelled'), 0), 0)
                          AS completion_rate,
                      avg(e.score) FILTER (WHERE e.score IS NOT NULL)::float AS avg_score
               FROM courses c LEFT JOIN enrollments e ON e.course_id = c.id
               WHERE c.org_id = %(org_id)s AND (%(status)s::text IS NULL OR c.status = %(status)s)
               GROUP BY c.id ORDER BY c.title""",
            {"org_id": org_id, "status": status, "lang": lang},
        ).fetchall()


def find_courses(conn: psycopg.Connection, org_id: UUID, title: str, lang: str | None = None) -> list[CourseSummary]:
    """Courses whose title in any language contains ``title`` (case and accents aside); an exact
    title alone wins. Titled in ``lang``."""
    needle = fold(title)
    titles = {
        course_id: [fold(name) for name in (canonical, *names.values())]
        for course_id, canonical, names in conn.execute(
            "SELECT id, title, titles FROM courses WHERE org_id = %(org_id)s", {"org_id": org_id}
        )
    }
    found = {course_id for course_id, names in titles.items() if needle and any(needle in n for n in names)}
    exact = {course_id for course_id in found if needle in titles[course_id]}
    return [c for c in list_course_summaries(conn, org_id, lang=lang) if c.id in (exact or found)]


@dataclass(frozen=True)
class CourseStats:
    id: UUID
    title: str
    status: str
    enrolled: int
    in_progress: int
    completed: int
    overdue: int
    completion_rate: float
    avg_progress: float
    avg_score: float | None


def course_stats(
    conn: psycopg.Connection, org_id: UUID, course_id: UUID, lang: str | None = None
) -> CourseStats | None:
    with conn.cursor(row_factory=class_row(CourseStats)) as cur:
        return cur.execute(
            f"""SELECT c.id, {in_language("c.titles", "c.title")} AS title, c.status,
                      count(e.id) FILTER (WHERE e.status <> 'cancelled')::int AS enrolled,
                      count(e.id) FILTER (WHERE e.status = 'in_progress')::int AS in_progress,
                      count(e.id) FILTER (WHERE e.status = 'completed')::int AS completed,
                      count(e.id) FILTER (WHERE e.status IN ('assigned', 'in_progress')
                                          AND e.deadline < current_date)::int AS overdue,
                      coalesce(count(e.id) FILTER (WHERE e.status = 'completed')::float
                               / nullif(count(e.id) FILTER (WHERE e.status <> 'cancelled'), 0), 0)
                          AS completion_rate,
                      coalesce(avg(e.progress) FILTER (WHERE e.status <> 'cancelled'), 0)::float
                          AS avg_progress,
                      avg(e.score) FILTER (WHERE e.score IS NOT NULL)::float AS avg_score
               FROM courses c LEFT JOIN enrollments e ON e.course_id = c.id
               WHERE c.org_id = %(org_id)s AND c.id = %(course_id)s GROUP BY c.id""",
            {"org_id": org_id, "course_id": course_id, "lang": lang},
        ).fetchone()
