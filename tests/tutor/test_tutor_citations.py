"""Citations point at the section a sentence comes from, even where small sections share one chunk; the
viewer marks that sentence (not the chunk) and names its heading."""

from __future__ import annotations

from pathlib import Path

from agents.ingestion.backfill import backfill_heading_spans
from agents.ingestion.pipeline import ingest_file
from agents.retrieval import Passage
from agents.retrieval.chunk_sections import cited_sentences, sentence_spans
from agents.tutor.citations import pinpoint
from agents.tutor.sources import lesson_sources, open_source
from storage import sources, users
from storage.users import ensure_org
from tests.conftest import make_deps
from ui.source_html import source_html

POLICY = """# Uniform Policy

## 1. Badges

Wear your badge at all times inside the store, clipped at chest height.

## 2. Shoes

Closed non-slip shoes are mandatory in the warehouse and the stockroom.

## 3. Lockers

Personal belongings stay in the staff lockers, which are emptied every Friday evening. Padlocks are
provided by the store manager on request.
"""


def test_a_sentence_from_a_merged_section_is_cited_with_its_own_heading(pool, tmp_path):
    path = tmp_path / "uniform_policy.md"
    path.write_text(POLICY, encoding="utf-8")
    with pool.connection() as conn:
        org = ensure_org(conn, "citations")
    result = ingest_file(pool, org.id, path)
    with pool.connection() as conn:
        chunks = sources.document_chunks_by_document(conn, org.id, result.document_id)
        assert len(chunks) == 1 and len(chunks[0].heading_spans) == 3, "the three sections share one chunk"
        passage = Passage(
            index=1,
            document="Uniform Policy",
            section="1. Badges",
            page=None,
            source_type="document_chunk",
            source_id=str(chunks[0].id),
            text=chunks[0].content,
        )
        for sentence, heading in (
            ("Closed non-slip shoes are mandatory in the warehouse [1].", "2. Shoes"),
            ("Lockers are emptied every Friday evening [1].", "3. Lockers"),
            ("Wear your badge at chest height [1].", "1. Badges"),
        ):
            [citation] = pinpoint(conn, org.id, sentence, [passage])
            assert citation.section == heading, (sentence, citation)
            assert citation.source_id == str(chunks[0].id)


def test_chunks_stored_before_heading_spans_get_them_from_their_original_once(pool, tmp_path):
    """Chunks written before migration 050 have no heading spans (a citation fell back to the chunk's first
    heading): the startup backfill chunks the original file again and fills them, and only them."""
    (tmp_path / "uniform_policy.md").write_text(POLICY, encoding="utf-8")
    (tmp_path / "edited_policy.md").write_text(POLICY.replace("Friday", "Monday"), encoding="utf-8")
    with pool.connection() as conn:
        org = ensure_org(conn, "backfill")
    kept = ingest_file(pool, org.id, tmp_path / "uniform_policy.md")
    edited = ingest_file(pool, org.id, tmp_path / "edited_policy.md")
    with pool.connection() as conn:
        [before] = sources.document_chunks_by_document(conn, org.id, kept.document_id)
        conn.execute("UPDATE document_chunks SET heading_spans = NULL WHERE org_id = %s", (org.id,))
    (tmp_path / "edited_policy.md").write_text(POLICY + "\n## 4. Coats\n\nCoats hang by the door.\n", encoding="utf-8")

    def originals(name: str) -> Path | None:
        return tmp_path / name if (tmp_path / name).is_file() else None

    assert backfill_heading_spans(pool, originals) == 1  # the edited file is another version: not used
    assert backfill_heading_spans(pool, originals) == 0  # idempotent
    with pool.connection() as conn:
        [after] = sources.document_chunks_by_document(conn, org.id, kept.document_id)
        [untouched] = sources.document_chunks_by_document(conn, org.id, edited.document_id)
    assert [list(span) for span in after.heading_spans] == [list(span) for span in before.heading_spans]
    assert len(after.heading_spans) == 3 and list(untouched.heading_spans) == []


