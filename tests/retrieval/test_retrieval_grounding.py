"""The grounding ladder (every rung), course-tree selection with and without a model, citations, budgets."""

from __future__ import annotations

import numpy as np
import pytest
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage

from agents.llm import LLM, Settings
from agents.retrieval import ground
from agents.retrieval.course_tree import retrieve_course_context, select_modules
from agents.retrieval.postprocess import context_budget
from storage import course_outline, enrollments
from storage import courses as course_store
from storage import lessons as lesson_store
from storage.documents import save_document

ATENCION = "Atención al cliente de excelencia"
TELEWORK = (
    "# Política de Teletrabajo\n\nCada empleado de oficina puede teletrabajar hasta 2 días por semana, "
    "acordados con su responsable. La empresa entrega una silla ergonómica y paga 30 EUR al mes "
    "por gastos de conexión."
)


OFFLINE = LLM(Settings())  # the offline engine (no model configured in tests)


def scripted(reply: str) -> LLM:
    return LLM.from_model(GenericFakeChatModel(messages=iter([AIMessage(content=reply)] * 3)))


def test_semantic_chunks_with_one_numbering(seeded_pool, seeded_deps, demo):
    grounding = ground(
        seeded_pool,
        demo.org_id,
        demo.lucia,
        "¿Cuál es el peso máximo que puede levantar una persona sola?",
        llm=OFFLINE,
        embedder=seeded_deps,
    )
    assert (grounding.rung, grounding.source) == ("chunks", "semantic")
    assert [p.index for p in grounding.passages] == list(range(1, len(grounding.passages) + 1))
    first = grounding.passages[0]
    assert first.document == "Manual de Seguridad en el Almacén" and first.source_type == "document_chunk"
    assert "25 kg" in " ".join(p.text for p in grounding.passages)
    assert first.citation() == {
        "index": 1,
        "document": first.document,
        "section": first.section,
        "page": first.page,
        "source_type": "document_chunk",
        "source_id": first.source_id,
    }


def test_cross_lingual_question_is_grounded_in_the_other_language(seeded_pool, seeded_deps, demo):
    grounding = ground(
        seeded_pool,
        demo.org_id,
        demo.lucia,
        "¿Hasta qué importe puede aprobar un reembolso un cajero?",
        llm=OFFLINE,
        embedder=seeded_deps,
    )
    assert grounding.rung == "chunks"
    assert any(p.document == "Returns and Refunds Policy" and "200 EUR" in p.text for p in grounding.passages)


def test_off_topic_question_without_enrolment_is_general_knowledge(seeded_pool, seeded_deps, demo):
    grounding = ground(
        seeded_pool, demo.org_id, demo.admin, "Who painted the Mona Lisa?", llm=OFFLINE, embedder=seeded_deps
    )
    assert (grounding.rung, grounding.source, grounding.passages) == ("general", "none", [])


def test_course_tree_offline_twin_picks_by_similarity(seeded_pool, seeded_deps, demo):
    with seeded_pool.connection() as conn:
        modules = course_outline.course_tree(conn, demo.org_id, demo.courses[ATENCION])
    chosen, engine, similarities = select_modules("¿En qué consiste el método ACRE?", modules, seeded_deps)
    assert engine == "offline" and chosen[0].position == 1 and len(similarities) == len(modules)


def test_course_tree_follows_a_scripted_model_and_falls_back_when_it_rambles(seeded_pool, seeded_deps, demo):
    with seeded_pool.connection() as conn:
        modules = course_outline.course_tree(conn, demo.org_id, demo.courses[ATENCION])
    last = modules[-1].position
    chosen, engine, _ = select_modules(
        "¿En qué consiste el método ACRE?", modules, seeded_deps, scripted(f'{{"modules": [{last}]}}')
    )
    assert [m.position for m in chosen] == [last] and engine.startswith("openai:")
    chosen, engine, _ = select_modules(
        "¿En qué consiste el método ACRE?", modules, seeded_deps, scripted('{"modules": [99]}')
    )
    assert chosen[0].position == 1 and engine == "offline"  # no such module: the twin decides
    chosen, engine, _ = select_modules(
        "¿En qué consiste el método ACRE?", modules, seeded_deps, scripted("I think module one")
    )
    assert chosen[0].position == 1 and engine == "offline"


def test_pageindex_lessons_and_the_current_lesson_always_included(seeded_pool, seeded_deps, demo):
    course = demo.courses[ATENCION]
    with seeded_pool.connection() as conn:
        modules = course_outline.course_tree(conn, demo.org_id, course)
        other = course_outline.module_lessons(conn, demo.org_id, [modules[-1].id])[0]
    context = retrieve_course_context(
        seeded_pool, demo.org_id, course, "¿En qué consiste el método ACRE?", embedder=seeded_deps, lesson_id=other.id
    )
    assert context.lessons[0].id == other.id and any(l.module_id == modules[0].id for l in context.lessons)
    grounding = ground(
        seeded_pool,
        demo.org_id,
        demo.lucia,
        "¿En qué consiste el método ACRE?",
        course_id=course,
        llm=OFFLINE,
        embedder=seeded_deps,
    )
    assert (grounding.rung, grounding.source) == ("chunks", "pageindex")
    assert grounding.passages[0].source_type == "lesson" and "ACRE" in grounding.passages[0].text


@pytest.fixture(scope="module")
def thin_course(seeded_pool, demo):
    """A course whose only lesson is two words, built from the expenses policy."""
    with seeded_pool.connection() as conn:
        course = course_store.create_course(conn, demo.org_id, title="Viajes (borrador)", status="published")
        module = lesson_store.add_module(conn, demo.org_id, course, title="Viajar", summary="Reservas y límites")
        lesson_store.add_lesson(
            conn, demo.org_id, module, title="Introducción", content_type="theory", content_md="Viajamos bien."
        )
        course_store.link_course_document(conn, demo.org_id, course, demo.documents["Política de Gastos y Viajes"])
    return course


