"""With a model (the fake OpenAI server playing a scripted author): its valid answers are used, each
checked; a module whose exercises break the contract falls back to the twin alone."""

from __future__ import annotations

import json
import re

from agents.content import decisions, service
from storage import jobs
from storage import lessons as lesson_store
from tests.content.model_replies import MODEL_HEADING, scripted_author
from tests.fake_openai import Reply, last_user_text


def test_model_answers_are_used_when_they_hold_up(pool, app_deps, studio, fake_openai):
    org, admin, docs = studio
    fake_openai.responder = scripted_author(themes=3, broken_modules=("Módulo 2",))
    job_id = service.start_job(app_deps, admin, [docs["devoluciones.md"]])
    assert service.run_job(app_deps, org.id, job_id).status == "awaiting_structure_review"
    state = service.job_view(app_deps, admin, job_id).state
    assert [m["title"] for m in state["course_outline"]["modules"]] == ["Módulo 1", "Módulo 2", "Módulo 3"]
    assert all(t["chunk_ids"] for t in state["extracted_themes"])  # chunk refs mapped back to ids

    decisions.review_structure(app_deps, admin, job_id, "approve")
    assert service.run_job(app_deps, org.id, job_id).status == "awaiting_final_review"
    state = service.job_view(app_deps, admin, job_id).state
    first, broken = state["generated_modules"][0], state["generated_modules"][1]
    assert first["engine"].startswith("openai:") and first["lessons"][0]["content"].startswith(MODEL_HEADING)
    assert first["lessons"][0]["citations"] and first["lessons"][0]["source_chunk_ids"]
    assert broken["engine"] == "offline" and re.search(r"\[\d+\]", broken["lessons"][0]["content"])
    assert "[Fuente:" not in first["lessons"][0]["content"] and first["lessons"][0]["content"].endswith("[1]")
    assert state["generated_manual"]["title"] == "Manual del modelo" and state["generated_manual"]["toc"]
    assert state["review_report"]["engine"].startswith("openai:")  # checks + the model's review
    assert "answers_verified" in state["review_report"]["checks"]
    prompts = [m["content"] for r in fake_openai.chat_requests for m in r["messages"] if m["role"] == "user"]
    assert any("Source material:" in p and "Generated content to review:" in p for p in prompts)

    decisions.review_final(app_deps, admin, job_id, "approve", accept_template_modules=True)  # module 2 is the twin's
    job = service.run_job(app_deps, org.id, job_id)
    assert job.status == "published"
    with pool.connection() as conn:
        outline = lesson_store.get_course_outline(conn, org.id, job.result_course_id)
        events = jobs.list_events(conn, org.id, job_id)
    assert outline.course.title == "Curso escrito por el modelo"
    assert {
        e.data.get("engine", "")[:6] for e in events if e.event_type == "progress" and e.data.get("phase") == "done"
    } == {"openai", "offlin"}


def test_redesign_notes_reach_the_model_and_its_outline_is_used(pool, app_deps, studio, fake_openai):
    """'Redesign with my notes' with a model: the design request carries the admin's notes (as data, inside
    <notes>) and the outline they edited; the model's redesigned outline is the one reviewed next."""
    org, admin, docs = studio
    author = scripted_author(themes=3)

    def respond(request):
        text = last_user_text(request)
        if "asks for a redesign" not in text:
            return author(request)
        keys = re.findall(r'"themes": \[\s*"(\w+)"', text)
        return Reply(
            text=json.dumps(
                {
                    "title": "Curso rediseñado",
                    "outcome": "Aplicar la política",
                    "modules": [
                        {
                            "title": f"Parte {i + 1}",
                            "themes": [key],
                            "lessons": [{"title": "Idea", "content_type": "theory"}],
                        }
                        for i, key in enumerate(keys[::-1])
                    ],
                },
                ensure_ascii=False,
            )
        )

    fake_openai.responder = respond
    job_id = service.start_job(app_deps, admin, [docs["devoluciones.md"]])
    assert service.run_job(app_deps, org.id, job_id).status == "awaiting_structure_review"
    edited = service.job_view(app_deps, admin, job_id).state["course_outline"]
    edited = {**edited, "modules": [{**edited["modules"][0], "title": "Título de la tabla"}, *edited["modules"][1:]]}
    notes = "Empieza por los reembolsos y usa títulos cortos"
    decisions.review_structure(app_deps, admin, job_id, "redesign", outline=edited, notes=notes)
    assert service.run_job(app_deps, org.id, job_id).status == "awaiting_structure_review"

    [request] = [r for r in fake_openai.chat_requests if "asks for a redesign" in last_user_text(r)]
    asked = last_user_text(request)
    assert f"<notes>\n{notes}\n</notes>" in asked and "Título de la tabla" in asked
    outline = service.job_view(app_deps, admin, job_id).state["course_outline"]
    assert outline["title"] == "Curso rediseñado"
    assert [m["title"] for m in outline["modules"]] == [f"Parte {i + 1}" for i in range(len(outline["modules"]))]
    with pool.connection() as conn:
        event = [e for e in jobs.list_events(conn, org.id, job_id) if e.event_type == "structure"][-1]
    assert event.data["engine"].startswith("openai:") and event.data["rules"] == []
