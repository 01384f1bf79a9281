"""Issue 13: a module answer cut at the token limit is retried one lesson at a time before the twin
takes it; every module records its engine and the job summary lists the template-written ones; publishing
a module the template wrote in place of the model needs the admin's explicit tick (refused without it, in
the admin's language, with nothing changed; audit-logged with it)."""

from __future__ import annotations

import re

import pytest

from agents.content import decisions, service
from storage import audit, jobs
from tests.content.model_replies import MODEL_HEADING, scripted_author
from tests.fake_openai import Reply, last_user_text


def test_a_truncated_module_is_retried_lesson_by_lesson(pool, app_deps, studio, fake_openai):
    org, admin, docs = studio
    author = scripted_author(themes=3, broken_modules=("Módulo 2",))
    whole_module_asks = []

    def responder(request):
        user = last_user_text(request)
        planned = re.findall(r"^\d+\. \[(\w+)\] (.+)$", user, re.M)
        if len(planned) > 1 and "Module " in user:  # the whole module at once: cut at max_tokens
            whole_module_asks.append(user)
            return Reply(text='{"lessons": [{"title": "Teoría", "content_md": "MODELO: la pol', finish_reason="length")
        return author(request)

    fake_openai.responder = responder
    job_id = service.start_job(app_deps, admin, [docs["devoluciones.md"]])
    service.run_job(app_deps, org.id, job_id)
    decisions.review_structure(app_deps, admin, job_id, "approve")
    assert service.run_job(app_deps, org.id, job_id).status == "awaiting_final_review"
    modules = service.job_view(app_deps, admin, job_id).state["generated_modules"]
    assert len(whole_module_asks) == 3
    first, broken = modules[0], modules[1]
    assert first["engine"].startswith("openai:") and len(first["lessons"]) == 3  # rebuilt from 3 smaller answers
    assert all(lesson["content"].startswith(MODEL_HEADING) for lesson in first["lessons"])
    assert broken["engine"] == "offline" and broken["fallback"] == "length"
    summary = service.job_summary(app_deps, org.id, job_id)
    assert summary["template_modules"] == ["Módulo 2"]
    assert summary["module_engines"][0].startswith("openai:") and summary["module_engines"][1] == "offline"

    with pytest.raises(service.ContentServiceError) as refused:  # no tick: refused, one line, in Spanish
        decisions.review_final(app_deps, admin, job_id, "approve")
    assert str(refused.value) == (
        "1 módulo lo escribió la plantilla sin modelo porque la respuesta del modelo "
        "no servía («Módulo 2»): marca «Publicar los módulos escritos por la plantilla» "
        "para publicarlos."
    )
    with pool.connection() as conn:
        job = jobs.get_job(conn, org.id, job_id)
        assert job.status == "awaiting_final_review" and job.command is None
        assert not audit.list_entries(conn, org.id, action="content.accept_template_modules")
    decisions.review_final(app_deps, admin, job_id, "approve", accept_template_modules=True)
    assert service.run_job(app_deps, org.id, job_id).status == "published"
    with pool.connection() as conn:
        [entry] = audit.list_entries(conn, org.id, action="content.accept_template_modules")
    assert entry.actor_id == admin.id and entry.before["modules"][0]["title"] == "Módulo 2"
    assert entry.before["modules"][0]["fallback"] == "length"
