"""The tutor's own suggestion chips, when a learner clicks one (issue 29): "What else does “3.2 Approval limits”
say?" names a section, "Explain the key points of “Returns and Refunds Policy”" a document or a course. Such a
message is answered from the material it names, not searched for: the search judged "practical", "example" and
"else" as terms the section had to cover and answered "I found nothing about this".

The chips are recognised by the catalogue's own templates (agents/i18n, ``tutor.suggest.*``), in any language,
and a chip is only offered when the material it names exists in the learner's organisation.
"""

from __future__ import annotations

import functools
import re
import time
from dataclasses import dataclass
from uuid import UUID

from langgraph.runtime import Runtime

from agents.i18n import LANGUAGES, t
from agents.offline import answer_candidates
from agents.retrieval.passages import CITATION_MARKER, Passage, trim_passages
from agents.retrieval.per_corpus import PerCorpus
from agents.tutor import retrieve
from agents.tutor.citations import section_path
from agents.tutor.due_today import asks_due_today
from agents.tutor.guardrails import normalize
from agents.tutor.next_step import asks_next_step
from agents.tutor.state import TutorContext, TutorState
from storage import named_material

# what each chip asks, by its catalogue key
CHIP_KEYS = {
    "example": "tutor.suggest.example",
    "more": "tutor.suggest.more",
    "explain": "tutor.suggest.explain_course",
}
_QUOTES = "“”«»\"'‘’„"
_CLOSING = "?¿!¡."
OPENING_CHARS = 250  # of each section, when a whole document or course is named
_NUMBERED = re.compile(r"^(\d+(?:\.\d+)*)\.?\s")  # "3.2 Handling rules" is part of "3. Information classification"
MIN_PARTS = 4  # a document whose top headings are fewer is overviewed a level deeper
NAMED = "named"  # the retrieval source of a turn answered from the material its chip names


@dataclass(frozen=True)
class ChipQuestion:
    kind: str  # "example" | "more" | "explain"
    topic: str  # the quoted title: a section heading, a document's, a course's or a lesson's


def _loose(template_part: str) -> str:
    """A regular expression for part of a template: any quotation mark for one, any spacing, the closing
    punctuation optional (a learner may type the chip's words)."""
    out = []
    for char in template_part:
        if char in _QUOTES:
            out.append(f"[{re.escape(_QUOTES)}]")
        elif char.isspace():
            out.append(r"\s+")
        elif char in _CLOSING:
            out.append(re.escape(char) + "?")
        else:
            out.append(re.escape(char))
    return "".join(out)


@functools.cache
def _patterns() -> tuple[tuple[str, re.Pattern], ...]:
    marker = "\x00"
    found: dict[str, str] = {}
    for kind, key in CHIP_KEYS.items():
        for language in LANGUAGES:
            before, after = t(key, language, topic=marker).split(marker)
            found.setdefault(rf"^\s*{_loose(before)}\s*(?P<topic>.+?)\s*{_loose(after)}\s*$", kind)
    return tuple((kind, re.compile(pattern, re.IGNORECASE)) for pattern, kind in found.items())


@functools.lru_cache(maxsize=1024)
def recognise(message: str) -> ChipQuestion | None:
    """The chip this message is (its kind and quoted topic), or None."""
    for kind, pattern in _patterns():
        match = pattern.match(message or "")
        if match and match.group("topic").strip(_QUOTES + " "):
            return ChipQuestion(kind, match.group("topic").strip(_QUOTES + " "))
    return None


# the organisation's section headings (named_material.section_names), read again only when its documents change:
# reading every chunk's section paths per turn grew with the corpus (240 ms of PostgreSQL CPU a turn at 50,000 chunks)
_section_names: PerCorpus[frozenset[str]] = PerCorpus()


def known_names(conn, org_id: UUID, names: list[str]) -> set[str]:
    """Which of ``names`` name a section, a document, a published course or a lesson of the organisation."""
    if not names:
        return set()
    signature, titled = named_material.titled_names(conn, org_id, names)
    if signature is None:
        return set()
    sections = _section_names.get(org_id, signature, lambda: named_material.section_names(conn, org_id))
    return {name for name, lowered, has_title in titled if has_title or lowered in sections}


def _asks_again(chip: str, message: str) -> bool:
    """The chip asks what the message asked, in its words or others ("¿Qué me toca repasar hoy?" answered, "¿Qué
    debería repasar hoy?" offered)."""
    same_progress_question = any(asks(chip) and asks(message) for asks in (asks_next_step, asks_due_today))
    return same_progress_question or normalize(chip) == normalize(message)


def offerable(conn, org_id: UUID, message: str, chips: list[str]) -> list[str]:
    """The chips worth offering: those naming material the organisation has, none on the material the message
    (a chip itself) was about, and none that asks the message again ("What should I review today?" answered)."""
    named = {chip: recognise(chip) for chip in chips if not _asks_again(chip, message)}
    asked = recognise(message)
    known = known_names(conn, org_id, list(dict.fromkeys(c.topic for c in named.values() if c is not None)))
    return [
        chip
        for chip, question in named.items()
        if question is None or (question.topic in known and (asked is None or question.topic != asked.topic))
    ]


