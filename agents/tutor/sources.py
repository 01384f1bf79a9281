"""The source viewer's data: any citation or lesson source opened as its document, in reading order,
with the cited passage marked (and its page for PDFs), plus the original file when it is on disk; a
citation of a manual opens the manual, its cited section marked.

Used by the Streamlit source page and the tutor chat's source panel; other organisations' ids and
unknown ids answer None ("not found").
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from agents.retrieval.chunk_sections import cited_sentences, claim_offset, heading_at, heading_at_offset
from agents.runtime.deps import AppDeps
from agents.tutor.citations import QUOTE_CHARS, section_path, supported_text
from core import config
from core.inputs import parse_uuid
from storage import manuals, sources
from storage.users import User

SEED_DOCUMENTS = Path(__file__).resolve().parents[2] / "seeds" / "documents"
_WORDS = re.compile(r"[^\W\d_]{3,}|\d+", re.UNICODE)


@dataclass(frozen=True)
class Block:
    text: str
    heading: str = ""
    page: int | None = None
    cited: bool = False
    anchor: str = ""
    marks: tuple[tuple[int, int], ...] = ()  # the cited sentences' (start, end) in ``text``; none: the whole block


@dataclass
class SourceView:
    kind: str  # "document" | "lesson" | "manual"
    title: str
    heading: str = ""  # the cited passage's heading
    page: int | None = None  # the cited passage's first page (PDFs)
    page_count: int = 1
    mime_type: str = ""
    source_name: str = ""
    blocks: list[Block] = field(default_factory=list)
    manual_id: str = ""  # a manual's id (its page opens it)

    @property
    def original(self) -> Path | None:
        """The file the document was ingested from, when it is still on disk (demo documents, uploads)."""
        return original_file(self.source_name) if self.source_name else None


def original_file(source_name: str) -> Path | None:
    data_dir = Path(config.get("SKILLNET_DATA_DIR"))
    for folder in (SEED_DOCUMENTS, data_dir / "uploads"):
        candidate = folder / Path(source_name).name
        if candidate.is_file():
            return candidate
    return None


def _stems(text: str) -> set[str]:
    return {word.lower()[:5] for word in _WORDS.findall(text or "")}


def _paragraph_blocks(text: str, quote: str | None) -> list[Block]:
    """A text split into paragraphs, the one sharing most words with ``quote`` marked (its cited
    sentences only, when the quote's sentences are found in it)."""
    paragraphs = [p for p in re.split(r"\n\s*\n", text or "") if p.strip()]
    best = -1
    if quote:
        wanted = _stems(quote)
        scores = [len(wanted & _stems(p)) for p in paragraphs]
        if scores and max(scores) > 0:
            best = scores.index(max(scores))
    return [
        Block(p, cited=n == best, anchor=f"p{n}", marks=tuple(cited_sentences(p, quote)) if quote and n == best else ())
        for n, p in enumerate(paragraphs)
    ]


def _section_blocks(chunk, document_title: str, cited: bool, quote: str | None) -> list[Block]:
    """A chunk as one block per section merged into it (each under its own heading). In the cited
    chunk, the cited sentences are marked and only the blocks holding them are cited; a quote in other
    words cites the section of the paragraph closest to it; no quote, the whole chunk."""
    text = chunk.content
    starts = sorted({int(span[0]) for span in chunk.heading_spans or ()} | {0})
    marks = cited_sentences(text, quote) if cited and quote else []
    at = claim_offset(chunk, quote) if cited and quote and not marks else None
    blocks = []
    for n, start in enumerate(starts):
        end = starts[n + 1] if n + 1 < len(starts) else len(text)
        body = text[start:end].rstrip()
        lead = len(body) - len(body.lstrip())
        if not body.strip():
            continue
        heading, page = heading_at_offset(chunk, start)
        inside = tuple((a - start - lead, b - start - lead) for a, b in marks if start <= a < end)
        blocks.append(
            Block(
                body.strip(),
                section_path(heading, document_title),
                page,
                cited and (bool(inside) if marks else at is None or start <= at < end),
                f"c{chunk.position}" + (f"-{n}" if n else ""),
                inside,
            )
        )
    return blocks


def _manual_view(conn, user: User, manual_id, section: str | None) -> SourceView | None:
    """A manual's sections in order, the cited one (its anchor, or its place) marked."""
    parsed = parse_uuid(manual_id)
    found = manuals.get_manual(conn, user.org_id, parsed) if parsed else None
    if found is None:
        return None
    view = SourceView("manual", found.title, manual_id=str(found.id))
    for position, part in enumerate(found.sections or []):
        anchor = part.get("anchor") or str(position)
        cited = bool(section) and section in (anchor, str(position))
        view.blocks.append(Block(part.get("body") or "", part.get("heading") or "", None, cited, anchor))
        if cited:
            view.heading = part.get("heading") or ""
    return view


SOURCE_KEYS = ("chunk", "document", "lesson", "manual", "section", "quote")  # open_source's, as a link carries them


def open_source(
    deps: AppDeps,
    user: User,
    *,
    chunk=None,
    document=None,
    lesson=None,
    manual=None,
    section: str | None = None,
    quote: str | None = None,
) -> SourceView | None:
    """The source for a chunk id, a document id, a lesson id or a manual id with its ``section`` anchor
    (one of them), or None if not found."""
    with deps.pool.connection() as conn:
        if manual:
            return _manual_view(conn, user, manual, section)
        if chunk:
            document = sources.chunk_document_id(conn, user.org_id, chunk)
            if document is None:
                return None
        if document:
            found = sources.source_document(conn, user.org_id, document)
            if found is None:
                return None
            chunks = sources.document_chunks_by_document(conn, user.org_id, found.id)
            view = SourceView(
                "document",
                found.title,
                page_count=found.page_count,
                mime_type=found.mime_type,
                source_name=found.source_name,
            )
            if not chunks:  # kept whole: mark the paragraph the quote comes from
                view.blocks = _paragraph_blocks(found.full_text, quote)
                return view
            if not chunk and quote:  # a whole-document citation: the chunk that reads most like the quote
                wanted = _stems(quote)
                chunk = max(chunks, key=lambda c: len(wanted & _stems(c.content))).id
            for c in chunks:
                blocks = _section_blocks(c, found.title, str(c.id) == str(chunk), quote)
                view.blocks += blocks
                cited = next((block for block in blocks if block.cited), None)
                if cited is not None and not view.heading:  # the section the cited sentence sits under
                    view.heading, view.page = cited.heading, cited.page
            return view
        if lesson:
            taught = sources.source_lesson(conn, user.org_id, lesson)
            if taught is None:
                return None
            return SourceView(
                "lesson",
                f"{taught.course_title} › {taught.title}",
                heading=taught.module_title,
                blocks=_paragraph_blocks(taught.content_md, quote),
            )
    return None


def lesson_sources(deps: AppDeps, user: User, content_md: str, citations: list[dict]) -> list[dict]:
    """A lesson's numbered sources, each named by the heading of the passage sentence its [n] rests on
    (a chunk packing small sections names only its first) and carrying that claim as ``quote``, so the
    viewer marks the sentence."""
    claims = supported_text(content_md or "")
    chunks = {}
    with deps.pool.connection() as conn:
        for chunk_id in {str(c["chunk_id"]) for c in citations if c.get("chunk_id")}:
            chunks[chunk_id] = next(iter(sources.nearby_chunks(conn, user.org_id, chunk_id, radius=0)), None)
    pinned = []
    for n, citation in enumerate(citations, 1):
        claim = claims.get(citation.get("index") or n, "")
        chunk = chunks.get(str(citation.get("chunk_id")))
        if chunk is None or not claim:
            pinned.append(citation)
            continue
        heading, page = heading_at(chunk, claim)
        pinned.append(
            {
                **citation,
                "section": section_path(heading, chunk.document_title),
                "page": page,
                "quote": claim[:QUOTE_CHARS],
            }
        )
    return pinned
