"""The exercise on screen as the hint's material: the passages it was written from come first.

While an exercise is open the learner's message ("I'm stuck") retrieves whatever it resembles, so a
hint built on the search alone talked about the nearest other topic. Here the exercise's own source
chunks (``exercises.source_chunk_ids``) become passages [1]…, each named by the section its source
sentence sits under, and the retrieved passages follow them.
"""

from __future__ import annotations

import re

from langgraph.runtime import Runtime

from agents.retrieval.chunk_sections import cited_sentences, heading_at
from agents.retrieval.passages import Passage, trim_passages
from agents.tutor.citations import section_path
from agents.tutor.guardrails import exercise_text
from agents.tutor.state import TutorContext, TutorState
from storage import exercises, sources

_BLANK = re.compile(r"_{3,}")


def exercise_passages(conn, org_id, attempt: dict) -> list[Passage]:
    """The chunks the exercise was written from, each under the heading of the sentence it asks about
    (found with what the learner reads, a blank filled with its answer: the passage is the material)."""
    exercise = exercises.get_exercise(conn, org_id, attempt["exercise_id"])
    answers = attempt.get("correct_texts") or []
    asked = _BLANK.sub(answers[0], exercise_text(attempt)) if answers else exercise_text(attempt)
    passages = []
    for chunk_id in exercise.source_chunk_ids if exercise else []:
        chunk = next(iter(sources.nearby_chunks(conn, org_id, chunk_id, radius=0)), None)
        if chunk is None:
            continue
        heading, page = heading_at(chunk, asked)
        section = section_path(heading, chunk.document_title)
        text = _section_text(chunk, asked)
        passages.append(Passage(0, text, chunk.document_title, section, page, "document_chunk", str(chunk.id)))
    return passages


def _section_text(chunk, asked: str) -> str:
    """Of a chunk packing several small sections, the one holding the exercise's source sentence."""
    cited = cited_sentences(chunk.content, asked)
    starts = sorted({int(span[0]) for span in chunk.heading_spans or ()} | {0, len(chunk.content)})
    if not cited or len(starts) < 3:
        return chunk.content
    at = cited[0][0]
    start = max(offset for offset in starts if offset <= at)
    return chunk.content[start : min(offset for offset in starts if offset > at)].strip()


def _label(passage: Passage) -> str:
    where = " > ".join(part for part in (passage.document, passage.section) if part)
    return f"[Source {passage.index}: {where}{f', p. {passage.page}' if passage.page else ''}]"


def add_exercise_material(state: TutorState, runtime: Runtime[TutorContext]) -> dict:
    """With an exercise open: its source passages first, the retrieved ones after, renumbered; the
    attempt records which passages are the exercise's own (``source_ids``) for the offline hint."""
    attempt = state.get("attempt")
    if not attempt:
        return {}
    ctx = runtime.context
    with ctx.pool.connection() as conn:
        own = exercise_passages(conn, ctx.org_id, attempt)
    if not own:
        return {}
    ids = {p.source_id for p in own}
    retrieved = [p for p in state.get("passages") or [] if p.source_id not in ids]
    kept = trim_passages(own + retrieved, ctx.budgets["retrieved_context"])
    passages = [p.numbered(n) for n, p in enumerate(kept, 1)]
    return {
        "passages": passages,
        "context": "\n\n---\n\n".join(_label(p) + "\n" + p.text for p in passages),
        "rung": "chunks",
        "attempt": {**attempt, "source_ids": [p.source_id for p in passages if p.source_id in ids]},
    }
