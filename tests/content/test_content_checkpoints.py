"""The two human checkpoints: structure approve/edit/reject; final approve/refine/abort; inline edits and
regenerating one module. Decisions are queued on the job and a worker resumes the graph with them."""

from __future__ import annotations

import copy
from uuid import UUID

import pytest
from langgraph.checkpoint.serde.event_hooks import register_serde_event_listener
from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer

from agents.content import decisions, service
from agents.content.exercise_swap import replacement_exercise
from agents.content.graph import CHECKPOINT_TYPES
from agents.content.sections import Section
from agents.content.sources import Sources, load_sections
from agents.content.worker import run_config
from storage import audit, jobs
from storage import lessons as lesson_store
from tests.conftest import make_deps


def _run(deps, org, job_id):
    return service.run_job(deps, org.id, job_id)


@pytest.fixture(scope="module")
def at_structure(pool, studio):
    """A factory: a new job over both fixture documents, paused at the structure checkpoint."""
    org, admin, docs = studio
    deps = make_deps(pool)

    def make():
        job_id = service.start_job(deps, admin, list(docs.values()))
        assert _run(deps, org, job_id).status == "awaiting_structure_review"
        return job_id

    return make


@pytest.fixture(scope="module")
def at_final(pool, studio, at_structure):
    org, admin, _ = studio
    deps = make_deps(pool)

    def make():
        job_id = at_structure()
        decisions.review_structure(deps, admin, job_id, "approve")
        assert _run(deps, org, job_id).status == "awaiting_final_review"
        return job_id

    return make


def _events(pool, org, job_id, kind=None):
    with pool.connection() as conn:
        return [e for e in jobs.list_events(conn, org.id, job_id) if kind is None or e.event_type == kind]


def test_structure_checkpoint_shows_a_multi_document_outline(pool, app_deps, studio, at_structure):
    org, admin, _ = studio
    job_id = at_structure()
    view = service.job_view(app_deps, admin, job_id)
    assert view.checkpoint == "structure" and view.state["rag_mode"] == "chunked"
    # ids come back from the checkpoint as the UUIDs the nodes wrote, never strings to convert again
    assert view.state["job_id"] == job_id and view.state["org_id"] == org.id
    assert all(isinstance(d, UUID) for d in [view.state["job_id"], *view.state["source_document_ids"]])
    # the sources loaded once by prepare_context come back typed too, every module's chunks among them
    sources = view.state["sources"]
    assert isinstance(sources, Sources) and sources.document_ids == view.state["source_document_ids"]
    chunks = {c for s in sources.sections for c in s.chunk_ids}
    assert all(set(m["chunk_ids"]) <= chunks for m in view.state["course_outline"]["modules"])
    outline = view.state["course_outline"]
    assert outline["modules"] and all(m["chunk_ids"] and m["lessons"] for m in outline["modules"])
    kinds = {lesson["content_type"] for m in outline["modules"] for lesson in m["lessons"]}
    assert {"theory", "exercise"} <= kinds
    assert all(m["lessons"][-1]["content_type"] == "exercise" for m in outline["modules"])
    assert _events(pool, org, job_id, "awaiting_review")[-1].data["checkpoint"] == "structure"
    with pytest.raises(service.ContentServiceError):  # not at the final checkpoint
        decisions.review_final(app_deps, admin, job_id, "approve")
    with pytest.raises(service.ContentServiceError):
        decisions.review_structure(app_deps, admin, job_id, "maybe")


def test_structure_edit_is_what_gets_generated(pool, app_deps, studio, at_structure):
    org, admin, _ = studio
    job_id = at_structure()
    outline = copy.deepcopy(service.job_view(app_deps, admin, job_id).state["course_outline"])
    outline["title"] = "Devoluciones sin dramas"
    modules = outline["modules"]
    modules[0]["title"] = "Lo esencial de las devoluciones"
    modules.reverse()  # reorder
    modules.append(
        {
            "title": "Productos defectuosos y garantía",
            "summary": "Garantía legal y etiqueta roja",
            "lessons": [{"title": "La garantía", "content_type": "theory"}],
        }
    )  # add
    decisions.review_structure(app_deps, admin, job_id, "edit", outline=outline, notes="reordered")
    assert _run(app_deps, org, job_id).status == "awaiting_final_review"
    state = service.job_view(app_deps, admin, job_id).state
    titles = [m["module_spec"]["title"] for m in state["generated_modules"]]
    assert titles == [m["title"] for m in modules]
    added = state["generated_modules"][-1]
    assert added["module_spec"]["chunk_ids"], "an added module gets chunks matching its title"
    assert [lesson["content_type"] for lesson in added["lessons"]] == ["theory", "exercise"]
    assert added["lessons"][0]["title"] == "La garantía" and "[1]" in added["lessons"][0]["content"]
    assert state["course_outline"]["title"] == "Devoluciones sin dramas"


