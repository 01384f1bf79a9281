"""Issue 28 (build 3, with a model): the reviewer reads each model lesson before the module is kept. A lesson with
a repeated sentence is written again once with its findings; if the rewrite still repeats, the twin's lesson
takes its place and the review the admin reads lists it (and `generate --json` does); a rewrite that passes is
kept."""

from __future__ import annotations

import json
import re

from agents.content import decisions, service
from agents.content.gate import failing_findings
from agents.content.sources import load_sections
from tests.content.model_replies import MODEL_HEADING, scripted_author
from tests.fake_openai import Reply, last_user_text

REWRITE = "A reviewer rejected your previous version"


def test_a_repeating_model_lesson_is_regenerated_once_then_replaced_by_the_twins_and_listed(
    pool, app_deps, studio, fake_openai
):
    org, admin, docs = studio
    author = scripted_author(themes=3)
    rewrites: list[str] = []

    def respond(request):
        reply, user = author(request), last_user_text(request)
        if not user.startswith("Module 1 of"):
            return reply
        rewrite = REWRITE in user
        if rewrite:
            rewrites.append(user)
        value = json.loads(reply.text)
        for lesson in value.get("lessons", []):
            body = lesson["content_md"].split("\n\n", 1)[1]
            # "Teoría" repeats its sentence every time; "Ejemplo" only until the reviewer's findings arrive
            if lesson["title"] == "Teoría" or (lesson["title"] == "Ejemplo" and not rewrite):
                lesson["content_md"] = f"{MODEL_HEADING}\n\n{body}\n\n{body}\n\n{body}"
        return Reply(text=json.dumps(value, ensure_ascii=False))

    fake_openai.responder = respond
    job_id = service.start_job(app_deps, admin, [docs["devoluciones.md"]])
    service.run_job(app_deps, org.id, job_id)
    decisions.review_structure(app_deps, admin, job_id, "approve")
    assert service.run_job(app_deps, org.id, job_id).status == "awaiting_final_review"
    state = service.job_view(app_deps, admin, job_id).state

    # regenerated once each, with the reviewer's finding named in the request
    asked = sorted(re.findall(r"^\d+\. \[\w+\] (.+)$", user, re.M)[0] for user in rewrites)
    assert asked == ["Ejemplo", "Teoría"], asked
    assert all("repite una frase 3 veces" in user for user in rewrites)

    first = state["generated_modules"][0]
    theory, example = first["lessons"][0], first["lessons"][1]
    assert first["engine"].startswith("openai:")
    assert not theory["content"].startswith(MODEL_HEADING) and re.search(r"\[\d+\]", theory["content"])  # the twin's
    sections = load_sections(pool, org.id, state["source_document_ids"])
    assert failing_findings(theory, sections, "es") == []
    assert example["content"].startswith(MODEL_HEADING) and example["content"].count(MODEL_HEADING) == 1
    assert failing_findings(example, sections, "es") == []
    assert [(r["title"], r["codes"]) for r in first["replaced_lessons"]] == [("Teoría", ["repeated"])]
    assert all(not m.get("replaced_lessons") for m in state["generated_modules"][1:])

    # listed where the admin reads the review, and in the CLI's JSON
    [listed] = [i for i in state["review_report"]["issues"] if i["code"] == "lesson_replaced"]
    assert listed["module_index"] == 0 and "«Teoría»" in listed["description"] and "repite" in listed["description"]
    summary = service.job_summary(app_deps, org.id, job_id)
    assert [(r["module"], r["title"]) for r in summary["replaced_lessons"]] == [(1, "Teoría")]
