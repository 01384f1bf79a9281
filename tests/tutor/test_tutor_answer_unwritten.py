"""A question about what the company has never written (issue 29): when half its key terms or more are in none
of the organisation's documents, the tutor says it found nothing instead of answering from a neighbour."""

from __future__ import annotations

from agents.ingestion.pipeline import ingest_file
from agents.tutor.unwritten import about_the_unwritten, unwritten
from core.turns import Grounding
from storage import documents
from tests.tutor.conftest import by_name, run


def test_a_term_counts_as_written_through_its_stem_or_its_gloss():
    written = frozenset({"vaca", "holi", "leav"})  # "vacaciones", "holiday", "leave"
    assert unwritten(["vacaciones", "gimnasio"], written) == ["gimnasio"]
    assert unwritten(["holidays"], written) == []


def test_the_bicycle_question_is_not_answered_with_the_payday_sentence(seeded_pool, lucia):
    """Before: "Según el material de la empresa: Salaries are paid by bank transfer on the last working day…"
    (the onboarding guide covered "empresa", "paga", "trabajo"; no document says "bicicleta" or "venir")."""
    events, _ = run(lucia, "¿La empresa paga una bicicleta para venir al trabajo?", seeded_pool)
    assert by_name(events, Grounding).rung == "general"


def test_a_document_upload_changes_what_is_written(seeded_pool, lucia, tmp_path):
    question = "¿Hay descuento en el gimnasio para los empleados?"
    assert about_the_unwritten(seeded_pool, lucia.org_id, question)
    page = tmp_path / "gimnasio.md"
    page.write_text("# Gimnasio\n\nLos empleados tienen un 20 % de descuento en el gimnasio Vital.\n", encoding="utf-8")
    added = ingest_file(seeded_pool, lucia.org_id, page)
    try:
        assert not about_the_unwritten(seeded_pool, lucia.org_id, question)
    finally:
        with seeded_pool.connection() as conn:
            documents.delete_document(conn, lucia.org_id, added.document_id)
    assert about_the_unwritten(seeded_pool, lucia.org_id, question)
