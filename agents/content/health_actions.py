"""A trainer's answers to a course-health flag: regenerate the exercise (a reviewed draft, confirmed before
it replaces the live one) or retire it. Both are audited; learners' past attempts keep their scores
(the old exercise stays, retired, with its attempts).

Regeneration writes candidates from the passages the exercise cites and the passages its question is
about (a key taken from the wrong passage shows as a question about one passage citing another), with
the offline exercise writer (agents.content.exercises), and keeps the first one the course reviewer
(agents.content.review) finds nothing critical or major in. The flag's reason is the draft's note and
picks what to prefer: a true/false in an all-true set or one everybody gets right is replaced by a
question of another type.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from uuid import UUID

from agents.content.exercises import build_exercises
from agents.content.review import exercise_findings
from agents.content.sections import Section
from agents.content.sources import load_sections
from agents.content.text import overlap
from agents.i18n import t
from agents.insights.item_health import defer_item_health
from agents.runtime.deps import AppDeps
from storage import audit, item_stats
from storage import courses as course_store
from storage import exercises as exercise_store
from storage.course_outline import course_document_ids
from storage.users import User

GUESSABLE_FLAGS = ("tf_all_same", "too_easy")


class HealthActionError(ValueError):
    """An action on a flagged exercise that cannot be done; one line in the admin's language."""


@dataclass
class Replacement:
    exercise_id: UUID  # the live exercise it would replace
    course_id: UUID
    flag: str
    note: str  # the flag's reason, in words
    exercise: dict  # type, bloom_level, prompt, content, explanation, source_chunk_ids
    findings: list[str] = field(default_factory=list)  # the reviewer's minor findings, in words
    engine: str = "offline"


def _admin(user: User) -> None:
    if not user.is_admin:
        raise HealthActionError(t("content.health.admins_only", user.language))


def _live(conn, user: User, exercise_id) -> exercise_store.ExerciseRef:
    exercise = exercise_store.get_exercise(conn, user.org_id, exercise_id)
    if exercise is None or exercise.retired:
        raise HealthActionError(t("content.health.gone", user.language))
    return exercise


def closest_sections(every: list[Section], old: exercise_store.ExerciseRef, limit: int = 3) -> list[Section]:
    """The document sections the exercise is about, closest first: those its question and options share
    most words with, among the sections of the passages it cites and any other of the course's."""
    words = [old.prompt] + [
        v if isinstance(v, str) else " ".join(map(str, v)) for v in old.content.values() if isinstance(v, (str, list))
    ]
    about = " ".join(words)
    cited = {str(c) for c in old.source_chunk_ids}
    scored = sorted(
        every, key=lambda s: (-overlap(about, f"{s.heading} {s.text}"), not cited & set(s.chunk_ids), s.position)
    )
    return [s for s in scored[:limit] if s.text.strip()]


def _reviewed(candidate: dict, sections: list[Section], language: str) -> list[str] | None:
    """The reviewer's minor findings in words, or None when it finds anything critical or major."""
    by_chunk = {c: f"{s.heading}\n{text}" for s in sections for c, text in zip(s.chunk_ids, s.texts)}
    cited = "\n\n".join(by_chunk.get(c, "") for c in candidate.get("source_chunk_ids") or [])
    source = "\n\n".join(f"{s.heading}\n{s.text}" for s in sections)
    findings = exercise_findings(candidate, cited, source)
    if any(severity in ("critical", "major") for severity, _, _ in findings):
        return None
    return [
        t(f"content.review.{code}", language, n=1, kind=candidate["type"], **values) for _, code, values in findings
    ]


def draft_replacement(deps: AppDeps, user: User, exercise_id, flag: str, reason: str) -> Replacement:
    """A reviewed replacement for a flagged exercise, for the admin to look at; nothing changes yet."""
    _admin(user)
    with deps.pool.connection() as conn:
        old = _live(conn, user, exercise_id)
        course = course_store.get_course(conn, user.org_id, old.course_id)
        if course is None:  # deleted since the exercise was read
            raise HealthActionError(t("content.health.gone", user.language))
        document_ids = course_document_ids(conn, user.org_id, old.course_id)
        taken = [(x.type, x.content) for x in exercise_store.course_exercises(conn, user.org_id, old.course_id)]
    every = load_sections(deps.pool, user.org_id, document_ids)
    candidates = []
    for rank, section in enumerate(closest_sections(every, old)):
        candidates += [
            (rank, c)
            for rotation in range(3)
            for c in build_exercises([section], [], course.language, [s.text for s in every], rotation)
        ]
    avoid_type = old.type if flag in GUESSABLE_FLAGS and old.type == "true_false" else None
    ranked = [
        c for _, c in sorted(candidates, key=lambda rc: (rc[1]["type"] == avoid_type, rc[0], rc[1]["type"] != old.type))
    ]
    for candidate in ranked:
        if (candidate["type"], candidate["content"]) in taken:
            continue
        findings = _reviewed(candidate, every, course.language)
        if findings is not None:
            return Replacement(old.id, old.course_id, flag, reason, candidate, findings)
    raise HealthActionError(t("content.health.no_replacement", user.language))


def apply_replacement(deps: AppDeps, user: User, draft: Replacement) -> UUID:
    """The admin confirmed: the draft replaces the live exercise (same place in the lesson); audited."""
    _admin(user)
    exercise = draft.exercise
    exercise_store.validate_exercise_content(exercise["type"], exercise["content"])
    with deps.pool.connection() as conn, conn.transaction():
        old = _live(conn, user, draft.exercise_id)
        new_id = item_stats.replace_exercise(
            conn,
            user.org_id,
            old.id,
            reason=f"{draft.flag}: {draft.note}",
            type=exercise["type"],
            prompt=exercise["prompt"],
            content=exercise["content"],
            bloom_level=exercise["bloom_level"],
            explanation=exercise.get("explanation", ""),
            source_chunk_ids=[UUID(str(c)) for c in exercise.get("source_chunk_ids") or []],
        )
        if new_id is None:
            raise HealthActionError(t("content.health.gone", user.language))
        audit.record(
            conn,
            user.org_id,
            actor_id=user.id,
            action="course_health.regenerate",
            entity_type="exercise",
            entity_id=old.id,
            before={"type": old.type, "prompt": old.prompt, "content": old.content},
            after={
                "exercise_id": str(new_id),
                "type": exercise["type"],
                "prompt": exercise["prompt"],
                "content": exercise["content"],
                "flag": draft.flag,
                "note": draft.note,
                "engine": draft.engine,
            },
        )
        defer_item_health(conn, user.org_id, old.course_id)
    return new_id


def retire(deps: AppDeps, user: User, exercise_id, flag: str, reason: str) -> None:
    """Hide the exercise from new attempts (its past attempts keep their scores); audited."""
    _admin(user)
    with deps.pool.connection() as conn, conn.transaction():
        old = _live(conn, user, exercise_id)
        if not item_stats.retire_exercise(conn, user.org_id, old.id, f"{flag}: {reason}"):
            raise HealthActionError(t("content.health.gone", user.language))
        audit.record(
            conn,
            user.org_id,
            actor_id=user.id,
            action="course_health.retire",
            entity_type="exercise",
            entity_id=old.id,
            before={"type": old.type, "prompt": old.prompt, "content": old.content},
            after={"retired": True, "flag": flag, "note": reason},
        )
        defer_item_health(conn, user.org_id, old.course_id)