def test_apply_edits_applies_the_notes_written_as_rules_to_the_edited_outline(pool, app_deps, studio, at_structure):
    """'Apply edits and generate' used to record the notes and generate the outline without them."""
    org, admin, _ = studio
    job_id = at_structure()
    outline = copy.deepcopy(service.job_view(app_deps, admin, job_id).state["course_outline"])
    outline["modules"][0]["title"] = "Lo esencial de las devoluciones"  # an edit in the table
    decisions.review_structure(
        app_deps, admin, job_id, "edit", outline=outline, notes="renombra 2: Cambios y reembolsos; quiero más ejemplos"
    )  # a rule and a wish
    assert _run(app_deps, org, job_id).status == "awaiting_final_review"
    titles = [m["module_spec"]["title"] for m in service.job_view(app_deps, admin, job_id).state["generated_modules"]]
    assert titles[:2] == ["Lo esencial de las devoluciones", "Cambios y reembolsos"]
    assert len(titles) == len(outline["modules"])


def test_structure_reject_ends_the_job_without_content(pool, app_deps, studio, at_structure):
    org, admin, _ = studio
    job_id = at_structure()
    decisions.review_structure(app_deps, admin, job_id, "reject", notes="not enough material")
    job = _run(app_deps, org, job_id)
    assert job.status == "rejected" and job.result_course_id is None
    assert not service.job_view(app_deps, admin, job_id).state.get("generated_modules")


def test_final_refine_runs_one_more_cycle_then_waits_again(pool, app_deps, studio, at_final):
    org, admin, _ = studio
    job_id = at_final()
    before = service.job_view(app_deps, admin, job_id).state.get("refinement_count", 0)
    decisions.review_final(app_deps, admin, job_id, "refine", notes="more examples")
    assert _run(app_deps, org, job_id).status == "awaiting_final_review"
    assert service.job_view(app_deps, admin, job_id).state["refinement_count"] == before + 1
    assert _events(pool, org, job_id, "refining")[-1].data["cycle"] == before + 1


def test_final_abort_publishes_nothing(pool, app_deps, studio, at_final):
    org, admin, _ = studio
    job_id = at_final()
    decisions.review_final(app_deps, admin, job_id, "reject")
    job = _run(app_deps, org, job_id)
    assert job.status == "rejected" and job.result_course_id is None and job.result_manual_id is None


