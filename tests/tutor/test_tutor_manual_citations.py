"""A tutor answer drawn from a passage a published manual was written from cites the manual's section
(``source_type: manual``), in the learner's language, and the citation opens that section highlighted —
in the chat's source panel, the Streamlit source viewer and the Manuals page. (The first test takes ~30 s
at load: five offline turns, the first of which warms the embedder, and one AppTest run of the viewer.)"""

from __future__ import annotations

import json
from pathlib import Path

from streamlit.testing.v1 import AppTest

from agents.tutor.citations import section_path
from agents.tutor.sources import open_source
from core.turns import Citations
from storage import courses, documents, manuals, sources
from storage.users import ensure_org
from tests.conftest import make_deps
from tests.people import upsert_user
from tests.tutor.conftest import by_name, run
from ui.chat_render import render_answer, source_choices
from ui.source_html import source_html

VIEWER = str(Path(__file__).resolve().parents[2] / "pages" / "source_viewer.py")
REFUND = "What is the maximum amount I can refund without asking the store manager?"
LIFTING = "¿Cuál es el peso máximo que puedo levantar a mano?"


def _cited_chunk(user, question, pool) -> dict:
    events, _ = run(user, question, pool)
    [first, *_] = by_name(events, Citations).citations
    assert first["source_type"] == "document_chunk", first
    return first


def _manual(pool, org_id, title, language, chunk_id, heading, *, course_title=None):
    """A manual with an unrelated first section and ``heading`` written from ``chunk_id``."""
    sections = [
        {
            "heading": "Introduction",
            "level": 1,
            "anchor": "s1-introduction",
            "body": "What this covers.",
            "chunk_ids": [],
        },
        {
            "heading": heading,
            "level": 1,
            "anchor": "s2-cited",
            "body": f"{heading}: the rule.",
            "chunk_ids": [chunk_id],
        },
    ]
    with pool.connection() as conn:
        course_id = next((c.id for c in courses.list_courses(conn, org_id) if c.title == course_title), None)
        return manuals.create_manual(
            conn,
            org_id,
            title=title,
            content_md="",
            toc=[],
            source_document_ids=[],
            language=language,
            course_id=course_id,
            sections=sections,
        )


def test_a_citation_names_the_manual_section_in_the_learners_language_and_opens_it(seeded_pool, james, lucia):
    chunk = _cited_chunk(james, REFUND, seeded_pool)["source_id"]
    english = _manual(
        seeded_pool,
        james.org_id,
        "Manual: Refunds",
        "en",
        chunk,
        "Refund approval limits",
        course_title="Returns and Refunds Essentials",
    )
    _manual(seeded_pool, james.org_id, "Manual: Reembolsos", "es", chunk, "Límites de aprobación")  # newer, Spanish

    events, _ = run(james, REFUND, seeded_pool)
    [first, *_] = by_name(events, Citations).citations
    assert (first["source_type"], first["source_id"], first["document"], first["section"], first["anchor"]) == (
        "manual",
        str(english),
        "Manual: Refunds",
        "Refund approval limits",
        "s2-cited",
    ), first
    assert first["chunk_id"] == chunk  # the original passage stays reachable

    view = open_source(make_deps(seeded_pool), james, manual=first["source_id"], section=first["anchor"])
    assert view.kind == "manual" and view.heading == "Refund approval limits"
    assert [block.heading for block in view.blocks if block.cited] == ["Refund approval limits"]
    assert 'id="sv-cited"' in source_html(view, "en")

    metadata = {"citations": [first]}
    target = json.loads(source_choices(metadata)[0][1])
    assert target == {"manual": str(english), "section": "s2-cited"}
    assert f"/source_viewer?manual={english}&amp;section=s2-cited" in render_answer(
        "Refunds [1]", metadata, "en", "http://app"
    )

    page = AppTest.from_file(VIEWER, default_timeout=60)
    page.session_state["user"] = james
    page.query_params["manual"], page.query_params["section"] = str(english), "s2-cited"
    page.run()
    assert not page.exception
    assert page.subheader[0].value == "Manual: Refunds › Refund approval limits"
    assert page.caption[0].value == "The cited passage is highlighted."
    assert any("Open the whole manual" in m.value for m in page.markdown)

    # Lucía asks in Spanish about a Spanish passage: the Spanish manual, not a newer English one
    lifting = _cited_chunk(lucia, LIFTING, seeded_pool)["source_id"]
    spanish = _manual(
        seeded_pool,
        lucia.org_id,
        "Manual: Almacén",
        "es",
        lifting,
        "Peso máximo por persona",
        course_title="Seguridad en el almacén",
    )
    _manual(seeded_pool, lucia.org_id, "Manual: Warehouse", "en", lifting, "Maximum weight")
    events, _ = run(lucia, LIFTING, seeded_pool)
    [first, *_] = by_name(events, Citations).citations
    assert (first["source_type"], first["source_id"], first["section"]) == (
        "manual",
        str(spanish),
        "Peso máximo por persona",
    ), first


def test_no_manual_is_cited_from_a_draft_course_and_other_organisations_cannot_open_one(seeded_pool, lucia):
    question = "¿Cuál es el límite de gasto en hotel por noche?"
    chunk = _cited_chunk(lucia, question, seeded_pool)["source_id"]
    draft = _manual(
        seeded_pool, lucia.org_id, "Manual: Viajes", "es", chunk, "Hoteles", course_title="Gastos y viajes de empresa"
    )  # the seeded draft course
    events, _ = run(lucia, question, seeded_pool)
    assert all(c["source_type"] != "manual" for c in by_name(events, Citations).citations)

    with seeded_pool.connection() as conn:
        other = ensure_org(conn, "manual-outsiders")
        outsider = upsert_user(
            conn, other.id, email="outsider@else.test", full_name="Out Sider", role="employee", password="not-used-here"
        )
    assert open_source(make_deps(seeded_pool), outsider, manual=str(draft), section="s2-cited") is None
    assert open_source(make_deps(seeded_pool), lucia, manual="not-an-id") is None


def test_the_viewer_names_the_section_of_a_chunk_the_cited_sentence_comes_from(seeded_pool, james):
    """Small sections merged into one chunk: the viewer's heading follows the quote, as the citation does."""
    with seeded_pool.connection() as conn:
        policy = next(
            d.id for d in documents.list_documents(conn, james.org_id) if d.title == "Returns and Refunds Policy"
        )
        merged = next(
            c
            for c in sources.document_chunks_by_document(conn, james.org_id, policy)
            if len(c.heading_spans) > 1 and "exchange a product" in c.content
        )
    exchange = "Customers may exchange a product for a different size, colour or model within the same 30-day period."
    quoted = open_source(make_deps(seeded_pool), james, chunk=str(merged.id), quote=exchange)
    assert quoted.heading.endswith("3.3 Exchanges") and [b.cited for b in quoted.blocks].count(True) == 1
    plain = open_source(make_deps(seeded_pool), james, chunk=str(merged.id))
    assert plain.heading == section_path(merged.heading, "Returns and Refunds Policy") != quoted.heading
    cited = {
        "index": 1,
        "document": "Returns and Refunds Policy",
        "section": "3. Refunds > 3.3 Exchanges",
        "page": None,
        "source_type": "document_chunk",
        "source_id": str(merged.id),
        "quote": exchange,
        "excerpt": merged.content[:200],
    }
    shown = render_answer("Exchanges within 30 days [1].", {"citations": [cited]}, "en", "http://app")
    assert f"chunk={merged.id}&amp;quote=Customers" in shown or f"chunk={merged.id}&quote=Customers" in shown
