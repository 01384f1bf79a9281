"""Running one page script with AppTest, signed in as a given user (shared by the page tests)."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[1]
TEXT_ELEMENTS = ("markdown", "title", "header", "subheader", "caption", "text", "success", "error", "info", "warning")


def open_page(user, page: str, *, query: dict | None = None, timeout: float = 90, **state) -> AppTest:
    """Run ``page`` (a path relative to the repository) signed in as ``user``; fails on an exception."""
    at = AppTest.from_file(str(ROOT / page), default_timeout=timeout)
    at.session_state["user"] = user
    for key, value in state.items():
        at.session_state[key] = value
    for key, value in (query or {}).items():
        at.query_params[key] = value
    at.run()
    assert not at.exception, at.exception
    return at


def texts(at: AppTest) -> str:
    """Every piece of text the page shows, one element a line."""
    return "\n".join(str(e.value) for kind in TEXT_ELEMENTS for e in getattr(at, kind))