def test_inline_edits_and_regenerating_one_module_leave_the_others_untouched(pool, app_deps, studio, at_final):
    org, admin, _ = studio
    job_id = at_final()
    state = service.job_view(app_deps, admin, job_id).state
    assert len(state["generated_modules"]) >= 2
    for index in (0, 1):
        decisions.edit_content(app_deps, admin, job_id, f"module.{index}.lesson.0", "content", f"EDITED {index}")
        assert _run(app_deps, org, job_id).status == "awaiting_final_review"
    decisions.edit_content(app_deps, admin, job_id, "course", "outcome", "Gestionar devoluciones")
    _run(app_deps, org, job_id)
    with pytest.raises(service.ContentServiceError):  # invalid edits change nothing
        decisions.edit_content(app_deps, admin, job_id, "module.0.exercise.0", "content", {"nope": 1})
    with pytest.raises(service.ContentServiceError):
        decisions.edit_content(app_deps, admin, job_id, "module.99.lesson.0", "content", "x")
    edited = service.job_view(app_deps, admin, job_id).state["generated_modules"]
    assert edited[0]["lessons"][0]["content"] == "EDITED 0" and edited[1]["lessons"][0]["content"] == "EDITED 1"

    decisions.regenerate_module(app_deps, admin, job_id, 1, "más ejemplos de tienda")
    assert _run(app_deps, org, job_id).status == "awaiting_final_review"
    after = service.job_view(app_deps, admin, job_id).state
    assert after["generated_modules"][1]["lessons"][0]["content"] != "EDITED 1"  # rebuilt from the source
    assert "[1]" in after["generated_modules"][1]["lessons"][0]["content"]
    for index, module in enumerate(after["generated_modules"]):
        if index != 1:
            assert module == edited[index]
    assert _events(pool, org, job_id, "module_regenerated")[-1].data["index"] == 1

    decisions.review_final(app_deps, admin, job_id, "approve")
    job = _run(app_deps, org, job_id)
    assert job.status == "published"
    with pool.connection() as conn:
        outline = lesson_store.get_course_outline(conn, org.id, job.result_course_id)
    assert outline.course.outcome == "Gestionar devoluciones"
    assert outline.modules[0].lessons[0].content_md == "EDITED 0"
    with pytest.raises(service.ContentServiceError):  # nothing left to review
        decisions.review_final(app_deps, admin, job_id, "approve")


def test_regenerating_one_exercise_replaces_only_it_with_a_reviewed_one(pool, app_deps, studio, at_final):
    """'Another exercise' at the final review: the same place gets a new exercise (the same type when the module's
    sections support one), nothing critical or major in it, the rest of the course unchanged; audited."""
    org, admin, _ = studio
    job_id = at_final()
    state = service.job_view(app_deps, admin, job_id).state
    before = state["generated_modules"]
    sections = load_sections(pool, org.id, state["source_document_ids"])
    language = state["source_metadata"]["language"]
    offers = [
        (i, replacement_exercise(m, 1, sections, language)) for i, m in enumerate(before) if len(m["exercises"]) >= 2
    ]
    exhausted = next(i for i, fresh in offers if fresh is None)  # every exercise its sections support is in use
    index = next(i for i, fresh in offers if fresh is not None)
    old = before[index]["exercises"][1]

    decisions.regenerate_exercise(app_deps, admin, job_id, exhausted, 1)
    assert _run(app_deps, org, job_id).status == "awaiting_final_review"
    assert _events(pool, org, job_id, "exercise_regenerated")[-1].data["replaced"] is False
    assert service.job_view(app_deps, admin, job_id).state["generated_modules"] == before
    decisions.regenerate_exercise(app_deps, admin, job_id, index, 1)
    assert _run(app_deps, org, job_id).status == "awaiting_final_review"
    after = service.job_view(app_deps, admin, job_id).state
    fresh = after["generated_modules"][index]["exercises"][1]
    assert fresh != old and fresh not in before[index]["exercises"]
    assert fresh == dict(offers)[index]  # the same type first, when the module's sections support another
    assert after["generated_modules"][index]["exercises"][:1] == before[index]["exercises"][:1]
    assert all(m == before[i] for i, m in enumerate(after["generated_modules"]) if i != index)
    assert not [
        i
        for i in after["review_report"]["issues"]
        if i.get("module_index") == index and i.get("exercise_index") == 1 and i["severity"] in ("critical", "major")
    ]
    assert _events(pool, org, job_id, "exercise_regenerated")[-1].data == {
        "module": index,
        "exercise": 1,
        "replaced": True,
    }
    with pool.connection() as conn:
        assert audit.list_entries(conn, org.id, action="content.regenerate_exercise")
    with pytest.raises(service.ContentServiceError):
        decisions.regenerate_exercise(app_deps, admin, job_id, index, 99)


