"""File formats -> paragraphs: each parser turns one format (Markdown, text, HTML, DOCX, PDF) into
the document's title and its paragraphs, each with the heading it sits under and its page.

Bad input raises IngestError (one line meant for a person); size and safety limits on the whole
upload are checked by agents.ingestion.pipeline.parse before a parser runs.
"""

from __future__ import annotations

import io
import math
import re
from dataclasses import dataclass
from html.parser import HTMLParser
from typing import Any

from agents.ingestion import limits
from agents.ingestion.escapes import prose_unescaped
from agents.ingestion.pdf_visible import drop_invisible_text
from core.inputs import Refusal, strip_nul
from core.markup import strip_html

_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"  # WordprocessingML elements
_MD_HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$")


class IngestError(Refusal):
    """A file that cannot be ingested; ``code`` words it as ``safety.doc_<code>`` (the CLI's missing-file
    line has none)."""


@dataclass(frozen=True)
class Paragraph:
    text: str
    heading: str
    page: int | None


@dataclass(frozen=True)
class ParsedDocument:
    title: str
    paragraphs: list[Paragraph]
    page_count: int
    flagged: tuple[dict, ...] = ()  # instruction-like sentences taken out: {heading, page, family, text, near}

    @property
    def full_text(self) -> str:
        return "\n\n".join(p.text for p in self.paragraphs)


def _markdown_paragraphs(text: str, page: int | None = None) -> tuple[str | None, list[Paragraph]]:
    """Paragraphs under their heading path; returns the first H1 too."""
    first_h1: str | None = None
    headings: list[str] = []
    paragraphs: list[Paragraph] = []
    buffer: list[str] = []

    def flush():
        block = "\n".join(buffer).strip()
        if block:
            paragraphs.append(Paragraph(block, " > ".join(headings), page))
        buffer.clear()

    for line in text.splitlines():
        match = _MD_HEADING.match(line)
        if match:
            flush()
            level, title = len(match.group(1)), match.group(2).strip()
            if level == 1 and first_h1 is None:
                first_h1 = title
            headings[:] = headings[: level - 1] + [title]
        elif not line.strip():
            flush()
        else:
            buffer.append(line)
    flush()
    return first_h1, paragraphs


def _decode(data: bytes) -> str:
    try:
        return strip_nul(data.decode("utf-8-sig"))  # PostgreSQL text cannot hold NUL
    except UnicodeDecodeError:
        raise IngestError("the file is not valid UTF-8 text; save it as UTF-8 and try again", "not_utf8") from None


def _parse_markdown(data: bytes, stem: str) -> ParsedDocument:
    h1, paragraphs = _markdown_paragraphs(prose_unescaped(strip_html(_decode(data))))  # comments may span paragraphs
    return ParsedDocument(h1 or stem, paragraphs, _estimated_pages(paragraphs))


def _parse_text(data: bytes, stem: str) -> ParsedDocument:
    paragraphs = [Paragraph(block.strip(), "", None) for block in re.split(r"\n\s*\n", _decode(data)) if block.strip()]
    return ParsedDocument(stem, paragraphs, _estimated_pages(paragraphs))


class _HtmlToMarkdown(HTMLParser):
    BLOCKS = frozenset({"p", "div", "li", "tr", "br", "section", "article", "table", "ul", "ol", "blockquote", "pre"})
    SKIP = frozenset({"script", "style", "head", "nav", "noscript"})

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.out, self.skipping, self.title = [], 0, None
        self._in_title = False

    def handle_starttag(self, tag, attrs):
        if tag in self.SKIP:
            self.skipping += 1
        elif tag == "title":
            self._in_title = True
        elif re.fullmatch(r"h[1-6]", tag):
            self.out.append("\n\n" + "#" * int(tag[1]) + " ")
        elif tag in self.BLOCKS:
            self.out.append("\n\n")

    def handle_endtag(self, tag):
        if tag in self.SKIP:
            self.skipping = max(0, self.skipping - 1)
        elif tag == "title":
            self._in_title = False
        elif re.fullmatch(r"h[1-6]", tag) or tag in self.BLOCKS:
            self.out.append("\n\n")

    def handle_data(self, data):
        if self._in_title:
            self.title = (self.title or "") + data.strip()
        elif not self.skipping:
            self.out.append(re.sub(r"\s+", " ", data))


