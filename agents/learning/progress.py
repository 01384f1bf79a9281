"""Enrollment progress, completion, course score and skill evidence (pure rules).

Progress: every lesson read (marked done with "Next") and every exercise answered right (at any try)
counts one step; progress = steps done / steps in the course, in [0, 1]. A wrong answer is no step: it
never raises progress. The enrollment is ``completed`` when
progress reaches 1, ``in_progress`` once anything is done, else ``assigned``.

Course score: the mean of each answered exercise's FIRST submitted score. The first try measures
what the learner knew; retries after seeing the explanation (and review sessions) don't inflate it.

Skill evidence rule (checkpoint levels):
- A module is assessed once every one of its exercises has been answered; its score is the mean of
  their first scores. The level it evidences for the module's skill (modules.skill_id):
      score >= 0.9 and at least one exercise at Bloom "apply" or above  -> high
      score >= PASS_MARK (0.7)                                         -> medium
      score >= 0.4                                                     -> low
      below                                                            -> no evidence
- The skills a course is linked to (course_skills) are assessed the same way over all the course's
  exercises once all are answered.
- Evidence is capped at the course's target level for that skill (a beginner course can't certify
  "high"), and it only ever raises a level: a lower result never downgrades what was shown before.
- An admin's verification wins: a level whose source is "admin" is never changed by evidence
  (storage also refuses to overwrite it).
"""

from __future__ import annotations

from dataclasses import dataclass
from uuid import UUID

LEVELS = ("low", "medium", "high")
PASS_MARK = 0.7
HIGH_MARK = 0.9
LOW_MARK = 0.4
HIGHER_ORDER_BLOOM = {"apply", "analyze", "evaluate", "create"}


def progress(lessons_total: int, lessons_done: int, exercises_total: int, exercises_done: int) -> float:
    total = lessons_total + exercises_total
    if total <= 0:
        return 0.0
    done = min(max(lessons_done, 0), lessons_total) + min(max(exercises_done, 0), exercises_total)
    return done / total


def status_for(progress_value: float, anything_done: bool) -> str:
    if progress_value >= 1.0:
        return "completed"
    return "in_progress" if anything_done else "assigned"


def course_score(first_scores: list[float]) -> float | None:
    return sum(first_scores) / len(first_scores) if first_scores else None


@dataclass(frozen=True)
class ScoredExercise:
    first_score: float
    bloom_level: str


def evidenced_level(
    exercises_total: int, answered: list[ScoredExercise], target_level: str | None = None
) -> str | None:
    """The level a fully answered module (or course) evidences, capped at ``target_level``; None if
    nothing is evidenced yet."""
    if exercises_total == 0 or len(answered) < exercises_total:
        return None
    score = sum(e.first_score for e in answered) / len(answered)
    if score >= HIGH_MARK and any(e.bloom_level in HIGHER_ORDER_BLOOM for e in answered):
        level = "high"
    elif score >= PASS_MARK:
        level = "medium"
    elif score >= LOW_MARK:
        level = "low"
    else:
        return None
    if target_level in LEVELS and LEVELS.index(level) > LEVELS.index(target_level):
        level = target_level
    return level


def raised_level(current_level: str | None, current_source: str | None, evidenced: str | None) -> str | None:
    """The level to record, or None to leave the skill alone (no evidence, admin-verified, not higher)."""
    if evidenced is None or current_source == "admin":
        return None
    if current_level is not None and LEVELS.index(evidenced) <= LEVELS.index(current_level):
        return None
    return evidenced


def skill_evidence(
    module_skills: dict[UUID, UUID | None],
    module_totals: dict[UUID, int],
    course_skill_targets: dict[UUID, str],
    answered: dict[UUID, list[ScoredExercise]],
) -> dict[UUID, str]:
    """skill_id -> the best level the course's modules and the course as a whole evidence.

    ``module_skills``: module -> its skill (or None); ``module_totals``: module -> exercise count;
    ``answered``: module -> the answered exercises' first scores.
    """
    best: dict[UUID, str] = {}

    def offer(skill_id: UUID, level: str | None) -> None:
        if level and (skill_id not in best or LEVELS.index(level) > LEVELS.index(best[skill_id])):
            best[skill_id] = level

    for module_id, skill_id in module_skills.items():
        if skill_id is not None:
            offer(
                skill_id,
                evidenced_level(
                    module_totals.get(module_id, 0), answered.get(module_id, []), course_skill_targets.get(skill_id)
                ),
            )
    everything = [e for items in answered.values() for e in items]
    for skill_id, target in course_skill_targets.items():
        offer(skill_id, evidenced_level(sum(module_totals.values()), everything, target))
    return best
