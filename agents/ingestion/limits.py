"""Limits that keep one document from taking the machine: unpacked size, XML entities, pages, passages.

A DOCX is a zip of XML parts. Only its compressed size was capped, so a 329 KB file unpacked to
73.7 MB of text (54,000 passages); and an XML part may declare entities that expand
exponentially ("billion laughs"). ``check_docx`` unpacks every part as a stream against one byte
budget (a lying size header does not help) and refuses any DTD before python-docx parses a byte.
Refusals are ``IngestError``s with a ``code`` (``safety.doc_<code>`` in the catalogue) and one line.
"""

from __future__ import annotations

import io
import zipfile
import zlib

from core import config

_READ_BLOCK = 1 << 20


class LimitExceeded(ValueError):
    """A document over one of the limits; ``code`` names it, ``params`` fill the message."""

    def __init__(self, code: str, message: str, **params: object):
        super().__init__(message)
        self.code = code
        self.params = params


def max_decompressed_bytes() -> int:
    return int(config.get("SKILLNET_MAX_DECOMPRESSED_MB") * 1024 * 1024)


def max_pages() -> int:
    return config.get("SKILLNET_MAX_PAGES")


def max_chunks() -> int:
    return config.get("SKILLNET_MAX_CHUNKS_PER_DOCUMENT")


def _too_big(limit: int) -> LimitExceeded:
    limit_mb = round(limit / 1_048_576, 1)
    return LimitExceeded(
        "decompressed_too_big",
        f"the document unpacks to more than {limit_mb:g} MB (SKILLNET_MAX_DECOMPRESSED_MB); refused before parsing",
        limit_mb=f"{limit_mb:g}",
    )


def _declares_entities(part: bytes) -> bool:
    # NULs dropped so UTF-16 parts are searched too; no part of a Word document needs a DTD.
    text = part.replace(b"\x00", b"").lower()
    return b"<!doctype" in text or b"<!entity" in text


def check_docx(data: bytes) -> None:
    """Refuses a DOCX whose parts unpack past the budget or declare XML entities; returns otherwise."""
    limit = max_decompressed_bytes()
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile:
        return  # not a zip: python-docx says so in its own one line
    with archive:
        infos = archive.infolist()
        if sum(info.file_size for info in infos) > limit:
            raise _too_big(limit)
        budget = limit
        for info in infos:
            if not info.filename.lower().endswith((".xml", ".rels")):
                budget -= info.file_size  # media: counted by header only, python-docx does not unpack it
                continue
            chunks = []
            try:
                with archive.open(info) as stream:
                    while block := stream.read(_READ_BLOCK):
                        budget -= len(block)
                        if budget < 0:
                            raise _too_big(limit)
                        chunks.append(block)
            except (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError, RuntimeError):
                return  # a damaged or encrypted part: python-docx refuses the file in its own one line
            if _declares_entities(b"".join(chunks)):
                raise LimitExceeded(
                    "xml_entities",
                    "the document declares XML entities (a DTD), which Word "
                    "documents never need; refused before parsing",
                )


def check_pages(count: int) -> None:
    if count > max_pages():
        raise LimitExceeded(
            "too_many_pages",
            f"the document has {count} pages; the limit is {max_pages()} (SKILLNET_MAX_PAGES)",
            limit=max_pages(),
        )


def check_chunks(count: int) -> None:
    if count > max_chunks():
        raise LimitExceeded(
            "too_many_chunks",
            f"the document makes {count} passages; the limit is {max_chunks()} "
            "(SKILLNET_MAX_CHUNKS_PER_DOCUMENT); split it",
            limit=max_chunks(),
        )
