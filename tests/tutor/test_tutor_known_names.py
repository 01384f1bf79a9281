"""Which names the tutor's chips may offer (chip_questions.known_names), asked every grounded turn: the organisation's
section headings are read once per corpus signature, so a turn reads no chunk, and a new document's sections are
known at the next turn."""

from __future__ import annotations

from agents.tutor.chip_questions import known_names

NAMES = ["3.2 Approval limits", "3. refunds", "Returns and Refunds Policy", "No such heading", "Bicycle parking"]


def _chunk_rows_read(conn) -> int:
    """Rows of document_chunks this transaction has read so far (sequential and index scans)."""
    row = conn.execute(
        "SELECT coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0) FROM pg_stat_xact_user_tables"
        " WHERE relname = 'document_chunks'"
    ).fetchone()
    return row[0] if row else 0


def test_a_turns_known_names_read_no_chunk(seeded_pool, james):
    with seeded_pool.connection() as conn:
        known_names(conn, james.org_id, NAMES)  # the headings, read once for this corpus
        before = _chunk_rows_read(conn)
        known = known_names(conn, james.org_id, NAMES)
        assert _chunk_rows_read(conn) == before  # every chunk's section paths were read each turn (240 ms at 50k)
    # a section, a part of a section's path (any case), a document's title; not what no document has
    assert known == {"3.2 Approval limits", "3. refunds", "Returns and Refunds Policy"}


def test_a_new_documents_sections_are_known_at_the_next_turn(seeded_pool, james, tmp_path):
    from agents.ingestion.pipeline import ingest_file

    with seeded_pool.connection() as conn:
        assert "Bicycle parking" not in known_names(conn, james.org_id, NAMES)
    path = tmp_path / "site_rules.md"
    path.write_text(
        "# Site Rules\n\n## Bicycle parking\n\nBicycles are parked in the covered rack beside the loading bay.\n",
        encoding="utf-8",
    )
    ingest_file(seeded_pool, james.org_id, path)
    with seeded_pool.connection() as conn:
        assert "Bicycle parking" in known_names(conn, james.org_id, NAMES)
