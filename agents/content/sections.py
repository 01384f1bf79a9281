"""A source's sections: chunks regrouped under the headings ingestion recorded (numbered headings nested as
their numbers say), their text cleaned of markup a lesson must not show, and the citation of a section."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field


@dataclass
class Section:
    """One heading's text in one document, with the chunks it lies in (``texts[i]`` is its part of
    ``chunk_ids[i]``: a chunk can hold several small sections)."""

    document_id: str
    document_title: str
    heading: str  # the last part of the heading path
    path: str  # "A > B > C"
    page: int | None
    chunk_ids: list[str] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)
    position: int = 0

    @property
    def key(self) -> str:
        return f"{self.document_id}:{self.position}"

    @property
    def level(self) -> int:
        return max(1, self.path.count(" > ") + 1) if self.path else 1

    @property
    def parts(self) -> list[str]:
        return [p.strip() for p in self.path.split(" > ")] if self.path else []

    @property
    def text(self) -> str:
        return "\n\n".join(self.texts)


_TAG = re.compile(r"</?[A-Za-z][^<>\n]{0,300}>|<!--.*?-->", re.DOTALL)


_MD_LINK = re.compile(r"!?\[([^\]\n]+)\]\([^)\s]*\)")


_LIQUID = re.compile(r"\{%.*?%\}|\{\{.*?\}\}", re.DOTALL)


_INLINE_BULLET = re.compile(r"(?:^|\s)[•▪]\s+")


# a PDF's running footer ("Acme Retail · POL-SEC-001 · Page 6/8") read into the text
_PAGE_FOOTER = re.compile(
    r"\s*(?:[^\s·.!?:][^·\n.!?:]{0,40}\s·\s){1,3}(?:Page|Página|Pág\.?|p\.)\s?\d+\s?(?:/|de|of)\s?\d+\b", re.IGNORECASE
)


_INLINE_NUMBER = re.compile(r"(?<=[.:;])\s+(\d{1,2})\)\s+(?=[A-ZÁÉÍÓÚ¿¡])|(?<=:)\s+(1)\.\s+(?=[A-ZÁÉÍÓÚ¿¡])")


def clean_text(text: str) -> str:
    """Source text without markup a lesson must not show: HTML tags, template tags, link targets; bullets a
    PDF ran together on one line become list lines again."""
    text = _PAGE_FOOTER.sub("", _LIQUID.sub("", _TAG.sub("", text)))
    text = _INLINE_BULLET.sub("\n- ", html.unescape(_MD_LINK.sub(r"\1", text)))
    text = _INLINE_NUMBER.sub(lambda m: f"\n{m.group(1) or m.group(2)}) ", text)
    return text.strip()


def _chunk_parts(chunk, spans: list | None) -> list[tuple[str, str, int | None]]:
    """(heading path, text, page) of each heading's part of the chunk, in order."""
    if not spans:
        return [(chunk.heading or "", chunk.content, chunk.page_start)]
    starts = [int(span[0]) for span in spans] + [len(chunk.content) + 2]
    return [
        (span[1] or "", chunk.content[start:end].strip(), span[2] if span[2] is not None else chunk.page_start)
        for span, start, end in zip(spans, starts, starts[1:])
    ]


def sections_from_chunks(chunks, spans_by_chunk: dict | None = None) -> list[Section]:
    """Chunks (storage.documents.Chunk, in document order) regrouped into the document's sections, using
    the heading spans ingestion recorded (older chunks: one section per chunk heading)."""
    sections: list[Section] = []
    for chunk in chunks:
        for path, raw, page in _chunk_parts(chunk, (spans_by_chunk or {}).get(chunk.id)):
            text = clean_text(raw)
            if not text:
                continue
            current = sections[-1] if sections else None
            if current is None or current.document_id != str(chunk.document_id) or current.path != path:
                heading = path.split(" > ")[-1].strip() if path else chunk.document_title
                current = Section(
                    str(chunk.document_id), chunk.document_title, heading, path, page, position=len(sections)
                )
                sections.append(current)
            current.chunk_ids.append(str(chunk.id))
            current.texts.append(text)
    return nest_numbered(sections)


_HEADING_NUMBER = re.compile(r"^(\d+(?:\.\d+)*)(?:[.)]|\s)")


def nest_numbered(sections: list[Section]) -> list[Section]:
    """Headings numbered "3.1", "3.2" written at the same level as "3." (common in Word and PDF policies)
    become its children, as their numbers say, with whatever lies under them."""
    moved: dict[tuple, list[str]] = {}  # an original path -> the path it became
    numbered: dict[tuple, tuple[list[str], list[str]]] = {}  # (document, number) -> (source parent, new path)
    for section in sections:
        parts = section.parts
        prefix = max(
            (k for k in moved if k[0] == section.document_id and tuple(parts[: len(k) - 1]) == k[1:]),
            key=len,
            default=None,
        )
        if prefix is not None:
            parts = moved[prefix] + parts[len(prefix) - 1 :]
        number = _HEADING_NUMBER.match(parts[-1]) if parts else None
        if number:
            digits = number.group(1)
            parent = numbered.get((section.document_id, digits.rsplit(".", 1)[0])) if "." in digits else None
            if parent is not None and parent[0] == section.parts[:-1]:  # a sibling of its parent number: nest it
                moved[(section.document_id, *section.parts)] = parent[1] + parts[-1:]
                parts = parent[1] + parts[-1:]
            numbered[(section.document_id, digits)] = (section.parts[:-1], parts)
        section.path = " > ".join(parts)
    return sections


def citation(section: Section | dict, language: str) -> str:
    """The citation marker of spec 004 §4.4: [Fuente: documento, sección, pág. N]."""
    doc = section.document_title if isinstance(section, Section) else section["document"]
    heading = section.heading if isinstance(section, Section) else section["section"]
    page = section.page if isinstance(section, Section) else section.get("page")
    # a document's first section is often headed with its title: named once, not "[Source: X, X]"
    where = ", ".join(dict.fromkeys(part for part in (doc, heading) if part))
    if language == "en":
        return f"[Source: {where}" + (f", p. {page}]" if page else "]")
    return f"[Fuente: {where}" + (f", pág. {page}]" if page else "]")


def citation_entry(section: Section, chunk_id: str | None = None) -> dict:
    return {
        "document": section.document_title,
        "section": section.heading,
        "page": section.page,
        "chunk_id": chunk_id or section.chunk_ids[0],
    }
