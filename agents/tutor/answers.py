"""The tutor's deterministic side: offline answers (the generator's twin), follow-up suggestions and
the next steps offered beside an answer.

Everything here is built from the turn's real inputs (retrieved passages, the learner's data from the
database, the course in view, the exercise in progress) in the learner's language (es/en). Passages in
another language are quoted as they are, with a one-line note in the learner's language.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from agents.i18n import code_label, format_date, format_percent, t
from agents.offline import detect_language
from agents.retrieval.passages import Passage
from agents.tutor.answer_check import Ranked, adds_to_answer, answering, ranked_sentences
from agents.tutor.guardrails import normalize, socratic_hint
from agents.tutor.read_whole import named_list, quotes_a_list, read_whole

if TYPE_CHECKING:
    from agents.runtime.deps import Embedder

_GREETING_WORDS = {
    "thanks": {"gracias", "thanks", "thank", "thx", "merci"},
    "bye": {"adios", "bye", "chao", "goodbye", "hasta"},
}
# Offline answer (tuned on the train split of seeds/eval/answers): the retrieved passages' sentences,
# whatever their passage or language, ranked by answer_check.ranked_sentences (similarity, the kind of
# fact asked, the passage's retrieval score: train facts 0.686 at retrieval weight 0 -> 0.757 at 2;
# sharing stems with the question favours the question's own language, 0.714 -> 0.629 at 0.1). The
# sentence the answer check accepts leads; at most MAX_SENTENCES, within SELECTION_MARGIN of the best
# (two sentences: facts 0.757 -> 0.70).
SELECTION_MARGIN = 0.04
MAX_SENTENCES = 3
MAX_ANSWER_CHARS = 700
_MARKER = re.compile(r"\[(\d+)\]")


def _quote(text: str, language: str) -> str:
    return t("tutor.quote", language, text=text)


def _course_list(progress: dict | None, language: str) -> str:
    titles = [
        _quote(e["course"], language) for e in (progress or {}).get("enrollments", []) if e.get("status") != "completed"
    ][:2]
    return t("tutor.list_or", language).join(titles)


def chitchat(message: str, name: str, org: str, course: str | None, language: str) -> str:
    said = set(normalize(message).split())
    kind = next((k for k, vocab in _GREETING_WORDS.items() if said & vocab), "hello")
    lines = [t(f"tutor.{kind}", language, name=name, org=org)]
    if course and kind == "hello":
        lines.append(t("tutor.course_now", language, course=course))
    return " ".join(lines)


def off_topic(org: str, progress: dict | None, language: str) -> str:
    courses = _course_list(progress, language)
    return " ".join(
        [t("tutor.off_topic", language, org=org)]
        + ([t("tutor.off_topic_courses", language, courses=courses)] if courses else [])
    )


def progress_text(progress: dict | None, name: str, language: str) -> str:
    progress = progress or {}
    enrollments = progress.get("enrollments") or []
    if not enrollments:
        lines = [t("tutor.progress_none", language)]
    else:
        lines = [t("tutor.progress_head", language, name=name)]
        for e in enrollments:
            lines.append(
                "- "
                + t(
                    "tutor.progress_course",
                    language,
                    course=e["course"],
                    status=code_label("status", e["status"], language),
                    progress=""  # a finished course is "completed", not also "100 % done"
                    if e["status"] == "completed"
                    else t("tutor.progress_done", language, progress=format_percent(e.get("progress") or 0, language)),
                    deadline=t("tutor.deadline", language, date=format_date(e["deadline"], language))
                    if e.get("deadline")
                    else "",
                    score=t("tutor.score", language, score=format_percent(e["score"], language))
                    if e.get("score") is not None
                    else "",
                )
            )
        lines.append("")  # the list ends here: the lines below are not part of its last course
    due = progress.get("reviews_due") or 0
    lines.append(t("tutor.reviews", language, n=due) if due else t("tutor.no_reviews", language))
    if progress.get("skills"):
        lines.append(
            t(
                "tutor.skills",
                language,
                skills=", ".join(
                    f"{s['skill']} ({code_label('level', s['level'], language)})" for s in progress["skills"][:8]
                ),
            )
        )
    failed = list(dict.fromkeys(f["exercise"][:80].rstrip(". ") for f in progress.get("recent_failures") or []))[:3]
    if failed:
        items = ", ".join(t("tutor.failed_exercise", language, exercise=exercise) for exercise in failed)
        lines.append(t("tutor.failures", language, items=items))
    return "\n".join(lines)


def passage_language(passage: Passage) -> str:
    return _text_language(passage.text[:1500])


@functools.lru_cache(maxsize=2048)
def _text_language(text: str) -> str:
    """The language a passage is written in (the same chunks come back turn after turn: guessed once)."""
    return detect_language(text, default="")


def with_language_notes(body: str, passages: list[Passage], language: str) -> str:
    """After the first [n] of each passage written in another language, one note in the learner's."""
    by_index = {p.index: p for p in passages}
    noted: set[int] = set()

    def note(match: re.Match) -> str:
        n = int(match.group(1))
        passage = by_index.get(n)
        if passage is None or n in noted:
            return match.group(0)
        noted.add(n)
        other = passage_language(passage)
        if other in ("es", "en") and other != language:
            name = t(f"tutor.language.{other}", language)
            return f"{match.group(0)} {t('tutor.quoted_from', language, language=name, document=passage.document)}"
        return match.group(0)

    return _MARKER.sub(note, body)