def test_the_cited_sentences_are_found_in_their_passage_and_a_paraphrase_marks_nothing():
    text = (
        "Refunds are made to the original payment method.\n\n"
        "- Gift receipts are valid for **90 days**. They never give cash.\n"
        "| Tier | Limit |\n| Cashier | 200 EUR |\n\n"
        "## 3.3 Exchanges\n\nExchanges need the receipt."
    )
    found = [text[a:b] for a, b in sentence_spans(text)]
    assert found == [
        "Refunds are made to the original payment method.",
        "Gift receipts are valid for **90 days**.",  # the list mark is not part of it
        "They never give cash.",
        "3.3 Exchanges",  # "3.3" does not end a sentence; table rows are no sentences (a mark would cross cells)
        "Exchanges need the receipt.",
    ]
    marked = [text[a:b] for a, b in cited_sentences(text, "Gift receipts are valid for 90 days. They never give cash.")]
    assert marked == ["Gift receipts are valid for **90 days**.", "They never give cash."]
    assert cited_sentences(text, "A present's ticket lasts three months.") == []  # other words: nothing to mark


def test_the_viewer_marks_only_the_cited_sentence_under_its_own_heading(pool, tmp_path):
    path = tmp_path / "uniform_policy.md"
    path.write_text(POLICY, encoding="utf-8")
    with pool.connection() as conn:
        org = ensure_org(conn, "viewer")
        users.ensure_user(
            conn,
            org.id,
            email="reader@viewer.test",
            full_name="Reader",
            role="employee",
            password_hash="",
            department="",
            job_title="",
            language="en",
            is_active=True,
        )
        reader = users.get_user_by_email(conn, "reader@viewer.test")
    result = ingest_file(pool, org.id, path)
    with pool.connection() as conn:
        [chunk] = sources.document_chunks_by_document(conn, org.id, result.document_id)
    quote = "Personal belongings stay in the staff lockers, which are emptied every Friday evening."
    view = open_source(make_deps(pool), reader, chunk=str(chunk.id), quote=quote)

    assert view.heading == "3. Lockers"  # the sentence's section, not the chunk's first ("1. Badges")
    assert [(b.heading, b.cited) for b in view.blocks] == [
        ("1. Badges", False),
        ("2. Shoes", False),
        ("3. Lockers", True),
    ]
    [cited] = [b for b in view.blocks if b.cited]
    assert [cited.text[a:b] for a, b in cited.marks] == [quote]
    html = source_html(view, "en")
    assert html.count('<mark class="sv-quote">') == 1
    assert f'<mark class="sv-quote">{quote}</mark> Padlocks' in " ".join(html.split())  # its neighbour stays unmarked

    whole = open_source(make_deps(pool), reader, chunk=str(chunk.id))  # no sentence given: the chunk is cited
    assert all(b.cited and not b.marks for b in whole.blocks) and "<mark" not in source_html(whole, "en")


def test_a_lessons_sources_name_the_section_of_the_sentence_each_rests_on(seeded_pool):
    """The demo lesson "Nuestros estándares" cites one chunk that packs the title block, §1 and §2 for
    [1]-[3]: stored, each was named after the chunk's first heading (the manual's title)."""
    deps = make_deps(seeded_pool)
    with seeded_pool.connection() as conn:
        lucia = users.get_user_by_email(conn, "lucia@acme.test")
        content, citations = conn.execute(
            "SELECT content_md, citations FROM lessons WHERE title = 'Nuestros estándares'"
        ).fetchone()
    assert citations[1]["section"] == "Manual de Atención al Cliente"  # as stored
    pinned = lesson_sources(deps, lucia, content, citations)
    assert [c["section"] for c in pinned] == ["2. Estándares de servicio"] * 3 + [
        "3. El método ACRE para atender una consulta"
    ]
    view = open_source(deps, lucia, chunk=pinned[1]["chunk_id"], quote=pinned[1]["quote"])
    [cited] = [b for b in view.blocks if b.cited]
    assert [cited.text[a:b] for a, b in cited.marks] == [
        "Por teléfono, contestamos antes del tercer tono y nos presentamos con el nombre de la empresa y "
        "nuestro nombre."
    ]
