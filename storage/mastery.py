"""What the tutor knows about a learner in one course (issue 29, spec 003): the courses they are taking and
each one's tutor mode, their first tries, recent wrong answers, review cards, and the skills and lesson
they are weak in.

Scoped by org and person: another organisation's course, or a course the person is not taking, is
"not found" (None), never somebody else's data.
"""

from __future__ import annotations

from dataclasses import dataclass
from uuid import UUID

import psycopg
from psycopg.rows import class_row

from core.names import in_language

TUTOR_MODES = ("guided", "direct")
RECENT_ATTEMPTS = 6  # the recent answers whose wrong ones count
TAKING = ("assigned", "in_progress")


@dataclass(frozen=True)
class TakenCourse:
    id: UUID
    title: str  # in the reader's language
    tutor_mode: str
    source_id: str | None  # the best of the question's sources that comes from the course


@dataclass(frozen=True)
class CourseMastery:
    first_tried: int  # exercises of the course answered at least once
    first_correct: int  # ... right the first time
    recent: int  # the last RECENT_ATTEMPTS answers in the course (or fewer)
    recent_wrong: int
    cards: list  # the course's FSRS review cards (fsrs.Card.to_dict())
    weak_spots: list  # WeakSpot: the modules with recent wrong answers or a skill below the course's target


@dataclass(frozen=True)
class WeakSpot:
    """A module the learner is weak in, with the ids of what it teaches from (its lessons, the chunks its
    lessons and exercises were written from), so a question's passages can be matched to it."""

    lesson_id: UUID | None  # with recent wrong answers in the module: the lesson that teaches it
    lesson: str | None
    skill: str | None  # the module's skill when the learner is below the course's target in it
    sources: list  # lesson ids and chunk ids, as text


def set_tutor_mode(conn: psycopg.Connection, org_id: UUID, course_id: UUID, mode: str) -> str | None:
    """The course's tutor mode before the change; None when the course is not the organisation's."""
    if mode not in TUTOR_MODES:
        raise ValueError(f"tutor mode must be one of {TUTOR_MODES}")
    row = conn.execute(
        """UPDATE courses c SET tutor_mode = %(mode)s FROM courses old
           WHERE c.org_id = %(org_id)s AND c.id = %(id)s AND old.id = c.id RETURNING old.tutor_mode""",
        {"org_id": org_id, "id": course_id, "mode": mode},
    ).fetchone()
    return row[0] if row else None


def tutor_mode(conn: psycopg.Connection, org_id: UUID, course_id: UUID) -> str | None:
    row = conn.execute(
        "SELECT tutor_mode FROM courses WHERE org_id = %(org_id)s AND id = %(id)s", {"org_id": org_id, "id": course_id}
    ).fetchone()
    return row[0] if row else None


def taking_course(
    conn: psycopg.Connection, org_id: UUID, user_id: UUID, source_ids: list[str], course_id: UUID | None, lang: str
) -> TakenCourse | None:
    """The course the learner is taking (assigned or in progress) that the question is about: the course in
    view, else the one whose lessons, taught passages or documents the first of ``source_ids`` (lesson, chunk
    or document ids, best first) come from: a passage of a course's document that no lesson teaches (a
    handbook's pay section under a security course) does not make the question one on that course."""
    with conn.cursor(row_factory=class_row(TakenCourse)) as cur:
        return cur.execute(
            f"""WITH sources AS (SELECT s.id, s.n FROM unnest(%(ids)s::text[]) WITH ORDINALITY AS s(id, n)),
                     taking AS (
                       SELECT c.id, {in_language("c.titles", "c.title")} AS title, c.tutor_mode FROM enrollments e
                       JOIN courses c ON c.id = e.course_id AND c.org_id = e.org_id
                       WHERE e.org_id = %(org_id)s AND e.user_id = %(user_id)s AND e.status = ANY(%(taking)s)),
                     matched AS (
                       SELECT t.*, (t.id = %(course_id)s) AS in_view,
                              (SELECT s.id FROM sources s
                               WHERE s.id IN (SELECT l.id::text FROM lessons l JOIN modules m ON m.id = l.module_id
                                              WHERE m.course_id = t.id)
                                  OR s.id IN (SELECT cd.document_id::text FROM course_documents cd
                                              WHERE cd.course_id = t.id)
                                  OR s.id IN (SELECT unnest(l.source_chunk_ids)::text FROM lessons l
                                              JOIN modules m ON m.id = l.module_id WHERE m.course_id = t.id
                                              UNION ALL
                                              SELECT unnest(m.source_chunk_ids)::text FROM modules m
                                              WHERE m.course_id = t.id)
                               ORDER BY s.n LIMIT 1) AS source_id
                       FROM taking t)
                SELECT id, title, tutor_mode, source_id FROM matched WHERE in_view OR source_id IS NOT NULL
                ORDER BY in_view DESC, (SELECT n FROM sources WHERE sources.id = matched.source_id) LIMIT 1""",
            {
                "org_id": org_id,
                "user_id": user_id,
                "ids": source_ids,
                "course_id": course_id,
                "taking": list(TAKING),
                "lang": lang,
            },
        ).fetchone()


