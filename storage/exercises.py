"""Exercises of a lesson: the per-type content contract, writes, lookups, and how hard each one is.

Exercise ``content`` follows the shared per-type contract (validated here, so a malformed payload
never reaches a learner):
  test {"options": [str], "answer": int} · true_false {"statement": str, "answer": bool} ·
  fill_blank {"text": "..___..", "answers": [str]} · order_steps {"steps": [str]} ·
  practical_case {"scenario": str, "rubric": [str], "model_answer": str} ·
  dialogue {"nodes": {id: {"speaker", "text", "options": [{"text", "next", "correct", "feedback"}]}},
            "start": id}
An exercise of another organisation is indistinguishable from one that does not exist (None).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NoReturn
from uuid import UUID

import psycopg
from psycopg.rows import class_row
from psycopg.types.json import Jsonb

from core.markup import product_text
from storage.courses import CatalogError, inserted_id, next_position

EXERCISE_TYPES = ("test", "true_false", "fill_blank", "order_steps", "practical_case", "dialogue")


BLOOM_LEVELS = ("remember", "understand", "apply", "analyze", "evaluate", "create")


def validate_exercise_content(kind: str, content: object) -> None:
    """Raise CatalogError unless ``content`` matches the shared contract for ``kind``."""

    def fail(what: str) -> NoReturn:
        raise CatalogError(f"{kind} exercise content: {what}")

    def need(ok: object, what: str) -> None:  # ok: any truthy value passes
        if not ok:
            fail(what)

    need(kind in EXERCISE_TYPES, f"unknown type (expected one of {', '.join(EXERCISE_TYPES)})")
    if not isinstance(content, dict):
        fail("must be an object")
    if kind == "test":
        options = content.get("options")
        if not (isinstance(options, list) and len(options) >= 2 and all(isinstance(o, str) for o in options)):
            fail("needs at least two string options")
        answer = content.get("answer")
        need(
            isinstance(answer, int) and not isinstance(answer, bool) and 0 <= answer < len(options),
            "answer must be the index of an option",
        )
    elif kind == "true_false":
        need(isinstance(content.get("statement"), str) and content["statement"].strip(), "needs a statement")
        need(isinstance(content.get("answer"), bool), "answer must be true or false")
    elif kind == "fill_blank":
        need(isinstance(content.get("text"), str) and "___" in content["text"], "text needs a ___ blank")
        answers = content.get("answers")
        need(
            isinstance(answers, list) and answers and all(isinstance(a, str) and a.strip() for a in answers),
            "needs accepted answers",
        )
    elif kind == "order_steps":
        steps = content.get("steps")
        need(
            isinstance(steps, list) and len(steps) >= 2 and all(isinstance(s, str) for s in steps),
            "needs at least two steps in the correct order",
        )
    elif kind == "practical_case":
        need(isinstance(content.get("scenario"), str) and content["scenario"].strip(), "needs a scenario")
        rubric = content.get("rubric")
        need(isinstance(rubric, list) and rubric and all(isinstance(r, str) for r in rubric), "needs a rubric")
        need(isinstance(content.get("model_answer"), str), "needs a model_answer")
    elif kind == "dialogue":
        nodes, start = content.get("nodes"), content.get("start")
        if not (isinstance(nodes, dict) and start in nodes):
            fail("start must name a node")
        for node_id, node in nodes.items():
            need(
                isinstance(node, dict) and {"speaker", "text", "options"} <= node.keys(),
                f"node {node_id} needs speaker, text and options",
            )
            for option in node["options"]:
                need(
                    {"text", "next", "correct", "feedback"} <= option.keys(),
                    f"node {node_id} options need text, next, correct and feedback",
                )
                need(
                    option["next"] is None or option["next"] in nodes,
                    f"node {node_id} points at unknown node {option['next']}",
                )


def add_exercise(
    conn: psycopg.Connection,
    org_id: UUID,
    lesson_id: UUID,
    *,
    type: str,
    prompt: str,
    content: dict[str, Any],
    bloom_level: str,
    explanation: str = "",
    source_chunk_ids: Sequence[UUID] = (),
    position: int | None = None,
) -> UUID:
    """Append an exercise to the lesson; ``content`` must match the shared contract for ``type``."""
    validate_exercise_content(type, content)
    if bloom_level not in BLOOM_LEVELS:
        raise CatalogError(f"bloom_level must be one of {', '.join(BLOOM_LEVELS)}")
    params = {"org_id": org_id, "lesson_id": lesson_id}
    if position is None:
        position = next_position(
            conn,
            "SELECT coalesce(max(position), 0) + 1 FROM exercises"
            " WHERE org_id = %(org_id)s AND lesson_id = %(lesson_id)s AND retired_at IS NULL",
            params,
        )
    return inserted_id(
        conn.execute(
            """INSERT INTO exercises (org_id, lesson_id, position, type, bloom_level, prompt, content,
                                  explanation, source_chunk_ids)
           SELECT %(org_id)s, id, %(position)s, %(type)s, %(bloom)s, %(prompt)s, %(content)s,
                  %(explanation)s, %(chunks)s
           FROM lessons WHERE org_id = %(org_id)s AND id = %(lesson_id)s
           RETURNING id""",
            {
                **params,
                "position": position,
                "type": type,
                "bloom": bloom_level,
                "prompt": product_text(prompt),
                "content": Jsonb(content),
                "explanation": product_text(explanation),
                "chunks": list(source_chunk_ids),
            },
        ),
        "lesson",
    )


@dataclass(frozen=True)
class Exercise:
    id: UUID
    lesson_id: UUID
    position: int
    type: str
    bloom_level: str
    prompt: str
    content: dict
    explanation: str
    source_chunk_ids: list[UUID]


@dataclass(frozen=True)
class ExerciseRef:
    """An exercise with the course, module and lesson it belongs to."""

    id: UUID
    course_id: UUID
    module_id: UUID
    lesson_id: UUID
    type: str
    bloom_level: str
    prompt: str
    content: dict
    explanation: str
    source_chunk_ids: list[UUID]
    retired: bool = False  # hidden from new attempts (storage.item_stats); past attempts keep their scores


_EXERCISE_SELECT = """
    SELECT x.id, m.course_id, m.id AS module_id, l.id AS lesson_id, x.type, x.bloom_level, x.prompt,
           x.content, x.explanation, x.source_chunk_ids, x.retired_at IS NOT NULL AS retired
    FROM exercises x JOIN lessons l ON l.id = x.lesson_id JOIN modules m ON m.id = l.module_id
    WHERE x.org_id = %(org_id)s"""


def get_exercise(conn: psycopg.Connection, org_id: UUID, exercise_id: UUID | str) -> ExerciseRef | None:
    try:
        exercise_id = UUID(str(exercise_id))
    except ValueError:
        return None
    with conn.cursor(row_factory=class_row(ExerciseRef)) as cur:
        return cur.execute(_EXERCISE_SELECT + " AND x.id = %(id)s", {"org_id": org_id, "id": exercise_id}).fetchone()


def course_exercises(conn: psycopg.Connection, org_id: UUID, course_id: UUID) -> list[ExerciseRef]:
    with conn.cursor(row_factory=class_row(ExerciseRef)) as cur:
        return cur.execute(
            _EXERCISE_SELECT + " AND m.course_id = %(course_id)s AND x.retired_at IS NULL"
            " ORDER BY m.position, l.position, x.position",
            {"org_id": org_id, "course_id": course_id},
        ).fetchall()


def revealing_texts(kind: str, content: dict) -> list[str]:
    """The strings that would give the answer of an exercise away (per the shared content contract)."""
    if kind == "test":
        return [content["options"][content["answer"]]]
    if kind == "true_false":
        if content["answer"]:
            return ["is true", "it's true", "es verdadera", "es verdadero", "es cierto", "es cierta"]
        return ["is false", "it's false", "es falsa", "es falso", "no es cierto", "no es cierta"]
    if kind == "fill_blank":
        return list(content["answers"])
    if kind == "order_steps":
        return ["\n".join(f"{n}. {step}" for n, step in enumerate(content["steps"], 1))]
    if kind == "practical_case":
        return [*content["rubric"], content["model_answer"]]
    if kind == "dialogue":
        return [
            option["text"] for node in content["nodes"].values() for option in node["options"] if option.get("correct")
        ]
    return []


def lesson_exercises(conn: psycopg.Connection, org_id: UUID, lesson_id: UUID) -> list[UUID]:
    return [
        row[0]
        for row in conn.execute(
            "SELECT id FROM exercises WHERE org_id = %(org_id)s AND lesson_id = %(lesson_id)s AND retired_at IS NULL"
            " ORDER BY position",
            {"org_id": org_id, "lesson_id": lesson_id},
        )
    ]


def course_exercise_positions(
    conn: psycopg.Connection, org_id: UUID, course_id: UUID
) -> dict[tuple[int, int, int], tuple[UUID, str, dict]]:
    """(module, lesson, exercise) positions -> (exercise id, type, content)."""
    return {
        (m, l, e): (exercise_id, kind, content)
        for m, l, e, exercise_id, kind, content in conn.execute(
            """SELECT m.position, l.position, x.position, x.id, x.type, x.content
           FROM exercises x JOIN lessons l ON l.id = x.lesson_id JOIN modules m ON m.id = l.module_id
           WHERE x.org_id = %(org_id)s AND m.course_id = %(course_id)s AND x.retired_at IS NULL""",
            {"org_id": org_id, "course_id": course_id},
        )
    }


@dataclass(frozen=True)
class ExerciseDifficulty:
    lesson: str
    prompt: str
    type: str
    attempts: int
    people: int
    failure_rate: float


def hardest_exercises(
    conn: psycopg.Connection, org_id: UUID, course_id: UUID, limit: int = 5
) -> list[ExerciseDifficulty]:
    """The course's exercises with the highest share of failed submitted attempts."""
    with conn.cursor(row_factory=class_row(ExerciseDifficulty)) as cur:
        return cur.execute(
            """SELECT l.title AS lesson, x.prompt, x.type, count(a.id)::int AS attempts,
                      count(DISTINCT a.user_id)::int AS people,
                      (count(a.id) FILTER (WHERE NOT a.is_correct))::float / count(a.id) AS failure_rate
               FROM exercises x JOIN lessons l ON l.id = x.lesson_id JOIN modules m ON m.id = l.module_id
               JOIN exercise_attempts a ON a.exercise_id = x.id AND a.submitted_at IS NOT NULL
               WHERE x.org_id = %(org_id)s AND m.course_id = %(course_id)s AND x.retired_at IS NULL
               GROUP BY x.id, l.title ORDER BY failure_rate DESC, attempts DESC LIMIT %(limit)s""",
            {"org_id": org_id, "course_id": course_id, "limit": limit},
        ).fetchall()
