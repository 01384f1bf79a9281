"""Markdown escapes at ingestion (session 14): the TTS leave page's "cannot be recovered \\- please" and
"182 current hours \\+ 154 … \\= 336" reached lessons, exercise options and the tutor's quoted answers with their
backslashes. An escape goes only where its character renders the same without it."""

from __future__ import annotations

from pathlib import Path

from agents.ingestion.escapes import prose_unescaped
from agents.ingestion.pipeline import parse_and_chunk
from core.markup import markdown_html

ROOT = Path(__file__).resolve().parents[2]


def test_a_public_page_is_stored_without_its_escapes():
    path = ROOT / "seeds" / "public" / "tts_leave_types.md"
    _, _, chunks = parse_and_chunk(path.name, path.read_bytes())
    text = "\n".join(chunk.content for chunk in chunks)
    assert "\\" not in text
    assert "Expired award leave cannot be recovered - please monitor" in text
    assert "182 current hours + 154 more hours accrued throughout the year = 336 hours." in text


def test_an_escape_that_means_something_stays():
    kept = [
        "\\- not a list item",  # a line's list marker
        "**\\*Note:** read this",  # unescaped, the emphasis would change
        "costs \\$5 and \\$10",  # maths for Streamlit
        "call `a \\- b` here",  # code
        "```\nfirst\n\nx = a \\- b\n```",  # a fenced block with a blank line inside
        "[not a link]\\(https://example.test)",
    ]
    for text in kept:
        assert prose_unescaped(text) == text, text
    assert prose_unescaped("a \\- b \\+ c \\= d.\n\n1\\. Keep") == "a - b + c = d.\n\n1\\. Keep"
    source = (ROOT / "seeds" / "public" / "tts_travel_guide.md").read_text(encoding="utf-8")
    assert markdown_html(prose_unescaped(source)) == markdown_html(source)
