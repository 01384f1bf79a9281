"""No page runs script of its own: the session cookie is set by the server, the source viewer draws HTML only."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_no_streamlit_html_element_is_allowed_to_run_javascript():
    sources = [p for folder in ("pages", "ui") for p in (ROOT / folder).rglob("*.py")] + [ROOT / "app.py"]
    running = [str(p.relative_to(ROOT)) for p in sources if "unsafe_allow_javascript" in p.read_text()]
    assert len(sources) > 30 and running == []
