"""The "not found" answer's pointer to the closest material (issue 29): a published course and the document
it was made from share a title, and the pointer named it twice ("Closest material: “Compensation for working
extra hours” or “Compensation for working extra hours”", walk6 in session 17)."""

from __future__ import annotations

from agents.runtime.deps import process_embedder
from agents.tutor.answers import grounded


def test_a_title_shared_by_a_course_and_its_document_is_named_once():
    closest = [
        {"title": "Compensation for working extra hours", "kind": "course"},
        {"title": "Compensation for working extra hours", "kind": "document"},
        {"title": "Travel and Expenses Policy", "kind": "document"},
    ]
    for language in ("en", "es"):
        text = grounded(
            "can I claim a taxi home after a late shift?",
            [],
            "general",
            "Acme",
            language,
            closest,
            embedder=process_embedder(),
        )
        assert text.count("Compensation for working extra hours") == 1, text
        assert text.count("Travel and Expenses Policy") == 1, text
