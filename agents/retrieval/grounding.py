"""The grounding ladder: what an answer stands on, decided here and announced as one event.

1. "chunks": retrieved text — the course tree (PageIndex) for in-course questions, with a scoped
   fallback to the course's source documents when the lessons are thin; semantic search otherwise.
2. "document": the whole document of a course the learner is enrolled in (small documents are kept
   whole in documents.full_text, and may have no chunks at all).
3. "general": nothing from the company fits; the answer comes from general knowledge and says so.
There is no refusal rung. Passages carry one [n] numbering per answer.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from itertools import zip_longest
from typing import TYPE_CHECKING
from uuid import UUID

import numpy as np

from agents.llm import LLM, count_tokens
from agents.retrieval import fusion, postprocess
from agents.retrieval.course_tree import retrieve_course_context
from agents.retrieval.passages import Passage
from agents.retrieval.search import MAX_QUERY_CHARS, Hit, Scope, search, search_each
from core import glossary
from storage import scopes
from storage.db import reading

if TYPE_CHECKING:
    from agents.runtime.deps import Embedder

THIN_LESSONS_TOKENS = 200  # 000 §1.5: below this the course's source documents are searched too
SEMANTIC_K = 5
# A chunk is evidence when its hybrid score reaches this and is near the best hit's. Measured with
# multilingual-e5-small on the eval set: the best hit of 96% of real questions scores >= 0.80, the
# best hit of 11 of 12 off-topic questions (recipes, capitals, poems) scores below it.
MIN_RELEVANCE = 0.80
RELEVANCE_MARGIN = 0.04


@dataclass(frozen=True)
class Grounding:
    rung: str  # "chunks" | "document" | "general"
    source: str  # "pageindex" | "semantic" | "scoped_fallback" | "document" | "none"
    passages: list[Passage] = field(default_factory=list)
    latency_ms: int = 0


def _number(passages: list[Passage]) -> list[Passage]:
    return [passage.numbered(i) for i, passage in enumerate(passages, 1)]


def section_of(hit: Hit, heading: str | None = None) -> str:
    """The heading path (the hit's, else ``heading``) without the document's own title (it is cited as the
    document already)."""
    parts = [part for part in (heading or hit.heading).split(" > ") if part and part != hit.document_title]
    return " > ".join(parts)


def _chunk_passages(hits: list[Hit]) -> list[Passage]:
    return [
        Passage(
            index=0,
            text=h.content,
            document=h.document_title,
            section=section_of(h),
            page=h.page,
            source_type="document_chunk",
            source_id=str(h.chunk_id),
            score=h.score,
            sections=tuple((offset, section_of(h, heading)) for offset, heading in h.heading_spans),
        )
        for h in hits
    ]


def _relevant(hits: list[Hit]) -> list[Hit]:
    """Hits strong enough to answer from: near the best and above the floor, or (the keyword
    fallback for weak similarity) matching every question word or an exact code in the question."""
    if not hits:
        return []
    floor = max(MIN_RELEVANCE, hits[0].score - RELEVANCE_MARGIN)
    return [hit for hit in hits if hit.score >= floor or hit.scores.get("boost", 0.0) >= fusion.STRONG_LEXICAL]


def glossed_query(question: str) -> str:
    """The question as the glossary says it in the other language, cut at a word within the query limit (until
    session 15 every question over 40 characters lost its last word's gloss: "teams" in "How often are
    customers' comments shared with the teams?")."""
    other = glossary.gloss(question)
    return other if len(other) <= MAX_QUERY_CHARS else other[:MAX_QUERY_CHARS].rsplit(" ", 1)[0]


def search_both_languages(pool, org_id: UUID, question: str, k: int = SEMANTIC_K, *, embedder: Embedder) -> list[Hit]:
    """The relevant chunks for the question as asked and as the glossary says it in the other language
    (issue 29: a Spanish question finds the English policy's sentence, and the other way round), taken in
    turns from each list, each list held to its own relevance floor: a question's own language scores
    higher with e5-small, and one list merged by score kept only Spanish chunks for a Spanish question
    whose answer is in an English document. A chunk found both ways is kept once, at its better score."""
    other = glossed_query(question)
    if not other or other == question:
        return _relevant(search(org_id, question, k=k, pool=pool, embedder=embedder))
    found = search_each(org_id, [question, other], k=k, pool=pool, embedder=embedder)  # one transaction for both
    best: dict = {}
    for hit in (hit for hits in found for hit in hits):
        if hit.chunk_id not in best or hit.score > best[hit.chunk_id].score:
            best[hit.chunk_id] = hit
    taken: list[Hit] = []
    for turn in zip_longest(*(_relevant(hits) for hits in found)):
        for hit in turn:
            if hit is not None and len(taken) < k and all(kept.chunk_id != hit.chunk_id for kept in taken):
                taken.append(best[hit.chunk_id])
    return taken


def _prompt_hits(pool, org_id: UUID, hits: list[Hit], budget: int, model: str | None) -> list[Hit]:
    """Relevant hits, short ones expanded with their neighbours, within budget, in reading order."""
    with reading(pool) as conn:
        hits = postprocess.expand_neighbours(conn, org_id, hits)
    hits = postprocess.within_budget(hits, budget, lambda hit: count_tokens(hit.content, model))
    return postprocess.document_order(hits)


def ground(
    pool,
    org_id: UUID,
    user_id: UUID | None,
    question: str,
    *,
    llm: LLM,
    embedder: Embedder,
    course_id: UUID | None = None,
    lesson_id: UUID | None = None,
) -> Grounding:
    """Decide the rung for ``question`` and assemble its numbered passages; ``llm``
    (the turn's model) sizes the context budget and picks the course's modules when it is not offline;
    ``embedder`` (the turn's AppDeps) embeds the question."""
    started = time.perf_counter()
    model = None if llm.offline else llm.settings.model
    budget = postprocess.context_budget(model)

    def done(rung: str, source: str, found: list[Passage]) -> Grounding:
        return Grounding(rung, source, _number(found), int((time.perf_counter() - started) * 1000))

    drafts: list[Passage] = []
    source = "semantic"
    if course_id is not None:
        course = retrieve_course_context(
            pool,
            org_id,
            course_id,
            question,
            embedder=embedder,
            lesson_id=lesson_id,
            llm=None if llm.offline else llm,
        )
        lessons = postprocess.within_budget(
            course.lessons, budget, lambda lesson: count_tokens(lesson.content_md, model)
        )
        drafts = [
            Passage(
                index=0,
                text=lesson.content_md,
                document=lesson.module_title,
                section=lesson.title,
                page=None,
                source_type="lesson",
                source_id=str(lesson.id),
            )
            for lesson in lessons
        ]
        source = "pageindex"
        used = sum(count_tokens(d.text, model) for d in drafts)
        if used < THIN_LESSONS_TOKENS:
            hits = _relevant(
                search(org_id, question, k=SEMANTIC_K, scope=Scope(course_id=course_id), pool=pool, embedder=embedder)
            )
            if hits:
                drafts += _chunk_passages(_prompt_hits(pool, org_id, hits, budget - used, model))
                source = "scoped_fallback"
            else:  # thin lessons and no chunk to add: the course's documents kept whole hold the answer
                documents = _enrolled_documents(
                    pool, embedder, org_id, user_id, question, course_id, budget - used, model
                )
                if documents:
                    return done("document", "document", drafts + documents)
    else:
        hits = search_both_languages(pool, org_id, question, embedder=embedder)
        drafts = _chunk_passages(_prompt_hits(pool, org_id, hits, budget, model))
    if drafts:
        return done("chunks", source, drafts)

    documents = _enrolled_documents(pool, embedder, org_id, user_id, question, course_id, budget, model)
    if documents:
        return done("document", "document", documents)
    return done("general", "none", [])


def _enrolled_documents(
    pool,
    embedder: Embedder,
    org_id: UUID,
    user_id: UUID | None,
    question: str,
    course_id: UUID | None,
    budget: int,
    model: str | None,
) -> list[Passage]:
    """Whole documents of the learner's courses, as many as fit the budget.

    Inside a course: that course's documents. Outside: only documents kept whole without chunks (the
    chunked ones were searched already) whose opening is as related to the question as a hit must be.
    """
    if user_id is None:
        return []
    question_vector = embedder.embed_query(question)
    with pool.connection() as conn:
        documents = scopes.enrolled_course_documents(conn, org_id, user_id, question_vector, course_id)
    drafts, used = [], 0
    for document in documents:
        if course_id is None and (
            document.relevance is not None
            or float(np.dot(question_vector, embedder.embed_query(document.full_text[:1500]))) < MIN_RELEVANCE
        ):
            continue
        tokens = count_tokens(document.full_text, model)
        if used + tokens > budget:
            continue
        drafts.append(
            Passage(
                index=0,
                text=document.full_text,
                document=document.title,
                section="",
                page=None,
                source_type="document",
                source_id=str(document.id),
            )
        )
        used += tokens
    return drafts