def select_sentences(
    message: str, passages: list[Passage], language: str, embedder: Embedder, organisation: str = ""
) -> str:
    """The sentences that answer ``message`` (up to MAX_SENTENCES, within SELECTION_MARGIN of the best),
    whatever passage or language they come from, followed by their [n]: the best one's passage first,
    each passage's sentences in the document's order."""
    ranked = ranked_sentences(message, tuple(passages), embedder)
    if not ranked:
        return ""
    lead = answering(message, ranked, embedder, organisation) or ranked[0]
    if named := named_list(message, lead, passages, ranked, embedder, MAX_ANSWER_CHARS):
        return read_whole(named, ranked, passages, MAX_ANSWER_CHARS)
    chosen: list[Ranked] = [lead]
    used = len(lead.sentence) + 5
    for r in ranked:
        if len(chosen) >= MAX_SENTENCES or r.score < ranked[0].score - SELECTION_MARGIN:
            break
        if quotes_a_list(chosen, passages, MAX_ANSWER_CHARS):  # a list quoted whole is the answer: nothing pads it
            break
        if r is lead or used + len(r.sentence) + 5 > MAX_ANSWER_CHARS:
            continue
        if not adds_to_answer(message, r, chosen, embedder):
            continue
        chosen.append(r)
        used += len(r.sentence) + 5
    chosen.sort(key=lambda r: (r.number != lead.number, r.position))
    return read_whole(chosen, ranked, passages, MAX_ANSWER_CHARS)


def grounded(
    message: str,
    passages: list[Passage],
    rung: str,
    org: str,
    language: str,
    closest: list[dict] | None = None,
    *,
    embedder: Embedder,
) -> str:
    body = select_sentences(message, passages, language, embedder, org) if passages else ""
    if not body.strip():
        return " ".join([t("tutor.nothing_found", language, org=org), *ways_on(closest or [], language)])
    intro = t("tutor.document" if rung == "document" else "tutor.grounded", language)
    return f"{intro}\n\n{with_language_notes(body, passages, language)}"


def ways_on(closest: list[dict], language: str) -> list[str]:
    """Where to read on: the closest course and document, the document's section to read first (said to be in
    the other language when it is), and the ways forward."""
    named = dict.fromkeys(item["title"] for item in closest)  # a course and its document share a title
    titles = t("tutor.list_or", language).join(_quote(title, language) for title in named)
    if not titles:
        return [t("tutor.ways_forward", language)]
    document = next((item for item in closest if item.get("section")), None)
    if document is None:
        return [t("tutor.closest", language, titles=titles), t("tutor.ways_forward", language)]
    other = document["section_language"]
    where = (
        t(
            "tutor.guide.heading_other_language",
            language,
            heading=document["section"],
            language=t(f"tutor.language.{other}", language),
        )
        if other in ("es", "en") and other != language
        else t("tutor.guide.heading", language, heading=document["section"])
    )
    return [t("tutor.closest_in", language, titles=titles, section=where), t("tutor.ways_forward", language)]


def offline_answer(state: Mapping[str, Any], name: str, org: str, embedder: Embedder) -> str:
    """The generator's twin: what the tutor says when no model answers."""
    language, intent = state.get("language", "es"), state.get("intent")
    if intent == "chitchat":
        return chitchat(state["message"], name, org, state.get("course_title"), language)
    if intent == "off_topic":
        return off_topic(org, state.get("progress"), language)
    if intent == "progress":
        return progress_text(state.get("progress"), name, language)
    if state.get("attempt"):
        return socratic_hint(state["attempt"], state.get("passages") or [], language, state.get("hint_level") or 1)
    return grounded(
        state["message"],
        state.get("passages") or [],
        state.get("rung", "general"),
        org,
        language,
        state.get("closest"),
        embedder=embedder,
    )


