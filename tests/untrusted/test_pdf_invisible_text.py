"""Text a PDF reader cannot see never becomes content, as for DOCX: white text on the white page, render
mode 3 (neither filled nor stroked), a fully transparent fill, a 1-pt font, text placed outside the page
or outside its clipping path, and any of these inside a form XObject. White text on a coloured box or on
an image is what a reader sees, and it stays. PDFs are built here with fpdf2 and
parsed through the ingestion's own entry (agents.ingestion.pipeline.parse)."""

from __future__ import annotations

from io import BytesIO
from pathlib import Path

import pytest
from fpdf import FPDF
from PIL import Image
from pypdf import PdfReader, PdfWriter
from pypdf.generic import ArrayObject, ContentStream, DecodedStreamObject, DictionaryObject, FloatObject, NameObject

from agents.ingestion import parsers
from agents.ingestion.pipeline import parse

SECRET = "The night porter keeps the spare key under the blue mat"  # neutral: no instruction filter involved
VISIBLE = ("Hotels cost at most 120 euros a night.", "Receipts go to finance within 30 days.")


def _pdf(hide) -> bytes:
    pdf = FPDF()
    pdf.set_title("Travel policy")
    pdf.add_page()
    pdf.set_font("Helvetica", size=12)
    pdf.multi_cell(0, 6, VISIBLE[0], new_x="LMARGIN", new_y="NEXT")
    hide(pdf)
    pdf.set_xy(pdf.l_margin, 120)
    pdf.multi_cell(0, 6, VISIBLE[1], new_x="LMARGIN", new_y="NEXT")
    return bytes(pdf.output())


def _secret(pdf: FPDF, **context) -> None:
    with pdf.local_context(**context):
        pdf.multi_cell(0, 6, f"{SECRET}.", new_x="LMARGIN", new_y="NEXT")


HIDINGS = {
    "white": lambda pdf: _secret(pdf, text_color=(255, 255, 255)),
    "render mode 3": lambda pdf: _secret(pdf, text_mode="INVISIBLE"),
    "transparent": lambda pdf: _secret(pdf, fill_opacity=0),
    "1-pt font": lambda pdf: _secret(pdf, font_size_pt=1),
    "outside the page": lambda pdf: pdf.text(-600, 100, f"{SECRET}."),
    "below the page": lambda pdf: pdf.text(20, 400, f"{SECRET}."),
    "clipped away": lambda pdf: _clipped(pdf, x=10, y=250),
}


def _clipped(pdf: FPDF, x: float, y: float, size: float = 5) -> None:
    with pdf.rect_clip(x=x, y=y, w=size, h=size):
        pdf.text(20, 100, f"{SECRET}.")


def _with_form(data: bytes, colour: bytes) -> bytes:
    """``data`` with the secret drawn from a form XObject (reused content, as pypdf's extraction follows it)."""
    writer = PdfWriter(clone_from=PdfReader(BytesIO(data)))
    page = writer.pages[0]
    form = DecodedStreamObject()
    form.set_data(b"BT /F1 12 Tf " + colour + b" rg 60 500 Td (" + SECRET.encode() + b".) Tj ET")
    form.update(
        {
            NameObject("/Type"): NameObject("/XObject"),
            NameObject("/Subtype"): NameObject("/Form"),
            NameObject("/BBox"): ArrayObject([FloatObject(v) for v in (0, 0, 595, 842)]),
            NameObject("/Resources"): page["/Resources"].indirect_reference or page["/Resources"],
        }
    )
    page["/Resources"][NameObject("/XObject")] = DictionaryObject({NameObject("/Fm1"): writer._add_object(form)})
    content = ContentStream(page.get_contents(), writer)
    content.operations += [([], b"q"), ([NameObject("/Fm1")], b"Do"), ([], b"Q")]
    page.replace_contents(content)
    out = BytesIO()
    writer.write(out)
    return out.getvalue()


def _on_image(pdf: FPDF) -> None:
    pdf.image(Image.new("RGB", (40, 8), (20, 40, 120)), x=pdf.l_margin, y=60, w=180, h=10)
    with pdf.local_context(text_color=(255, 255, 255)):
        pdf.text(pdf.l_margin + 2, 67, f"{SECRET}.")


def _text(data: bytes) -> str:
    parsed = parse(Path("policy.pdf"), data)
    return parsed.title + "\n" + parsed.full_text


@pytest.mark.parametrize("hiding", HIDINGS)
def test_invisible_pdf_text_is_dropped_and_the_visible_text_kept(hiding):
    text = _text(_pdf(HIDINGS[hiding]))
    assert SECRET not in text
    assert all(sentence in text for sentence in VISIBLE) and text.startswith("Travel policy")


def test_text_in_a_form_xobject_is_read_as_the_page_is():
    """White text drawn through a form is dropped; the same form in navy is kept (pypdf extracts both)."""
    plain = _pdf(lambda pdf: None)
    assert SECRET not in _text(_with_form(plain, b"1 1 1"))
    shown = _text(_with_form(plain, b"0 0 0.35"))
    assert SECRET in shown and all(sentence in shown for sentence in VISIBLE)


def _banner(pdf: FPDF) -> None:
    with pdf.local_context(fill_color=(20, 40, 120), text_color=(255, 255, 255)):
        pdf.multi_cell(0, 8, f"{SECRET}.", fill=True, new_x="LMARGIN", new_y="NEXT")


SHOWN = {
    "plain": lambda pdf: _secret(pdf),
    "small and coloured": lambda pdf: _secret(pdf, text_color=(0, 0, 90), font_size_pt=7),
    "white on a dark box": _banner,
    "white on a dark image": _on_image,
    "inside its clipping path": lambda pdf: _clipped(pdf, x=0, y=0, size=290),
}


@pytest.mark.parametrize("shown", SHOWN)
def test_text_a_reader_sees_is_kept(shown):
    text = _text(_pdf(SHOWN[shown]))
    assert SECRET in text and all(sentence in text for sentence in VISIBLE)


def test_the_check_can_fail(monkeypatch):
    """Planted defect: without the rewrite, pypdf reads the white text like any other."""
    monkeypatch.setattr(parsers, "drop_invisible_text", lambda page, reader: 0)
    assert SECRET in _text(_pdf(HIDINGS["white"]))
    assert SECRET in _text(_pdf(HIDINGS["clipped away"]))
    assert SECRET in _text(_with_form(_pdf(lambda pdf: None), b"1 1 1"))
