"""Chunking: a document's paragraphs packed into chunks of about 200-500 tokens that never straddle a heading
(a section too small to stand alone joins its neighbour under the same top-level heading), with the spans where
each heading's paragraphs start."""

from __future__ import annotations

import math

from langchain_text_splitters import RecursiveCharacterTextSplitter

from agents.ingestion.parsers import Paragraph
from storage import documents

TARGET_TOKENS = 350
MAX_TOKENS = 500
MIN_TOKENS = 200
CHARS_PER_TOKEN = 4  # close enough for e5's tokenizer on Spanish and English prose


def estimate_tokens(text: str) -> int:
    return max(1, math.ceil(len(text) / CHARS_PER_TOKEN))


_splitter = RecursiveCharacterTextSplitter(
    chunk_size=TARGET_TOKENS * CHARS_PER_TOKEN,
    chunk_overlap=40 * CHARS_PER_TOKEN,
    separators=["\n\n", "\n", ". ", "; ", ", ", " ", ""],
)


def chunk(paragraphs: list[Paragraph]) -> list[documents.NewChunk]:
    """Pack paragraphs into chunks that never straddle a heading; long paragraphs are split."""
    pieces: list[Paragraph] = []
    for paragraph in paragraphs:
        if estimate_tokens(paragraph.text) > MAX_TOKENS:
            pieces += [
                Paragraph(part, paragraph.heading, paragraph.page) for part in _splitter.split_text(paragraph.text)
            ]
        else:
            pieces.append(paragraph)

    groups: list[list[Paragraph]] = []
    for piece in pieces:
        current = groups[-1] if groups else None
        fits = current is not None and (
            estimate_tokens("\n\n".join(p.text for p in current) + piece.text) <= TARGET_TOKENS
            or estimate_tokens("\n\n".join(p.text for p in current)) < MIN_TOKENS
            and estimate_tokens("\n\n".join(p.text for p in current) + piece.text) <= MAX_TOKENS
        )
        same_section = current is not None and current[-1].heading == piece.heading
        # a section too small to stand alone joins its neighbour under the same top-level heading
        small_sibling = (
            current is not None
            and estimate_tokens(" ".join(p.text for p in current)) < MIN_TOKENS
            and current[-1].heading.split(" > ")[0] == piece.heading.split(" > ")[0]
        )
        if current is not None and fits and (same_section or small_sibling):
            current.append(piece)
        else:
            groups.append([piece])

    chunks = []
    for position, group in enumerate(groups):
        content = "\n\n".join(p.text for p in group)
        pages = [p.page for p in group if p.page is not None]
        chunks.append(
            documents.NewChunk(
                position=position,
                heading=group[0].heading,
                page_start=min(pages) if pages else None,
                page_end=max(pages) if pages else None,
                content=content,
                token_count=estimate_tokens(content),
                heading_spans=_heading_spans(group),
            )
        )
    return chunks


def _heading_spans(group: list[Paragraph]) -> tuple:
    """Where each heading's paragraphs start in the chunk's content: the content studio follows the
    document's own sections even where small ones share a chunk."""
    spans: list[tuple[int, str, int | None]] = []
    offset = 0
    for paragraph in group:
        if not spans or spans[-1][1] != paragraph.heading:
            spans.append((offset, paragraph.heading, paragraph.page))
        offset += len(paragraph.text) + 2
    return tuple(spans)