def test_thin_lessons_fall_back_to_the_course_sources(seeded_pool, seeded_deps, demo, thin_course):
    grounding = ground(
        seeded_pool,
        demo.org_id,
        demo.lucia,
        "¿Cuál es el precio máximo de hotel en Londres?",
        course_id=thin_course,
        llm=OFFLINE,
        embedder=seeded_deps,
    )
    assert (grounding.rung, grounding.source) == ("chunks", "scoped_fallback")
    types = [p.source_type for p in grounding.passages]
    assert types[0] == "lesson" and "document_chunk" in types
    assert {p.document for p in grounding.passages[1:]} == {"Política de Gastos y Viajes"}
    assert "180 EUR" in " ".join(p.text for p in grounding.passages)


@pytest.fixture(scope="module")
def whole_document_course(seeded_pool, demo):
    """A small document kept whole (no chunks) behind a course without modules; Lucía is enrolled."""
    with seeded_pool.connection() as conn:
        document = save_document(
            conn,
            demo.org_id,
            source_name="teletrabajo.md",
            title="Política de Teletrabajo",
            mime_type="text/markdown",
            full_text=TELEWORK,
            page_count=1,
            language="es",
            ts_config="spanish",
            content_hash="teletrabajo",
            chunks=[],
            embeddings=np.zeros((0, 384), dtype=np.float32),
            uploaded_by=None,
        )
        course = course_store.create_course(conn, demo.org_id, title="Teletrabajo", status="published")
        course_store.link_course_document(conn, demo.org_id, course, document)
        enrollments.enroll(conn, demo.org_id, demo.lucia, course)
    return course, document


def test_whole_document_rung_reads_full_text(seeded_pool, seeded_deps, demo, whole_document_course):
    course, document = whole_document_course
    grounding = ground(
        seeded_pool,
        demo.org_id,
        demo.lucia,
        "¿Cuántos días puedo teletrabajar?",
        course_id=course,
        llm=OFFLINE,
        embedder=seeded_deps,
    )
    assert (grounding.rung, grounding.source) == ("document", "document")
    [passage] = grounding.passages
    assert (passage.index, passage.source_type, passage.source_id) == (1, "document", str(document))
    assert "2 días por semana" in passage.text and (passage.index, passage.document) == (1, "Política de Teletrabajo")


def test_thin_lessons_over_a_whole_document_step_down_to_the_document(
    seeded_pool, seeded_deps, demo, whole_document_course
):
    course, document = whole_document_course
    with seeded_pool.connection() as conn:
        module = lesson_store.add_module(conn, demo.org_id, course, title="Teletrabajo", summary="Normas")
        lesson = lesson_store.add_lesson(
            conn, demo.org_id, module, title="Idea", content_type="summary", content_md="Trabajo flexible."
        )
    grounding = ground(
        seeded_pool,
        demo.org_id,
        demo.lucia,
        "¿Cuántos días puedo teletrabajar?",
        course_id=course,
        llm=OFFLINE,
        embedder=seeded_deps,
    )
    assert (grounding.rung, grounding.source) == ("document", "document")
    assert [(p.index, p.source_type, p.source_id) for p in grounding.passages] == [
        (1, "lesson", str(lesson)),
        (2, "document", str(document)),
    ]


def test_whole_document_is_not_offered_to_someone_not_enrolled(seeded_pool, seeded_deps, demo, whole_document_course):
    course, _ = whole_document_course
    grounding = ground(
        seeded_pool,
        demo.org_id,
        demo.admin,
        "¿Cuántos días puedo teletrabajar?",
        course_id=course,
        llm=OFFLINE,
        embedder=seeded_deps,
    )
    assert grounding.rung != "document" and all(p.source_type != "document" for p in grounding.passages)


def test_ground_with_a_scripted_model_uses_its_module_choice(seeded_pool, seeded_deps, demo):
    course = demo.courses[ATENCION]
    with seeded_pool.connection() as conn:
        last = course_outline.course_tree(conn, demo.org_id, course)[-1]
        expected = {l.id for l in course_outline.module_lessons(conn, demo.org_id, [last.id])}
    grounding = ground(
        seeded_pool,
        demo.org_id,
        demo.lucia,
        "¿En qué consiste el método ACRE?",
        course_id=course,
        llm=scripted(f'{{"modules": [{last.position}]}}'),
        embedder=seeded_deps,
    )
    assert grounding.source == "pageindex" and {p.source_id for p in grounding.passages} == {str(i) for i in expected}


def test_context_budget_scales_with_the_model():
    assert context_budget(None) == 3000 and context_budget("unknown-model") == 3000
    assert context_budget("gpt-4o-mini") == 24000  # 128k context: 8x, under the 10x cap


def test_keyword_fallback_keeps_strong_lexical_matches_below_the_similarity_floor():
    from agents.retrieval.grounding import _relevant
    from agents.retrieval.search import Hit

    def hit(score: float, boost: float) -> Hit:
        return Hit(
            chunk_id=str(score),
            document_id="d",
            document_title="D",
            heading="",
            page=None,
            position=0,
            content="x",
            score=score,
            scores={"boost": boost},
        )

    assert [h.score for h in _relevant([hit(0.86, 0.0), hit(0.81, 0.0), hit(0.78, 0.04), hit(0.77, 0.0)])] == [
        0.86,
        0.78,
    ]
    assert _relevant([hit(0.75, 0.0)]) == [] and _relevant([]) == []
