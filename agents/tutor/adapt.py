"""A tutor that adapts to the learner (issue 29, spec 003).

What the product knows about the learner shapes the answer when the question is on a course they are
taking: in a guided course the tutor first asks a guiding question and waits for the learner's guess
(agents/tutor/guided.py); the support level (1 a question to think about · 2 a clue where to look · 3 step by
step) comes from their record in that course — first tries, FSRS review state, recent wrong answers — and the first
hint of an exercise from their answers to it; when they are weak there, the lesson or reviews that help are named.
The learner is told why. All of it is deterministic, with or without a model.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import TYPE_CHECKING, cast
from uuid import UUID

from fsrs import Card, Scheduler
from fsrs.card import CardDict

from agents.i18n import t
from agents.retrieval.chunk_sections import heading_at
from agents.retrieval.passages import Passage
from agents.tutor.answer_check import Ranked, answering
from agents.tutor.answers import passage_language
from agents.tutor.guardrails import normalize
from core.inputs import parse_uuid
from storage import mastery, sources
from storage.db import reading

if TYPE_CHECKING:
    from agents.runtime.deps import Embedder

HINT_LEVELS = 3
FADING_RECALL = 0.8  # FSRS retrievability under which a review card counts as fading (reviews aim at 0.9)
RELEARNING = 3  # fsrs.State.Relearning
_SCHEDULER = Scheduler(learning_steps=(), relearning_steps=(), enable_fuzzing=False)

# The kind of thing asked, on the folded question (accents off, lower case); the first match wins.
_KINDS = (
    ("why", re.compile(r"\b(por que|why|para que sirve|what is the point)\b")),
    (  # "how long must a password be" asks a length, not a time
        "when",
        re.compile(
            r"\b(cuando|plazo|fecha|when|deadline|cuanto tiempo|how soon|by when|"
            r"how long(?! (must|should|can|does|do|is|are) (\w+ ){1,4}be\b))\b"
        ),
    ),
    (
        "number",
        re.compile(r"\b(cuantos|cuantas|cuanto|how many|how much|how long|porcentaje|percentage|importe|amount)\b"),
    ),
    (
        "permission",
        re.compile(r"\b(puedo|se puede|podemos|esta permitido|can i|may i|can we|am i allowed|is it allowed)\b"),
    ),
    (
        "steps",
        re.compile(r"\b(como|que hago|que debo|pasos|how do|how should|how to|what do i do|what should|steps)\b"),
    ),
    ("define", re.compile(r"\b(que es|que son|que significa|what is|what are|what does .+ mean|meaning)\b")),
)


def question_kind(message: str) -> str:
    plain = normalize(message)
    return next((kind for kind, pattern in _KINDS if pattern.search(plain)), "recall")


def _recall(card: dict, now: datetime) -> float:
    return float(_SCHEDULER.get_card_retrievability(Card.from_dict(cast(CardDict, card)), now))


def support_level(record: mastery.CourseMastery, now: datetime) -> tuple[int, list[tuple[str, dict]]]:
    """(1-3, the signals that raised it): each weak signal adds one — two or more recent wrong answers,
    under half right at the first try, half or more of the review cards fading (or relearning). A strong
    record (most first tries right, nothing wrong lately) is named as the reason for level 1."""
    signals: list[tuple[str, dict]] = []
    if record.recent_wrong >= 2:
        signals.append(("recent_wrong", {"n": record.recent_wrong, "of": record.recent}))
    if record.first_tried >= 2 and record.first_correct / record.first_tried < 0.5:
        signals.append(("first_tries", {"right": record.first_correct, "of": record.first_tried}))
    fading = sum(card.get("state") == RELEARNING or _recall(card, now) < FADING_RECALL for card in record.cards)
    if record.cards and fading * 2 >= len(record.cards):
        signals.append(("fading", {"n": fading, "of": len(record.cards)}))
    if signals:
        return min(HINT_LEVELS, 1 + len(signals)), signals
    if record.first_tried >= 2 and record.first_correct / record.first_tried >= 0.8:
        return 1, [("first_tries", {"right": record.first_correct, "of": record.first_tried})]
    return 1, []


def _due(cards: list, now: datetime) -> int:
    return sum(datetime.fromisoformat(card["due"]) <= now for card in cards if card.get("due"))


def learner_view(
    pool,
    org_id: UUID,
    user_id: UUID,
    language: str,
    course_id: str | None,
    passages: list[Passage],
    now: datetime,
    sentence: str | None = None,
) -> dict | None:
    """How to adapt this answer, or None when the question is not on a course the learner is taking:
    {course_id, course, mode, topic, level, signals, lesson_id, lesson, reviews_due, weak_skills} (``topic``:
    the section of ``sentence``, the one that answers, when given); the lesson of
    recent wrong answers and the skills below target only where the question touches them, the reviews due
    only when the record calls for support."""
    with reading(pool) as conn:
        course = mastery.taking_course(
            conn, org_id, user_id, [p.source_id for p in passages], UUID(course_id) if course_id else None, language
        )
        if course is None:
            return None
        record = mastery.course_mastery(conn, org_id, user_id, course.id, language)
        topic, topic_language = _topic(conn, org_id, course.source_id, passages, sentence)
    level, signals = support_level(record, now)
    # what the question touches: the weak modules whose lessons or source chunks the passages come from
    asked = {p.source_id for p in passages}
    touched = [spot for spot in record.weak_spots if asked & set(spot.sources)]
    # the lesson of their wrong answers when the record calls for support (one slip of a strong learner doesn't)
    lesson = next((spot for spot in touched if spot.lesson_id), None) if level >= 2 else None
    return {
        "course_id": str(course.id),
        "course": course.title,
        "mode": course.tutor_mode,
        "source_id": course.source_id,
        "topic": topic,
        "topic_language": topic_language,
        "level": level,
        "signals": signals,
        "lesson_id": str(lesson.lesson_id) if lesson else None,
        "lesson": lesson.lesson if lesson else None,
        "reviews_due": _due(record.cards, now) if level >= 2 else 0,
        "weak_skills": [spot.skill for spot in touched if spot.skill],
    }


def exercise_level(pool, org_id: UUID, user_id: UUID, exercise_id: UUID, hints_given: int) -> int:
    """The level of the next hint for an open exercise: a first try, or a review of something they know, starts
    at the lightest hint (a review exists to test memory); a learner who got this exercise wrong since they last
    got it right (or whose review card of it lapsed: FSRS relearning) starts higher. Each hint given moves one
    level on from the start (a learner who started on the second got it again when asking for another)."""
    with pool.connection() as conn:
        wrong, state = mastery.exercise_record(conn, org_id, user_id, exercise_id)
    start = 1 + min(2, wrong)
    if state == RELEARNING:
        start = max(start, 2)
    return min(HINT_LEVELS, start + hints_given)


def _why(view: dict, language: str) -> str:
    """Why the answer is shaped so: the course they are taking, and the first signal of their record (in a
    direct course only a weak one: the answer suggests what helps, it asked nothing)."""
    signals = view["signals"][:1] if view["mode"] == "guided" or view["level"] >= 2 else []
    signal = "".join(t(f"tutor.adapt.signal.{code}", language, **values) for code, values in signals)
    key = "tutor.adapt.why.guided" if view["mode"] == "guided" else "tutor.adapt.why.direct"
    return t(key, language, course=view["course"], signal=signal)


def _topic(conn, org_id: UUID, source_id: str | None, passages: list[Passage], sentence: str | None) -> tuple[str, str]:
    """What the guiding question names, and the language it is written in: the section of the best passage
    from the course (the passage the course was recognised by), else the best passage's — and in a chunk that
    packs several small sections, the one the answering sentence sits under (3.3 Exchanges, not the 3.2 the
    chunk starts with)."""
    top = next((p for p in passages if p.source_id == source_id), passages[0])
    section = top.section or top.document
    chunk_id = parse_uuid(top.source_id) if sentence and top.source_type == "document_chunk" else None
    chunk = next(iter(sources.chunks_by_id(conn, org_id, [chunk_id])), None) if chunk_id else None
    if chunk is not None:
        section = heading_at(chunk, sentence or "")[0] or section
    # a section is named by its own heading, not the path to it ("4. … > 4.4 …")
    return section.split(" > ")[-1].strip().rstrip(".:") or top.document, passage_language(top)


def answering_in(
    language: str,
    message: str,
    ranked: tuple[Ranked, ...],
    passages: list[Passage],
    embedder: Embedder,
    organisation: str = "",
) -> tuple[Passage, str] | None:
    """The passage in ``language`` whose sentence answers ``message`` (answer_check.answering over that language's
    ranked sentences), and that sentence; None when none does."""
    by_index = {p.index: p for p in passages}
    own = tuple(r for r in ranked if r.number in by_index and passage_language(by_index[r.number]) == language)
    lead = answering(message, own, embedder, organisation) if own else None
    return (by_index[lead.number], lead.sentence) if lead else None


def named_by(pool, org_id: UUID, view: dict, passage: Passage, sentence: str) -> dict:
    """``view`` with its topic the section of ``passage`` that ``sentence`` sits under (a passage in the learner's
    language that answers too: its heading is the one they can read)."""
    with reading(pool) as conn:
        topic, topic_language = _topic(conn, org_id, None, [passage], sentence)
    return {**view, "topic": topic, "topic_language": topic_language}


def _named_topic(view: dict, language: str) -> str:
    """The topic quoted, and said to be in the other language when it is (Lucía read "«4.1 Password standard
    (POL-SEC-004)»" in a Spanish question with no warning)."""
    other = view.get("topic_language")
    if other in ("es", "en") and other != language:
        name = t(f"tutor.language.{other}", language)
        return t("tutor.guide.heading_other_language", language, heading=view["topic"], language=name)
    return t("tutor.guide.heading", language, heading=view["topic"])


def guiding_question(view: dict, message: str, language: str) -> str:
    """A guided course's turn before the answer: the guiding question, why the learner gets one, and how to
    answer it or get the answer straight away (the answer waits for their reply: agents/tutor/guided.py)."""
    topic = _named_topic(view, language)
    question = t(f"tutor.guide.ask.{question_kind(message)}", language, topic=topic)
    reply = t(f"tutor.guide.reply.{view['level']}", language, topic=topic, reveal=t("tutor.guide.reveal", language))
    return f"🤔 **{question}**\n\n_{_why(view, language)}_\n\n{reply}"


def coda(view: dict | None, language: str) -> str:
    """What helps a learner weak in the course: the lesson of their recent wrong answers, the reviews due,
    the skills under the course's target (and, in a direct course, why this is suggested)."""
    if not view or not (view["lesson"] or view["reviews_due"] or view["weak_skills"]):
        return ""
    lines = []
    if view["mode"] == "direct":
        lines.append(f"_{_why(view, language)}_")
    if view["lesson"]:
        lines.append(t("tutor.adapt.help.lesson", language, lesson=view["lesson"]))
    if view["reviews_due"]:
        lines.append(t("tutor.adapt.help.reviews", language, n=view["reviews_due"]))
    if view["weak_skills"]:
        skills = ", ".join(t("tutor.adapt.quoted", language, name=s) for s in view["weak_skills"][:3])
        lines.append(t("tutor.adapt.help.skills", language, skills=skills))
    return "\n\n" + "\n\n".join(lines)


def lesson_action(view: dict | None, language: str) -> list[dict]:
    """A link to the course, named by the lesson that helps (beside the answer's other next steps)."""
    if not view or not view["lesson"]:
        return []
    return [
        {
            "kind": "course",
            "id": view["course_id"],
            "lesson": view["lesson_id"],
            "label": t("tutor.adapt.action.lesson", language, title=view["lesson"]),
        }
    ]
