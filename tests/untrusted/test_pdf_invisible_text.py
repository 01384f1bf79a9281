"""Text a PDF reader cannot see never becomes content, as for DOCX: white text on the white page, render
mode 3 (neither filled nor stroked), a fully transparent fill, a 1-pt font, text placed outside the page.
White text on a coloured box is what a reader sees, and it stays. PDFs are built here with fpdf2 and
parsed through the ingestion's own entry (agents.ingestion.pipeline.parse)."""

from __future__ import annotations

from pathlib import Path

import pytest
from fpdf import FPDF

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
}


def _text(data: bytes) -> str:
    parsed = parse(Path("policy.pdf"), data)
    return parsed.title + "\n" + parsed.full_text


@pytest.mark.parametrize("hiding", HIDINGS)
def test_invisible_pdf_text_is_dropped_and_the_visible_text_kept(hiding):
    text = _text(_pdf(HIDINGS[hiding]))
    assert SECRET not in text
    assert all(sentence in text for sentence in VISIBLE) and text.startswith("Travel policy")


def _banner(pdf: FPDF) -> None:
    with pdf.local_context(fill_color=(20, 40, 120), text_color=(255, 255, 255)):
        pdf.multi_cell(0, 8, f"{SECRET}.", fill=True, new_x="LMARGIN", new_y="NEXT")


SHOWN = {
    "plain": lambda pdf: _secret(pdf),
    "small and coloured": lambda pdf: _secret(pdf, text_color=(0, 0, 90), font_size_pt=7),
    "white on a dark box": _banner,
}


@pytest.mark.parametrize("shown", SHOWN)
def test_text_a_reader_sees_is_kept(shown):
    text = _text(_pdf(SHOWN[shown]))
    assert SECRET in text and all(sentence in text for sentence in VISIBLE)


def test_the_check_can_fail(monkeypatch):
    """Planted defect: without the rewrite, pypdf reads the white text like any other."""
    monkeypatch.setattr(parsers, "drop_invisible_text", lambda page, reader: 0)
    assert SECRET in _text(_pdf(HIDINGS["white"]))