def _parse_html(data: bytes, stem: str) -> ParsedDocument:
    parser = _HtmlToMarkdown()
    parser.feed(strip_html(_decode(data), keep_visible_tags=True))  # hidden elements and comments go
    h1, paragraphs = _markdown_paragraphs("".join(parser.out))
    return ParsedDocument(h1 or parser.title or stem, paragraphs, _estimated_pages(paragraphs))


def _parse_docx(data: bytes, stem: str) -> ParsedDocument:
    import zipfile

    import docx
    from docx.opc.exceptions import PackageNotFoundError

    try:
        document = docx.Document(io.BytesIO(data))
    except (PackageNotFoundError, zipfile.BadZipFile, KeyError, ValueError, OSError) as exc:
        raise IngestError(
            "the DOCX file is corrupt or not a Word document", "unreadable", reason=type(exc).__name__
        ) from None
    lines, h1 = [], None
    white_page = _page_is_white(document)
    styles = _Styles(document)
    for paragraph in document.paragraphs:
        paragraph_style = styles.of_paragraph(paragraph)
        text = _visible_text(paragraph, paragraph_style, styles, white_page).strip()
        style = (paragraph_style.name if paragraph_style else "") or ""
        level = 1 if style == "Title" else int(style.split()[-1]) if re.fullmatch(r"Heading \d", style) else 0
        if level and text:
            h1 = h1 or (text if level == 1 else None)
            lines.append("#" * level + " " + text)
        else:
            lines.append(text)
        lines.append("")
    _, paragraphs = _markdown_paragraphs("\n".join(lines))
    title = h1 or (document.core_properties.title or "").strip() or stem
    return ParsedDocument(title, paragraphs, _estimated_pages(paragraphs))


def _style_hides(style) -> bool:
    """A paragraph or character style (or one it is based on) marked hidden."""
    while style is not None:
        if style.font.hidden is not None:
            return bool(style.font.hidden)
        style = style.base_style
    return False


class _Styles:
    """A document's styles, each looked up once: python-docx's ``paragraph.style`` and ``run.style`` scan every
    style of the document for the default one on each call (over a second for the demo's two DOCX files)."""

    def __init__(self, document) -> None:
        from docx.enum.style import WD_STYLE_TYPE

        self._part = document.part
        self._paragraph, self._character = WD_STYLE_TYPE.PARAGRAPH, WD_STYLE_TYPE.CHARACTER
        self._found: dict[tuple[str | None, object], Any] = {}

    def of_paragraph(self, paragraph):
        return self._style(paragraph._p.style, self._paragraph)

    def of_run(self, run):
        return self._style(run._r.style, self._character)

    def _style(self, style_id: str | None, kind: object):
        if (style_id, kind) not in self._found:
            self._found[style_id, kind] = self._part.get_style(style_id, kind)
        return self._found[style_id, kind]


def _run_hidden(run, paragraph_hidden: bool, styles: _Styles, white_page: bool) -> bool:
    """Text Word does not show: hidden (w:vanish, its own or its style's; w:webHidden), white on a white
    page with no highlight or shading, or at most 1.5 pt."""
    font = run.font
    run_style = styles.of_run(run)
    hidden = (
        font.hidden
        if font.hidden is not None
        else (
            _style_hides(run_style) if run_style is not None and run_style.font.hidden is not None else paragraph_hidden
        )
    )
    if hidden or font.web_hidden:
        return True
    shaded = font.highlight_color is not None or run._r.find(f"{_W}rPr/{_W}shd") is not None
    white = font.color is not None and font.color.type is not None and str(font.color.rgb) == "FFFFFF"
    return (white_page and white and not shaded) or (font.size is not None and font.size.pt <= 1.5)


