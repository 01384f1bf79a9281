"""The twin's answer to one of our chips (agents/tutor/chip_questions.py), from the material it names, in the
document's order, every sentence cited:

- "What else does “X” say?": the section's statements, those the previous answer quoted left out;
- "Explain the key points of “X”": a section's statements, or for a document or course the leading statement of
  each of its sections;
- "Give me a practical example of “X”": the twin writes no example; it says so and gives the section's concrete
  statements (figures first) to build one on. The chip itself is only offered when a model answers.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from agents.i18n import t
from agents.offline import answer_candidates, cite_chosen, split_sentences
from agents.retrieval.passages import Passage
from agents.tutor.answer_check import front_matter
from agents.tutor.answers import passage_language
from agents.tutor.chip_questions import ChipQuestion, recognise

SECTION_CHARS = 900  # a section's statements quoted at most
KEY_POINTS = 10  # a document's sections led by one statement each, at most
_FIGURE = re.compile(r"\d")
_STOPS = (".", "!", "?", ";", ":", "…", '"', "»", "”", ")")
_BULLET = re.compile(r"\s+•\s+")


def _sentences(passage: Passage) -> list[str]:
    """A passage's statements and list lead-ins; the items of a list a PDF ran into one line ("… are mandatory:
    • Safety shoes … • A vest …") apart."""
    text = _BULLET.sub("\n- ", passage.text)
    statements = {sentence for _, sentence in answer_candidates([(passage.index, text)])}
    return [s for s in split_sentences(text) if s in statements or s.rstrip().endswith(":")]


def _statements(passage: Passage) -> list[str]:
    return [sentence for sentence in _sentences(passage) if not front_matter(sentence, passage.section)]


def _quotable(sentence: str, section: str) -> bool:
    """A statement, or a list's lead-in (it says what its items are)."""
    return sentence.rstrip().endswith(":") or not front_matter(sentence, section)


def _lead(passage: Passage) -> str:
    """A section's leading statement; a list's lead-in ("…cannot be returned unless they are faulty:") with its
    first item."""
    sentences = _sentences(passage)
    for n, sentence in enumerate(sentences):
        if sentence.rstrip().endswith(":") and n + 1 < len(sentences) and not front_matter(sentence[:-1]):
            return f"{sentence} {sentences[n + 1]}"
        if not front_matter(sentence, passage.section):
            return sentence
    return ""


def _shown_before(history: list[dict]) -> str:
    said = [turn.get("content") or "" for turn in history if turn.get("role") == "assistant"]
    return " ".join(said[-1].split()) if said else ""


def _said_already(passages: list[Passage], history: list[dict]) -> bool:
    """Every statement of the passages is in the previous answer."""
    shown = _shown_before(history)
    return bool(shown) and all(" ".join(s.split()) in shown for p in passages for s in _statements(p))


def _quoted(passages: list[Passage], history: list[dict], pick_figures: bool) -> str:
    """The passages' statements in order (figures first when ``pick_figures``), within SECTION_CHARS; those the
    previous answer quoted are left out unless nothing else is left."""
    candidates = [(p.index, s) for p in passages for s in _sentences(p) if _quotable(s, p.section)]
    shown = _shown_before(history)
    fresh = [c for c in candidates if " ".join(c[1].split()) not in shown] or candidates
    if pick_figures:
        fresh = [c for c in fresh if _FIGURE.search(c[1])] or fresh
    chosen: list[tuple[int, str]] = []
    used = 0
    for number, sentence in fresh:
        if chosen and used + len(sentence) > SECTION_CHARS:
            break
        chosen.append((number, sentence))
        used += len(sentence) + 5
    return _written(chosen)


def _written(chosen: list[tuple[int, str]]) -> str:
    """Statements as prose, each run of one passage's followed by its [n]; a list's lead-in on a line of its own
    and its items (no closing stop: "Respeto a diferentes opiniones") one a line, each cited."""
    lines: list[str] = []
    run: list[str] = []
    run_number = 0

    def flush() -> None:
        if run:
            lines.append(f"{' '.join(run)} [{run_number}]")
            run.clear()

    for number, sentence in chosen:
        if lines and lines[-1].endswith(":") and not run and sentence.rstrip().endswith(_STOPS):
            lines.pop()  # a lead-in none of whose items are statements
        if sentence.rstrip().endswith(":"):
            flush()
            lines.append(sentence)
        elif not sentence.rstrip().endswith(_STOPS):
            flush()
            lines.append(f"- {sentence} [{number}]")
        else:
            if number != run_number or (lines and lines[-1].startswith("- ") and not run):
                flush()
            run.append(sentence)
            run_number = number
    flush()
    while lines and lines[-1].endswith(":"):  # a lead-in whose items didn't fit
        lines.pop()
    return "\n".join(lines)


def _key_points(passages: list[Passage]) -> tuple[list[str], int]:
    """One line per part of the document(s) (chip_questions.named_passages gives one passage each), its leading
    statement cited; and how many parts were left out."""
    lines = [f"- {cite_chosen([(p.index, lead)], [0], SECTION_CHARS)}" for p in passages if (lead := _lead(p))]
    return lines[:KEY_POINTS], max(0, len(lines) - KEY_POINTS)


def chip_answer(chip: ChipQuestion, passages: list[Passage], history: list[dict], language: str) -> str:
    # a document or course named: its parts (a section's or lesson's own name is in its passages' paths)
    named = chip.topic.casefold()
    whole = len(passages) > 1 and not any(named in p.section.casefold().split(" > ") for p in passages)
    whole = whole and chip.kind == "explain"
    if whole:
        lines, left = _key_points(passages)
        intro = t("tutor.chip.key_points_document", language, topic=chip.topic)
        body = "\n".join(lines + ([t("tutor.chip.more_sections", language, n=left)] if left else []))
    else:
        body = _quoted(passages, history, pick_figures=chip.kind == "example")
        kind = "all_said" if chip.kind == "more" and _said_already(passages, history) else chip.kind
        intro = t(f"tutor.chip.{kind}", language, topic=chip.topic)
    return f"{' '.join([intro, *_language_notes(passages, language)])}\n\n{body}"


def _language_notes(passages: list[Passage], language: str) -> list[str]:
    """One note for each document quoted in another language than the learner's."""
    notes: dict[str, str] = {}
    for passage in passages:
        other = passage_language(passage)
        if other in ("es", "en") and other != language:
            name = t(f"tutor.language.{other}", language)
            notes.setdefault(
                passage.document, t("tutor.quoted_from", language, language=name, document=passage.document)
            )
    return list(notes.values())


def twin_chip_answer(state: Mapping[str, Any]) -> str:
    """The offline answer to a chip turn (retrieve_named found its material)."""
    chip = recognise(state["message"])
    assert chip is not None, "a chip turn's message is a chip"
    return chip_answer(chip, list(state.get("passages") or []), state.get("history") or [], state.get("language", "es"))
