"""Render the demo documents' Markdown sources (seeds/documents/source/) as PDF and DOCX.

    python -m seeds.build_documents

Writes seeds/documents/<name>.pdf|.docx; the outputs are committed so loading needs no build.
Only the small Markdown subset the sources use is understood: #/##/### headings, "- " bullets,
"1. " or "1) " numbered steps and plain paragraphs.
"""

from __future__ import annotations

import io
import re
import zipfile
from datetime import UTC, datetime
from pathlib import Path
from typing import cast

import docx
from fpdf import FPDF

DOCUMENTS = Path(__file__).parent / "documents"
SOURCES = DOCUMENTS / "source"
FONT_DIR = Path("/usr/share/fonts/truetype/dejavu")
# Fixed timestamps keep rebuilt files byte-stable, so re-ingesting them is a no-op.
BUILD_DATE = datetime(2026, 1, 15, tzinfo=UTC)

OUTPUTS = {  # source stem -> output format
    "information_security_policy": "pdf",
    "manual_seguridad_almacen": "pdf",
    "manual_atencion_cliente": "docx",
    "onboarding_guide": "docx",
}

_STEP = re.compile(r"^(\d+)[.)]\s+(.*)$")


def blocks(markdown: str) -> list[tuple[str, str]]:
    """(kind, text) pairs: h1 | h2 | h3 | bullet | step | para. Steps keep their number in the text."""
    out = []
    for line in markdown.splitlines():
        line = line.strip()
        if not line:
            continue
        if line.startswith("#"):
            level = len(line) - len(line.lstrip("#"))
            out.append((f"h{min(level, 3)}", line.lstrip("# ").strip()))
        elif line.startswith("- "):
            out.append(("bullet", line[2:]))
        elif match := _STEP.match(line):
            out.append(("step", f"{match.group(1)}) {match.group(2)}"))
        else:
            out.append(("para", line))
    return out


def document_code(markdown: str) -> str:
    match = re.search(r"\b[A-Z]{2,4}-[A-Z]{3}-\d{3}\b", markdown)
    return match.group(0) if match else ""


class _PolicyPDF(FPDF):
    def __init__(self, footer_label: str):
        super().__init__(format="A4")
        self.footer_label = footer_label
        self.add_font("DejaVu", "", str(FONT_DIR / "DejaVuSans.ttf"))
        self.add_font("DejaVu", "B", str(FONT_DIR / "DejaVuSans-Bold.ttf"))
        self.set_margins(25, 22, 25)
        self.set_auto_page_break(True, margin=22)

    def footer(self):
        # One short line, last on the page in the content stream (so it never reads as a heading).
        self.set_y(-15)
        self.set_font("DejaVu", "", 8)
        self.cell(0, 8, f"{self.footer_label} {self.page_no()}/{{nb}}", align="C")


def build_pdf(source: Path, target: Path) -> None:
    markdown = source.read_text(encoding="utf-8")
    parts = blocks(markdown)
    title = next(text for kind, text in parts if kind == "h1")
    spanish = "ñ" in markdown or " el " in markdown
    pdf = _PolicyPDF(f"Acme Retail · {document_code(markdown)} · {'Página' if spanish else 'Page'}")
    pdf.set_title(title)
    pdf.set_author("Acme Retail")
    pdf.set_subject(document_code(markdown))
    pdf.set_lang("es-ES" if spanish else "en-GB")
    pdf.set_creation_date(BUILD_DATE)
    pdf.add_page()
    width = pdf.epw
    for kind, text in parts:
        if kind in ("h1", "h2", "h3"):
            size = {"h1": 18, "h2": 13, "h3": 11.5}[kind]
            if pdf.get_y() > pdf.h - 50:  # keep a heading with the text after it
                pdf.add_page()
            pdf.ln(4 if kind != "h1" else 0)
            pdf.set_font("DejaVu", "B", size)
            pdf.multi_cell(width, size * 0.55, text, align="L", new_x="LMARGIN", new_y="NEXT")
            pdf.ln(2)
        else:
            pdf.set_font("DejaVu", "", 10.5)
            indent = 6 if kind in ("bullet", "step") else 0
            pdf.set_x(pdf.l_margin + indent)
            body = f"• {text}" if kind == "bullet" else text
            # fpdf2 types the result as the union over every ``output``; output="LINES" returns the lines
            lines = cast(list[str], pdf.multi_cell(width - indent, 5.6, body, align="L", dry_run=True, output="LINES"))
            if pdf.get_y() + 5.6 * len(lines) > pdf.page_break_trigger:
                # a paragraph never straddles pages: the footer would land in the middle of its text
                pdf.add_page()
            pdf.set_x(pdf.l_margin + indent)
            pdf.multi_cell(width - indent, 5.6, body, align="L", new_x="LMARGIN", new_y="NEXT")
            pdf.ln(1.8)
    pdf.output(str(target))


def build_docx(source: Path, target: Path) -> None:
    markdown = source.read_text(encoding="utf-8")
    document = docx.Document()
    for kind, text in blocks(markdown):
        if kind == "h1":
            document.add_heading(text, level=1)
            document.core_properties.title = text
        elif kind in ("h2", "h3"):
            document.add_heading(text, level=int(kind[1]))
        elif kind == "bullet":
            document.add_paragraph(text, style="List Bullet")
        else:  # steps keep their written number: Word's auto-numbering would not survive text extraction
            document.add_paragraph(text)
    properties = document.core_properties
    properties.author = "Acme Retail"
    properties.subject = document_code(markdown)
    properties.created = properties.modified = BUILD_DATE.replace(tzinfo=None)
    properties.last_modified_by = "Acme Retail"
    properties.revision = 1
    buffer = io.BytesIO()
    document.save(buffer)
    target.write_bytes(_with_fixed_zip_dates(buffer.getvalue()))


def _with_fixed_zip_dates(data: bytes) -> bytes:
    """The same archive with every entry dated BUILD_DATE (python-docx stamps the current time)."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as source, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for entry in source.infolist():
            fixed = zipfile.ZipInfo(entry.filename, date_time=BUILD_DATE.timetuple()[:6])
            fixed.compress_type = zipfile.ZIP_DEFLATED
            target.writestr(fixed, source.read(entry.filename))
    return out.getvalue()


def build_all(out_dir: Path = DOCUMENTS) -> list[Path]:
    built = []
    for stem, kind in OUTPUTS.items():
        target = out_dir / f"{stem}.{kind}"
        (build_pdf if kind == "pdf" else build_docx)(SOURCES / f"{stem}.md", target)
        built.append(target)
    return built


if __name__ == "__main__":
    for path in build_all():
        print(path.relative_to(DOCUMENTS.parent.parent))
