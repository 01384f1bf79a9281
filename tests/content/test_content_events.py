"""A generation job's events read as sentences in the admin's language (agents/content/events.py): every event
type the content code writes has its catalogue message, and no event stores a sentence of its own."""

from __future__ import annotations

import re
import uuid
from datetime import UTC, datetime
from pathlib import Path

import pytest

from agents.content.events import event_line
from storage.jobs import Event

CONTENT = Path(__file__).resolve().parents[2] / "agents" / "content"
WRITTEN = re.compile(r"""(?:add_event\(\s*(?:conn,\s*)?[^"]*?|ctx\.event\(\s*state,\s*)"(\w+)",\s*(\{[^}]*\})""", re.S)


def _written() -> dict[str, str]:
    """Each event type the content code writes, with the data literal it writes."""
    found = {}
    for path in CONTENT.glob("*.py"):
        for kind, data in WRITTEN.findall(path.read_text(encoding="utf-8")):
            found[kind] = data
    return found


def test_the_content_code_writes_the_event_types_the_studio_reads():
    assert {"queued", "run", "step", "progress", "review_result", "awaiting_review", "completed"} <= set(_written())


@pytest.mark.parametrize("kind", sorted(_written()))
@pytest.mark.parametrize("lang", ["es", "en"])
def test_every_event_type_reads_as_a_sentence(kind, lang):
    data = {"step": "extracting"} if kind == "step" else {}  # a step names itself
    line = event_line(Event(1, uuid.uuid4(), kind, data, datetime.now(UTC)), lang)
    assert line and not line.startswith(("Evento:", "Event:")), (kind, line)
    assert "{" not in line and "_" not in line, line  # no placeholder, no code left in it


def test_events_store_codes_and_figures_never_sentences():
    assert not [kind for kind, data in _written().items() if '"message_en"' in data or "Curso" in data]


def test_a_job_waiting_for_its_uploads_says_so():
    """A job started from an upload read "En cola con 0 documentos." (session 17's walk): its document does not
    exist until the upload is read."""
    data = {"documents": 0, "uploads": 1}
    assert '"uploads"' in _written()["queued"]
    lines = {lang: event_line(Event(1, uuid.uuid4(), "queued", data, datetime.now(UTC)), lang) for lang in ("es", "en")}
    assert lines == {
        "es": "En cola: 1 subida por leer primero, 0 documentos ya en la biblioteca.",
        "en": "Queued: 1 upload to read first, 0 documents already in the library.",
    }
