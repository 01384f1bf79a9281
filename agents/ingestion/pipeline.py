"""Ingestion: a file becomes a document with heading-aware, embedded, full-text-indexed chunks.

parse (the upload's limits, then agents/ingestion/parsers.py for PDF, DOCX, Markdown, text, HTML) -> paragraphs
with heading and page -> chunks of about 200–500 tokens (chunking.py) -> embeddings -> one transaction. Bad input
raises IngestError (one line) before the database is touched. Backfills of older chunks are in backfill.py.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from uuid import UUID

import numpy as np
from psycopg_pool import ConnectionPool

from agents.ingestion import limits
from agents.ingestion.chunking import CHARS_PER_TOKEN, MAX_TOKENS, TARGET_TOKENS, chunk
from agents.ingestion.embeddings import VectorPack, embed_passages
from agents.ingestion.parsers import PARSERS, IngestError, Paragraph, ParsedDocument
from agents.ingestion.semantic_check import second_opinion
from core import config
from core.inputs import strip_invisible
from core.instructions import SecondOpinion, score_ahead, split_instructions, without_instructions
from core.markup import safe_markdown
from core.once import built_once
from storage import documents, ingestions, source_changes
from storage import flagged as flagged_passages

TS_CONFIGS = {"es": "spanish", "en": "english", "vi": "vietnamese"}  # migration 090 adds vietnamese
MIME_TYPES = {
    ".pdf": "application/pdf",
    ".md": "text/markdown",
    ".markdown": "text/markdown",
    ".txt": "text/plain",
    ".html": "text/html",
    ".htm": "text/html",
    ".docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
}


@dataclass(frozen=True)
class IngestResult:
    document_id: UUID
    title: str
    pages: int
    chunks: int
    language: str
    status: str  # ingested | unchanged | replaced

    def as_json(self) -> dict:
        return {
            "title": self.title,
            "pages": self.pages,
            "chunks": self.chunks,
            "language": self.language,
            "status": self.status,
            "document_id": str(self.document_id),
        }


def max_upload_bytes() -> int:
    return int(config.get("SKILLNET_MAX_UPLOAD_MB") * 1024 * 1024)


def detect_language(text: str) -> str:
    """ISO code of the text's language, among the languages the product serves well."""
    return language_identifier().classify(text[:5000])[0] if text.strip() else "es"


LANGUAGES = ("es", "en", "vi", "pt", "fr", "de", "it")  # what language detection chooses among


@built_once
def language_identifier():
    """The one py3langid identifier of the process (normalised probabilities, LANGUAGES only; ~0.4 s to load)."""
    from py3langid.langid import _load_identifier

    return _load_identifier(norm_probs=True, langs=list(LANGUAGES))


def check_upload(source_name: str, data: bytes) -> None:
    """The refusals that need no parsing (type, empty, size): said at once, before anything is queued.
    Each has a code the catalogue words in the reader's language (``safety.doc_<code>``)."""
    suffix = Path(source_name).suffix.lower()
    if suffix not in PARSERS:
        raise IngestError(
            f"unsupported file type '{suffix or source_name}'; use PDF, DOCX, Markdown, text or HTML",
            "unsupported_type",
            suffix=suffix or source_name,
        )
    if not data:
        raise IngestError("the file is empty (0 bytes)", "empty")
    size_mb, limit_mb = f"{len(data) / 1_048_576:.1f}", f"{max_upload_bytes() / 1_048_576:.0f}"
    if len(data) > max_upload_bytes():
        raise IngestError(
            f"the file is {size_mb} MB; the limit is {limit_mb} MB (SKILLNET_MAX_UPLOAD_MB)",
            "too_big",
            size_mb=size_mb,
            limit_mb=limit_mb,
        )