def not_grounded(state: Mapping[str, Any]) -> bool:
    return (
        state.get("rung") == "general"
        and state.get("intent") in ("in_course", "cross_course")
        and not state.get("attempt")
    )


def general_rung_frame(state: Mapping[str, Any], org: str) -> tuple[str, str]:
    """What frames a model's own words on a document question no document answers: the tutor says first that
    the documents don't hold it (the rung is the system's to say, not a sentence the model was asked to write:
    spec 000) and closes with the offline refusal's ways on (issue 29, item 1)."""
    if not not_grounded(state):
        return "", ""
    language = state.get("language", "es")
    ways = " ".join(ways_on(state.get("closest") or [], language))
    return f"{t('tutor.general.opening', language, org=org)}\n\n", f"\n\n{ways}"


def suggestions(state: Mapping[str, Any], citations: list[Passage]) -> list[str]:
    """Up to three follow-ups in the learner's language, from what this turn was about."""
    language = state.get("language", "es")
    intent, course = state.get("intent"), state.get("course_title")
    if state.get("attempt") and intent in ("in_course", "cross_course"):
        return [
            t("tutor.suggest.hint", language),
            t("tutor.suggest.concept", language),
            t("tutor.suggest.progress", language),
        ]
    if intent == "progress":
        return [t("tutor.suggest.review", language), t("tutor.suggest.next", language)] + (
            [t("tutor.suggest.explain_course", language, topic=course)] if course else []
        )
    if intent in ("chitchat", "off_topic"):
        enrolled = [
            e["course"] for e in (state.get("progress") or {}).get("enrollments", []) if e.get("status") != "completed"
        ]
        topic = course or (enrolled[0] if enrolled else None)
        return ([t("tutor.suggest.explain_course", language, topic=topic)] if topic else []) + [
            t("tutor.suggest.progress", language),
            t("tutor.suggest.learn", language),
        ]
    if not_grounded(state):  # ways on from the nearest material and the learner's courses, never the question's words
        enrolled = [
            e["course"] for e in (state.get("progress") or {}).get("enrollments", []) if e.get("status") != "completed"
        ]
        closest = state.get("closest") or []
        # the closest document by its title (its course is titled in the learner's language, which a chip's
        # answer doesn't look up by: chip_questions.offerable dropped it); no "is there a course on this?" when
        # the answer names one
        titles = (
            [item["section"] for item in closest if item.get("section")]  # the section named: answered from it
            + [item["title"] for item in closest if item["kind"] == "document"]
            + ([course] if course else enrolled[:1])
        )
        out = [t("tutor.suggest.explain_course", language, topic=title) for title in dict.fromkeys(titles)]
        named_course = any(item["kind"] == "course" for item in closest)
        out += [] if named_course else [t("tutor.suggest.course", language)]
        return (out + [t("tutor.suggest.learn", language)])[:3]
    sources = citations or state.get("passages") or []
    sections = list(
        dict.fromkeys((c.section or c.document).split(" > ")[-1] for c in sources)
    )  # the heading, not its path
    # the twin writes no example (agents/tutor/chip_answers.py): offline, the rest of the section is offered
    first = "tutor.suggest.example" if state.get("engine") != "offline" else "tutor.suggest.more"
    out = [t(first, language, topic=sections[0])] if sections else []
    if len(sections) > 1:
        out.append(t("tutor.suggest.more", language, topic=sections[1]))
    out.append(t("tutor.suggest.course", language) if not course else t("tutor.suggest.review", language))
    return out[:3]


def next_steps(state: Mapping[str, Any]) -> list[dict]:
    """Actions beside the answer: the closest material when nothing was grounded, and always a way
    to the helpdesk with the question (hint answers excepted: the exercise is the learner's to solve)."""
    language = state.get("language", "es")
    if state.get("attempt") or state.get("intent") not in ("in_course", "cross_course"):
        return []
    actions = [
        {
            "kind": item["kind"],
            "id": item["id"],
            "label": t(f"tutor.action.{item['kind']}", language, title=item["title"]),
        }
        for item in (state.get("closest") or [])
    ]
    actions.append(
        {
            "kind": "helpdesk",
            "question": state.get("message", ""),
            "label": t("tutor.action.helpdesk" if not_grounded(state) else "tutor.action.didnt_help", language),
        }
    )
    return actions