def test_redesign_sends_the_edited_outline_and_notes_to_the_design_pass_once(pool, app_deps, studio, at_structure):
    """Offline the notes read as rules, applied by the design pass only (the page no longer applies them, so a
    merge happens once); the job comes back to the structure review with the new outline."""
    org, admin, _ = studio
    job_id = at_structure()
    edited = copy.deepcopy(service.job_view(app_deps, admin, job_id).state["course_outline"])
    count = len(edited["modules"])
    assert count >= 3, [m["title"] for m in edited["modules"]]
    edited["modules"][0]["title"] = "Lo primero, editado en la tabla"
    with pytest.raises(service.ContentServiceError, match="Escribe primero tus notas"):
        decisions.review_structure(app_deps, admin, job_id, "redesign", outline=edited, notes="  ")
    decisions.review_structure(
        app_deps, admin, job_id, "redesign", outline=edited, notes="renombra 2: Cambios y reembolsos; fusiona 2 y 3"
    )
    assert _run(app_deps, org, job_id).status == "awaiting_structure_review"
    view = service.job_view(app_deps, admin, job_id)
    titles = [m["title"] for m in view.state["course_outline"]["modules"]]
    assert view.checkpoint == "structure" and len(titles) == count - 1, titles
    assert titles[0] == "Lo primero, editado en la tabla" and titles[1].startswith("Cambios y reembolsos · ")
    assert _events(pool, org, job_id, "structure")[-1].data == {
        "modules": count - 1,
        "engine": "offline",
        "redesign": True,
        "rules": ["rename 2", "merge 2+3"],
    }

    decisions.review_structure(app_deps, admin, job_id, "approve")
    assert _run(app_deps, org, job_id).status == "awaiting_final_review"
    generated = service.job_view(app_deps, admin, job_id).state["generated_modules"]
    assert [m["module_spec"]["title"] for m in generated] == titles


def test_a_job_checkpointed_before_its_state_carried_sources_and_uuids_goes_on(pool, app_deps, studio, at_structure):
    """A job paused at a review before issue 27 has string ids and no sources in its checkpoint: the worker
    gives it both with its next run, and it goes on as any other."""
    org, admin, _ = studio
    job_id = at_structure()
    saver = app_deps.checkpointer
    saved = saver.get_tuple(run_config(job_id))
    old = copy.copy(saved.checkpoint)
    values, versions = dict(old["channel_values"]), dict(old["channel_versions"])
    values.pop("sources"), versions.pop("sources")
    values.update(
        {key: str(values[key]) for key in ("job_id", "org_id", "triggered_by")},
        source_document_ids=[str(d) for d in values["source_document_ids"]],
    )
    written = {key: saver.get_next_version(versions[key], None) for key in ("job_id", "org_id", "triggered_by")}
    written["source_document_ids"] = saver.get_next_version(versions["source_document_ids"], None)
    saver.put(
        saved.parent_config,
        {**old, "channel_values": values, "channel_versions": versions | written},
        saved.metadata,
        written,
    )  # same checkpoint id: the pending review stays attached to it
    before = service.job_view(app_deps, admin, job_id)
    assert "sources" not in before.state and before.state["org_id"] == str(org.id) and before.checkpoint == "structure"

    decisions.review_structure(app_deps, admin, job_id, "approve")
    assert _run(app_deps, org, job_id).status == "awaiting_final_review"
    after = service.job_view(app_deps, admin, job_id).state
    assert isinstance(after["sources"], Sources) and after["org_id"] == org.id
    assert len(after["generated_modules"]) == len(after["course_outline"]["modules"])


def test_a_resumed_job_reads_its_own_classes_back_as_registered_types(pool, app_deps, studio, at_structure):
    """LangGraph warned "Deserializing unregistered type agents.content.sections.Section from checkpoint. This
    will be blocked in a future version" at every resume: the state's classes are registered now, so a job
    paused at both reviews and resumed reads its Sources and Sections back with no such event, and a strict
    reader (the future default) reads them too."""
    org, admin, _ = studio
    events = []
    unregister = register_serde_event_listener(events.append)
    try:
        job_id = at_structure()
        decisions.review_structure(app_deps, admin, job_id, "approve")
        assert _run(app_deps, org, job_id).status == "awaiting_final_review"
        state = service.job_view(app_deps, admin, job_id).state
    finally:
        unregister()
    assert isinstance(state["sources"], Sources) and all(isinstance(s, Section) for s in state["sources"].sections)
    assert not [e for e in events if e["kind"].startswith("msgpack_unregistered")], events
    strict = JsonPlusSerializer(allowed_msgpack_modules=CHECKPOINT_TYPES)
    assert strict.loads_typed(strict.dumps_typed(state["sources"])) == state["sources"]