def parse(
    path: Path, data: bytes, known: VectorPack | None = None, judge: SecondOpinion | None = None
) -> ParsedDocument:
    """``path``'s text as data. The instruction filter takes the semantic check's second opinion (embedding
    with ``known`` vectors first), or ``judge``'s in its place."""
    check_upload(path.name, data)
    suffix = path.suffix.lower()
    try:
        if suffix == ".docx":
            limits.check_docx(data)
        parsed = PARSERS[suffix](data, path.stem)
        if len(parsed.full_text) > limits.max_chunks() * MAX_TOKENS * CHARS_PER_TOKEN:  # can't fit: don't chunk it
            limits.check_chunks(len(parsed.full_text) // (TARGET_TOKENS * CHARS_PER_TOKEN))
    except limits.LimitExceeded as exc:
        raise IngestError(str(exc), exc.code, **exc.params) from None
    parsed = _as_data(parsed, path.stem, judge or second_opinion(known))
    if not parsed.full_text.strip():
        raise IngestError("the document has no text to learn from", "no_text")
    return parsed


def _heading_as_data(path: str) -> str:
    """A heading path ("Handbook > Vacation") level by level: an attack planted as one section's heading
    must not read as the tail of its parent's sentence."""
    levels = (without_instructions(safe_markdown(level)) for level in path.split(" > "))
    return " > ".join(level for level in levels if level)


def _as_data(parsed: ParsedDocument, stem: str, judge: SecondOpinion | None) -> ParsedDocument:
    """Other people's Markdown made data: no raw HTML, outside images or links to hosts not allowlisted,
    and no instruction-like sentence (held back in ``flagged``, for the admin to see). A title that was all
    instruction gives way to the file's name, as a document with no title does."""
    levels = {level for paragraph in parsed.paragraphs for level in paragraph.heading.split(" > ")}
    score_ahead(
        [safe_markdown(parsed.title)]
        + [strip_invisible(paragraph.text) for paragraph in parsed.paragraphs]
        + [safe_markdown(level) for level in levels]
    )
    title, removed = split_instructions(safe_markdown(parsed.title), judge)
    flagged: list[dict] = [
        {"heading": "", "page": None, "family": family, "text": sentence, "near": ""} for sentence, family in removed
    ]
    paragraphs = []
    for paragraph in parsed.paragraphs:
        # markers give instructions away: before the sanitiser; invisible characters first, as they split words
        text, removed = split_instructions(strip_invisible(paragraph.text), judge)
        text = safe_markdown(text)
        heading = _heading_as_data(paragraph.heading)
        text = text.strip()
        flagged += [
            {"heading": heading, "page": paragraph.page, "family": family, "text": sentence, "near": text[:60]}
            for sentence, family in removed
        ]
        if text:
            paragraphs.append(Paragraph(text, heading, paragraph.page))
    return ParsedDocument(title.strip() or stem or "—", paragraphs, parsed.page_count, tuple(flagged))


def parse_and_chunk(
    source_name: str, data: bytes, known: VectorPack | None = None
) -> tuple[ParsedDocument, str, list[documents.NewChunk]]:
    """The file parsed, its language and its chunks, within the document limits (the synchronous and the
    background ingestion start the same way)."""
    parsed = parse(Path(source_name), data, known)
    new_chunks = chunk(parsed.paragraphs)
    try:
        limits.check_chunks(len(new_chunks))
    except limits.LimitExceeded as exc:
        raise IngestError(str(exc), exc.code, **exc.params) from None
    return parsed, detect_language(parsed.full_text), new_chunks


def _embedding_text(title: str, new_chunk: documents.NewChunk) -> str:
    # The title and heading tell the embedding what the passage is about.
    return f"{title}. {new_chunk.heading}\n{new_chunk.content}"


def section_texts(title: str, new_chunk: documents.NewChunk) -> list[str]:
    """The embedding texts of a chunk's sections when it packs several small ones (its heading spans), each
    under its own heading; [] for a one-section chunk (its own vector is its section's)."""
    spans = sorted(tuple(span) for span in new_chunk.heading_spans or ())
    if len(spans) < 2:
        return []
    ends = [span[0] for span in spans[1:]] + [len(new_chunk.content)]
    return [
        f"{title}. {heading or new_chunk.heading}\n{new_chunk.content[start:end]}"
        for (start, heading, _), end in zip(spans, ends)
    ]


def embed_chunks(
    title: str, new_chunks: list[documents.NewChunk], known: VectorPack | None = None
) -> tuple[np.ndarray, list[list[np.ndarray]]]:
    """(one vector per chunk, per chunk its sections' vectors: [] for a one-section chunk), in one batch."""
    texts = [_embedding_text(title, c) for c in new_chunks]
    sections = [section_texts(title, c) for c in new_chunks]
    vectors = embed_passages(texts + [text for texts_of in sections for text in texts_of], known=known)
    section_vectors, at = [], len(texts)
    for texts_of in sections:
        section_vectors.append(list(vectors[at : at + len(texts_of)]))
        at += len(texts_of)
    return vectors[: len(texts)], section_vectors


def passage_texts(path: str | Path, known: VectorPack | None = None) -> list[str]:
    """The texts ingesting ``path`` embeds, chunks in order then their sections, then the sentences the
    semantic check was asked about (what a shipped VectorPack must hold)."""
    path = Path(path)
    asked: list[str] = []
    judge = second_opinion(known)
    recording: SecondOpinion | None = None
    if judge is not None:
        check = judge

        def recording(texts: list[str]) -> list[bool]:
            asked.extend(texts)
            return check(texts)

    parsed = parse(path, path.read_bytes(), judge=recording)
    new_chunks = chunk(parsed.paragraphs)
    return [
        *(_embedding_text(parsed.title, c) for c in new_chunks),
        *(text for c in new_chunks for text in section_texts(parsed.title, c)),
        *asked,
    ]


# ----------------------------------------------------------------------------- entry point


def _refuse_if_in_flight(conn, org_id: UUID, source_name: str) -> None:
    """Replacing the chunks in one go would delete the ones a background upload of the same document is
    staging (and that upload's settle would then undo this): one of the two is refused, before any write."""
    if ingestions.in_flight_named(conn, org_id, source_name) is not None:
        raise IngestError(
            "an upload of this document is still being ingested in the background; nothing was "
            "changed (run this again once it is done)",
            "in_flight",
        )


def ingest_file(
    pool: ConnectionPool,
    org_id: UUID,
    path: str | Path,
    *,
    uploaded_by: UUID | None = None,
    source_name: str | None = None,
    data: bytes | None = None,
    known_vectors: VectorPack | None = None,
) -> IngestResult:
    """Ingest one file (or ``data`` under the name ``source_name``, for uploads).

    ``known_vectors`` (shipped with seeds) are used for the chunks they hold; the rest are embedded.
    """
    path = Path(path)
    source_name = source_name or path.name
    if data is None:
        if not path.is_file():
            raise IngestError(f"no such file: {path}")
        if path.stat().st_size > max_upload_bytes():
            raise IngestError(
                f"the file is {path.stat().st_size / 1_048_576:.1f} MB; the limit is "
                f"{max_upload_bytes() / 1_048_576:.0f} MB (SKILLNET_MAX_UPLOAD_MB)"
            )
        data = path.read_bytes()
    content_hash = hashlib.sha256(data).hexdigest()

    with pool.connection() as conn:
        same = documents.find_by_hash(conn, org_id, content_hash)
        if same is None:
            _refuse_if_in_flight(conn, org_id, source_name)  # before spending minutes embedding
    if same is not None:
        return IngestResult(same.id, same.title, same.page_count, same.chunk_count, same.language, "unchanged")

    parsed, language, new_chunks = parse_and_chunk(source_name, data, known_vectors)
    vectors, section_vectors = embed_chunks(parsed.title, new_chunks, known=known_vectors)

    with pool.connection() as conn:
        ingestions.lock_source_name(conn, org_id, source_name)
        _refuse_if_in_flight(conn, org_id, source_name)  # again: an upload may have been queued meanwhile
        previous = documents.find_by_source_name(conn, org_id, source_name)
        old_chunks = documents.document_chunks(conn, org_id, previous.id) if previous else []
        document_id = documents.save_document(
            conn,
            org_id,
            source_name=source_name,
            title=parsed.title,
            mime_type=MIME_TYPES[Path(source_name).suffix.lower()],
            full_text=parsed.full_text,
            page_count=parsed.page_count,
            language=language,
            ts_config=TS_CONFIGS.get(language, "simple"),
            content_hash=content_hash,
            chunks=new_chunks,
            embeddings=vectors,
            section_embeddings=section_vectors,
            uploaded_by=uploaded_by,
        )
        flagged_passages.record(conn, org_id, document_id, parsed.flagged, new_chunks)
        source_changes.flag_stale_content(conn, org_id, document_id, old_chunks)  # lessons citing what changed
    return IngestResult(
        document_id, parsed.title, parsed.page_count, len(new_chunks), language, "replaced" if previous else "ingested"
    )
