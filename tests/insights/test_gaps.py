"""Knowledge gaps: the seeded questions on three uncovered topics cluster into three groups, across
languages; actions start a content job and record a note; nobody's identity ever leaves the module."""

from __future__ import annotations

import json
import re

import pytest

from agents.content import gap_lessons
from agents.insights import gaps
from agents.tutor.__main__ import main as tutor_cli
from seeds.courses import load_yaml
from seeds.tutor_questions import QUESTIONS
from storage import audit, jobs
from tests.apptest import open_page, texts

TOPIC_WORDS = {
    "parental": ("paternidad", "maternidad", "parental", "paternity"),
    "pension": ("pensiones", "jubilación", "pension", "retirement"),
    "gym": ("gimnasio", "gym", "fitness"),
}


def _topic_of(question: str) -> str:
    return next(topic for topic, words in TOPIC_WORDS.items() if any(w in question.lower() for w in words))


def test_cli_returns_three_clusters_with_the_right_members(seeded_pool, capsys):
    assert tutor_cli(["gaps", "--org", "acme", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    clusters = out["clusters"]
    assert len(clusters) == 3
    seeded = [q["text"] for q in load_yaml(QUESTIONS)["questions"]]
    expected = {topic: {q for q in seeded if _topic_of(q) == topic} for topic in TOPIC_WORDS}
    got = [set(c["examples"]) for c in clusters]
    assert {frozenset(g) for g in got} == {frozenset(e) for e in expected.values()}
    for cluster in clusters:
        assert cluster["questions"] == 4 and cluster["askers"] == 4 and cluster["visible"]
        assert cluster["languages"] == {"en": 2, "es": 2}  # each topic mixes both languages
        assert cluster["topic"] and cluster["documents"]
        assert any(w in cluster["topic"] for w in TOPIC_WORDS[_topic_of(cluster["examples"][0])])
    text = json.dumps(out, ensure_ascii=False)
    for leak in ("@acme.test", "Lucía", "James", "user_id"):
        assert leak not in text


def test_cli_refuses_bad_input(seeded_pool, capsys):
    assert tutor_cli(["gaps", "--org", "nowhere"]) == 2
    assert "no organisation" in capsys.readouterr().err
    assert tutor_cli(["gaps", "--org", "acme", "--days", "0"]) == 2


def test_a_cluster_with_too_few_askers_shows_counts_only(seeded_pool, seeded_deps, admin, monkeypatch):
    monkeypatch.setattr(gaps, "MIN_ASKERS", 5)
    clusters = gaps.find_gaps(seeded_deps, admin)
    assert clusters and all(not c.visible and not c.examples and not c.topic and not c.departments for c in clusters)
    with pytest.raises(gaps.GapActionError):
        gap_lessons.draft_lesson(seeded_deps, admin, clusters[0])


def test_old_questions_fall_outside_the_period(seeded_pool, seeded_deps, admin):
    recent = gaps.find_gaps(seeded_deps, admin, days=5)
    assert sum(c.questions for c in recent) == 4  # asked 1–4 days before loading; 5 days is just out


def test_draft_a_lesson_starts_a_content_job_with_the_questions_as_brief(seeded_pool, seeded_deps, admin):
    cluster = gaps.find_gaps(seeded_deps, admin)[0]
    job_id = gap_lessons.draft_lesson(seeded_deps, admin, cluster)
    with seeded_pool.connection() as conn:
        job = jobs.get_job(conn, admin.org_id, job_id)
        entry = audit.list_entries(conn, admin.org_id, action="knowledge_gap.draft_lesson")[0]
    assert job.status == "pending"
    assert [str(d) for d in job.source_document_ids] == [d["document_id"] for d in cluster.documents[:2]]
    assert job.options["origin"] == "knowledge_gap"
    assert all(q in job.options["brief"] for q in cluster.examples)
    assert entry.entity_id == str(job_id)


def test_missing_document_note_is_recorded_once_per_topic(seeded_pool, seeded_deps, admin):
    cluster = gaps.find_gaps(seeded_deps, admin)[1]
    assert gaps.note_missing_document(seeded_deps, admin, cluster, "  Ask HR for the benefits handbook ")
    assert not gaps.note_missing_document(seeded_deps, admin, cluster, "Updated note")
    notes = gaps.missing_document_notes(seeded_deps, admin)
    assert [(n.topic, n.note) for n in notes] == [(cluster.topic, "Updated note")]


@pytest.mark.parametrize(
    "who, words",
    [
        ("admin", ("Lagunas de conocimiento", "Redactar una lección", "Tiendas Reino Unido", "Stores UK")),
        ("admin_en", ("Knowledge gaps", "Draft a lesson", "Customer Care", "Atención al Cliente")),
    ],
)
def test_page_in_both_languages_and_draft_button(seeded_pool, who, words, request):
    user = request.getfixturevalue(who)
    at = open_page(user, "pages/knowledge_gaps.py")
    shown = texts(at)
    assert words[0] in shown
    # the askers' departments in the reader's language, as "Name (count)" (a document title may hold the other name)
    assert re.search(rf"{words[2]} \(\d+\)", shown) and not re.search(rf"{words[3]} \(\d+\)", shown)
    assert "¿Hay descuento en el gimnasio para empleados?" in shown
    assert "@acme.test" not in shown
    draft = [b for b in at.button if b.label == words[1]]
    assert len(draft) == 3
    draft[0].click().run()
    assert not at.exception
    assert any(
        s.value
        in ("Trabajo iniciado. Síguelo en el estudio de contenidos.", "Job started. Follow it in the Content studio.")
        for s in at.success
    )