def _visible_text(paragraph, paragraph_style, styles: _Styles, white_page: bool) -> str:
    """The paragraph's text as Word shows it: runs (and hyperlinks' runs) that draw nothing left out."""
    paragraph_hidden = _style_hides(paragraph_style) if paragraph_style is not None else False
    parts = []
    for item in paragraph.iter_inner_content():
        for run in getattr(item, "runs", None) or [item]:
            if not _run_hidden(run, paragraph_hidden, styles, white_page):
                parts.append(run.text)
    return "".join(parts)


def _page_is_white(document) -> bool:
    """No page colour, or a white one (a dark page makes white text the readable kind)."""
    background = document.element.find(f"{_W}background")
    colour = background.get(f"{_W}color") if background is not None else None
    return colour is None or colour.upper() in ("FFFFFF", "AUTO")


def _looks_like_heading(line: str, next_line: str | None) -> bool:
    stripped = line.strip()
    if not stripped or len(stripped) > 90 or stripped[-1] in ".,;:" or next_line is None:
        return False
    numbered = re.match(r"^(\d+(\.\d+)*\.?|[IVX]+\.)\s+\S", stripped)
    return bool(numbered) or (
        stripped[0].isupper() and len(stripped.split()) <= 10 and len(next_line.strip()) > len(stripped)
    )


def _parse_pdf(data: bytes, stem: str) -> ParsedDocument:
    from pypdf import PdfReader
    from pypdf.errors import PdfReadError

    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted:
            raise IngestError("the PDF is encrypted; remove the password and upload it again", "pdf_encrypted")
        limits.check_pages(len(reader.pages))  # before extracting any text
        for page in reader.pages:
            drop_invisible_text(page, reader)
        pages = [strip_nul(page.extract_text() or "") for page in reader.pages]
        metadata_title = strip_nul(str(reader.metadata.get("/Title") or "") if reader.metadata else "").strip()
    except (IngestError, limits.LimitExceeded):
        raise
    except (PdfReadError, ValueError, KeyError, TypeError, OSError) as exc:
        raise IngestError("the PDF is corrupt or unreadable", "unreadable", reason=type(exc).__name__) from None
    if not pages:
        raise IngestError("the PDF has no pages", "pdf_no_pages")
    if sum(len(text.strip()) for text in pages) < 20:
        raise IngestError("the PDF has no text layer (a scanned document?); run OCR on it first", "pdf_no_text")
    paragraphs: list[Paragraph] = []
    heading = ""
    for number, text in enumerate(pages, start=1):
        lines = [line for line in text.splitlines()]
        buffer: list[str] = []
        for i, line in enumerate(lines):
            following = next((l for l in lines[i + 1 :] if l.strip()), None)
            if _looks_like_heading(line, following) and not buffer:
                heading = line.strip()
            elif _looks_like_heading(line, following):
                paragraphs.append(Paragraph(" ".join(buffer), heading, number))
                buffer, heading = [], line.strip()
            elif line.strip():
                buffer.append(line.strip())
            elif buffer:
                paragraphs.append(Paragraph(" ".join(buffer), heading, number))
                buffer = []
        if buffer:
            paragraphs.append(Paragraph(" ".join(buffer), heading, number))
    return ParsedDocument(metadata_title or stem, paragraphs, len(pages))


def _estimated_pages(paragraphs: list[Paragraph]) -> int:
    words = sum(len(p.text.split()) for p in paragraphs)
    return max(1, math.ceil(words / 450))


PARSERS = {
    ".pdf": _parse_pdf,
    ".docx": _parse_docx,
    ".md": _parse_markdown,
    ".markdown": _parse_markdown,
    ".txt": _parse_text,
    ".html": _parse_html,
    ".htm": _parse_html,
}