def exercise_record(conn: psycopg.Connection, org_id: UUID, user_id: UUID, exercise_id: UUID) -> tuple[int, int | None]:
    """(the learner's wrong answers to the exercise since their last right one, the FSRS state of its review
    card or None)."""
    params = {"org_id": org_id, "user_id": user_id, "id": exercise_id}
    mine = "org_id = %(org_id)s AND user_id = %(user_id)s AND exercise_id = %(id)s AND submitted_at IS NOT NULL"
    wrong = conn.execute(
        f"""SELECT count(*) FROM exercise_attempts WHERE {mine} AND is_correct IS FALSE
            AND submitted_at > coalesce((SELECT max(submitted_at) FROM exercise_attempts WHERE {mine} AND is_correct),
                                        '-infinity')""",
        params,
    ).fetchone()
    card = conn.execute(
        """SELECT (card ->> 'state')::int FROM review_cards
           WHERE org_id = %(org_id)s AND user_id = %(user_id)s AND exercise_id = %(id)s""",
        params,
    ).fetchone()
    return (wrong[0] if wrong else 0), (card[0] if card else None)


def course_mastery(conn: psycopg.Connection, org_id: UUID, user_id: UUID, course_id: UUID, lang: str) -> CourseMastery:
    """The learner's record in one course of their organisation (all zero when they have none)."""
    params = {"org_id": org_id, "user_id": user_id, "course_id": course_id, "recent": RECENT_ATTEMPTS, "lang": lang}
    answered = """SELECT a.exercise_id, a.is_correct, a.submitted_at, l.id AS lesson_id, l.title AS lesson, m.id
                  FROM exercise_attempts a JOIN exercises x ON x.id = a.exercise_id
                  JOIN lessons l ON l.id = x.lesson_id JOIN modules m ON m.id = l.module_id
                  WHERE a.org_id = %(org_id)s AND a.user_id = %(user_id)s AND m.course_id = %(course_id)s
                    AND a.submitted_at IS NOT NULL"""
    first_tried, first_correct = conn.execute(
        f"""SELECT count(*), count(*) FILTER (WHERE is_correct) FROM (
              SELECT DISTINCT ON (exercise_id) exercise_id, is_correct FROM ({answered}) a
              ORDER BY exercise_id, submitted_at) firsts""",
        params,
    ).fetchone() or (0, 0)
    recent = conn.execute(f"{answered} ORDER BY a.submitted_at DESC LIMIT %(recent)s", params).fetchall()
    wrong = [row for row in recent if row[1] is False]
    cards = [
        row[0]
        for row in conn.execute(
            """SELECT r.card FROM review_cards r JOIN exercises x ON x.id = r.exercise_id
               JOIN lessons l ON l.id = x.lesson_id JOIN modules m ON m.id = l.module_id
               WHERE r.org_id = %(org_id)s AND r.user_id = %(user_id)s AND m.course_id = %(course_id)s""",
            params,
        )
    ]
    wrong_modules = {row[5] for row in recent if row[1] is False}  # modules with recent wrong answers
    modules = conn.execute(
        f"""SELECT m.id, {in_language("s.names", "s.name")} AS skill,
                   (SELECT array[l.id::text, l.title] FROM lessons l WHERE l.module_id = m.id
                    ORDER BY (l.content_type = 'theory') DESC, l.position LIMIT 1) AS teaching,
                   coalesce(array_position(ARRAY['low', 'medium', 'high'], us.level), 4)
                     < coalesce(array_position(ARRAY['low', 'medium', 'high'], cs.target_level), 0) AS below,
                   (SELECT array_agg(DISTINCT id) FROM (
                      SELECT l.id::text AS id FROM lessons l WHERE l.module_id = m.id
                      UNION SELECT unnest(l.source_chunk_ids)::text FROM lessons l WHERE l.module_id = m.id
                      UNION SELECT unnest(x.source_chunk_ids)::text FROM exercises x
                            JOIN lessons l ON l.id = x.lesson_id WHERE l.module_id = m.id) ids) AS sources
            FROM modules m LEFT JOIN skills s ON s.id = m.skill_id
            LEFT JOIN course_skills cs ON cs.course_id = m.course_id AND cs.skill_id = m.skill_id
            LEFT JOIN user_skills us ON us.skill_id = m.skill_id AND us.user_id = %(user_id)s
            WHERE m.org_id = %(org_id)s AND m.course_id = %(course_id)s ORDER BY m.position""",
        params,
    ).fetchall()
    spots = [
        WeakSpot(  # the lesson that teaches what they got wrong: the module's first theory lesson
            lesson_id=UUID(teaching[0]) if module_id in wrong_modules and teaching else None,
            lesson=teaching[1] if module_id in wrong_modules and teaching else None,
            skill=skill if below else None,
            sources=sources or [],
        )
        for module_id, skill, teaching, below, sources in modules
        if module_id in wrong_modules or below
    ]
    return CourseMastery(
        first_tried=first_tried,
        first_correct=first_correct,
        recent=len(recent),
        recent_wrong=len(wrong),
        cards=cards,
        weak_spots=spots,
    )
