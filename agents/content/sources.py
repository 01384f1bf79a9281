"""A job's source material: its documents' sections, loaded once when the job starts (``load_sources``) into the
``Sources`` its graph state carries, and what the agents pick from it (a module's part, a semantic supplement,
a prompt's context block).

Each agent still sees only its own part: a module writer its sections and supplement, the reviewer the whole
sources, never a generator's context (spec 004 §3.6).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING
from uuid import UUID

from psycopg_pool import ConnectionPool

from agents.content.sections import Section, sections_from_chunks
from agents.content.text import overlap
from storage import documents

if TYPE_CHECKING:
    from agents.runtime.deps import Embedder

log = logging.getLogger(__name__)
SUPPLEMENT_TOP_K = 3  # spec 004 §10 SEMANTIC_SEARCH_TOP_K
CONTEXT_CHAR_BUDGET = 48_000  # what one model call is given at most (~12k tokens)


@dataclass(frozen=True)
class Sources:
    """The job's documents (in the order given) and their sections, as every node reads them."""

    document_ids: list[UUID]
    sections: list[Section]


def course_language(docs: list[documents.Document]) -> str:
    """The one language of a course over these documents: that of most of their text (English, else Spanish)."""
    languages = {_taught(d.language) for d in docs}
    return max(sorted(languages), key=lambda lang: sum(d.token_count for d in docs if _taught(d.language) == lang))


def _taught(language: str) -> str:
    """The language a course over a document of ``language`` is written in: English, else Spanish."""
    return language if language == "en" else "es"


def other_language_documents(docs: list[documents.Document]) -> tuple[str, list[documents.Document]]:
    """The course's language and the documents written in another one (their lessons quote them as written)."""
    language = course_language(docs) if docs else ""
    return language, [d for d in docs if _taught(d.language) != language]


def load_sources(pool: ConnectionPool, org_id: UUID, document_ids: list[UUID]) -> Sources:
    return Sources(list(document_ids), load_sections(pool, org_id, document_ids))


def load_chunks(pool: ConnectionPool, org_id: UUID, document_ids: list[UUID]) -> list[documents.Chunk]:
    """Every chunk of the documents, in document order (the order the documents were given)."""
    with pool.connection() as conn:
        return [chunk for doc_id in document_ids for chunk in documents.document_chunks(conn, org_id, doc_id)]


def load_sections(pool: ConnectionPool, org_id: UUID, document_ids: list[UUID]) -> list[Section]:
    """The documents' own sections (heading by heading), each with the chunks it lies in."""
    with pool.connection() as conn:
        spans = {
            chunk_id: found
            for doc_id in document_ids
            for chunk_id, found in documents.chunk_heading_spans(conn, org_id, doc_id).items()
        }
    return sections_from_chunks(load_chunks(pool, org_id, document_ids), spans)


def sections_for(all_sections: list[Section], chunk_ids: list[str]) -> list[Section]:
    """The parts of ``all_sections`` made of these chunks (a section keeps only the chunks asked for)."""
    wanted, picked = set(chunk_ids), []
    for section in all_sections:
        pairs = [(c, t) for c, t in zip(section.chunk_ids, section.texts) if c in wanted]
        if pairs:
            picked.append(
                Section(
                    section.document_id,
                    section.document_title,
                    section.heading,
                    section.path,
                    section.page,
                    [c for c, _ in pairs],
                    [t for _, t in pairs],
                    section.position,
                )
            )
    return picked


def chunks_matching(all_sections: list[Section], text: str, limit: int = 3) -> list[str]:
    """Chunk ids whose section best matches ``text`` lexically (an admin-added module has no chunks yet)."""
    scored = sorted(
        ((overlap(text, s.heading + " " + s.text), s.position, s) for s in all_sections),
        key=lambda item: (-item[0], item[1]),
    )
    return [c for score, _, s in scored[:limit] if score > 0 for c in s.chunk_ids]


def module_chunk_ids(
    pool: ConnectionPool,
    embedder: Embedder,
    org_id: UUID,
    document_ids: list[UUID],
    primary: list[str],
    themes: list[dict],
) -> tuple[list[str], list[str]]:
    """Dual retrieval (spec 004 §4.3): the theme->chunk index, plus a semantic supplement per theme.

    Returns (primary ids, supplemental ids); the supplement is the top chunks of a scoped search for
    each theme's title and summary that the index did not already hold.
    """
    from agents.retrieval.search import Scope, search

    seen, supplement = set(primary), []
    scope = Scope(document_ids=list(document_ids))
    for theme in themes:
        query = f"{theme.get('title', '')}. {theme.get('summary', '')}".strip(" .")[:500]
        if not query:
            continue
        try:
            hits = search(org_id, query, k=SUPPLEMENT_TOP_K + len(seen), scope=scope, pool=pool, embedder=embedder)
        except Exception:  # retrieval is a supplement: the index alone still grounds the module
            log.warning("supplemental search failed for theme %r", theme.get("key"), exc_info=True)
            continue
        fresh = [str(hit.chunk_id) for hit in hits if str(hit.chunk_id) not in seen][:SUPPLEMENT_TOP_K]
        seen.update(fresh)
        supplement += fresh
    return list(primary), supplement


def context_block(
    sections: list[Section],
    *,
    refs: dict[str, str] | None = None,
    budget: int = CONTEXT_CHAR_BUDGET,
    preview: int | None = None,
) -> str:
    """Sources as text for a prompt: one block per chunk, with its reference, document, section and page."""
    parts: list[str] = []
    used = 0
    for section in sections:
        for chunk_id, text in zip(section.chunk_ids, section.texts):
            body = text if preview is None else text[:preview]
            ref = (refs or {}).get(chunk_id, chunk_id)
            block = (
                f"[{ref}] {section.document_title} — {section.path or section.heading}"
                f"{f' (p. {section.page})' if section.page else ''}\n{body}"
            )
            if used + len(block) > budget:
                return "\n\n".join(parts)
            parts.append(block)
            used += len(block)
    return "\n\n".join(parts)


def chunk_refs(sections: list[Section]) -> dict[str, str]:
    """Short references (c1, c2, ...) for chunk ids: fewer tokens, fewer invented ids."""
    ids = [c for s in sections for c in s.chunk_ids]
    return {chunk_id: f"c{i}" for i, chunk_id in enumerate(ids, 1)}