def _states(passage: Passage) -> bool:
    return bool(answer_candidates([(passage.index, passage.text)]))


def document_part(passage: Passage, depth: int) -> str:
    """The part of its document a passage belongs to: its path's first ``depth`` headings, a numbered heading's
    number as deep ("3.2 …" → "3" at depth 1)."""
    parts = passage.section.split(" > ")
    number = _NUMBERED.match(parts[0])
    if number and len(parts) == 1:
        return f"{passage.document}\x00" + ".".join(number.group(1).split(".")[:depth])
    return f"{passage.document}\x00" + " > ".join(parts[:depth])


def _opening(text: str) -> str:
    """A section's first lines, up to OPENING_CHARS: what a whole document's overview needs of it (every section
    fits the context budget, where whole sections cut a long document short)."""
    kept: list[str] = []
    for line in text.splitlines():
        if sum(map(len, kept)) >= OPENING_CHARS:
            break
        kept.append(line)
    return "\n".join(kept).strip()


def _sections(found: named_material.NamedChunk, topic: str) -> list[Passage]:
    """A chunk's sections as passages: those headed ``topic`` (or under it) when a section was named, else every
    section's opening lines."""
    chunk = found.chunk
    spans = sorted(tuple(span) for span in chunk.heading_spans or ()) or [(0, chunk.heading, chunk.page_start)]
    passages = []
    for n, (start, heading, page) in enumerate(spans):
        end = spans[n + 1][0] if n + 1 < len(spans) else len(chunk.content)
        section = section_path(heading, chunk.document_title)
        named = topic.casefold() in (part.casefold() for part in section.split(" > "))
        text = chunk.content[start:end].strip()
        if found.named_as != "section":
            text = _opening(text)
        if text and (named if found.named_as == "section" else True):
            passages.append(
                Passage(
                    0, text, chunk.document_title, section, page or chunk.page_start, "document_chunk", str(chunk.id)
                )
            )
    return passages


def named_passages(pool, org_id: UUID, topic: str, course_id: str | None) -> list[Passage]:
    """The material ``topic`` names, in document order: a section's (or its subsections') text, a document's or a
    course's documents' sections, else a document kept whole or a lesson."""
    with pool.connection() as conn:
        chunks = named_material.named_chunks(conn, org_id, topic)
        if chunks:
            found = [p for chunk in chunks for p in _sections(chunk, topic)]
            if chunks[0].named_as == "section":
                return found
            found = [p for p in found if p.section] or found  # not the title block
            for depth in (1, 2, 3):  # a whole document: its parts, each opened by its first section
                parts: dict[str, Passage] = {}
                for passage in found:  # a part whose own text is a page footer is opened by its next section
                    part = document_part(passage, depth)
                    if part not in parts or (not _states(parts[part]) and _states(passage)):
                        parts[part] = passage
                if len(parts) >= MIN_PARTS:
                    break
            return list(parts.values())
        texts = named_material.named_texts(conn, org_id, topic, UUID(course_id) if course_id else None)
    if not texts:
        return []
    whole = texts[0]
    if whole.kind == "lesson":
        text = CITATION_MARKER.sub("", whole.text)  # a lesson's own citations: not this answer's
        return [Passage(0, text, whole.parent, whole.title, None, "lesson", str(whole.id))]
    return [Passage(0, whole.text, whole.title, "", None, "document", str(whole.id))]


def answers_a_chip(state: TutorState) -> bool:
    """A turn that names its material through one of our chips (while an exercise is open, hints only)."""
    return (
        state.get("intent") in ("in_course", "cross_course")
        and not state.get("attempt")
        and bool(recognise(state["message"]))
    )


def retrieve_named(state: TutorState, runtime: Runtime[TutorContext]) -> dict:
    """The material a chip names as the turn's passages; a name the organisation doesn't know is searched for."""
    ctx, started = runtime.context, time.perf_counter()
    chip = recognise(state["message"])
    found = named_passages(ctx.pool, ctx.org_id, chip.topic, state.get("course_id")) if chip else []
    if not found:
        if state.get("intent") == "in_course" and state.get("course_id"):
            return retrieve.retrieve_course_context(state, runtime)
        return retrieve.retrieve_semantic(state, runtime)
    passages = trim_passages([p.numbered(n) for n, p in enumerate(found, 1)], ctx.budgets["retrieved_context"])
    return {
        "rung": "chunks",
        "retrieval_source": NAMED,
        "passages": passages,
        "closest": [],
        "context": "\n\n---\n\n".join(retrieve.passage_label(p) + "\n" + p.text for p in passages),
        "retrieval_latency_ms": int((time.perf_counter() - started) * 1000),
    }
