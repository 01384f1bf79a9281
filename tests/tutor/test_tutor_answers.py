"""The answer eval's held-out split (issue 29): 74 es/en questions (37 pairs) written at the start of session
15, before any rule changed, on facts no earlier question asks, worded as an employee types (colloquial, some
misspelt): 17 pairs on the demo documents, 11 on the public TTS leave and travel pages and the Code of Conduct,
18 questions answered by no document though each sits beside a covered topic (the original delivery charge, a
visa, part-time holiday, the contact centre's hours, the forklift course's length, failed sign-in attempts,
federal holidays, frequent-flyer miles, appealing a ban), asked of the offline tutor and of the naive anchor (the
product's search, then the three sentences most similar to the question) in one run. Session 14's held-out,
measured three times, is train now (seeds/eval/answers/README.md).

Issue 29's targets: facts in the answer >= 0.75, false grounding <= 5 %, abstention on answerable
<= 5 %, es/en parity >= 0.9, first citation on the answering chunk >= 0.9, the tutor above the anchor
in each language. On this split, measured once at the start of session 15 (main 68a74fb), tutor [anchor]: facts
0.482 [0.536] (es 0.464 [0.464], en 0.500 [0.607]; demo 0.353 [0.382], public 0.682 [0.773]), abstention 0.429
(es 0.393, en 0.464; demo 0.559, public 0.227), false grounding 0.556 (es 0.556, en 0.556) [1.0], first citation
0.875 [0.518], parity 0.649 [0.405]. Met: none of the targets; the tutor abstains on 24 of 56 answerable
questions and grounds 10 of 18 unanswerable ones. This split is harder than session 14's (where the same code
had facts 0.625 [anchor 0.768]): its questions are worded less like the documents.
Measured once more after session 15's changes (glossary, glossed query, generic words, conditions as answers;
tuned on train): facts 0.482 (es 0.429, en 0.536), abstention 0.411, false grounding 0.444, first citation 0.848,
parity 0.649 (anchor facts 0.536): one Spanish answer lost, one English gained, two unanswerable caught.
The asserts are floors: each figure as last measured, one question under it (1/56 answerable, 1/28 per language,
1/18 unanswerable, 1/37 pairs), so that a regression shows; they are not the targets.
`python -m agents.tutor answers seeds/eval/answers/questions.jsonl --split heldout` prints the table.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from agents.ingestion.pipeline import ingest_file
from agents.tutor.answer_eval import evaluate, held, load, table
from agents.tutor.answers import closest_material
from tests.conftest import make_deps

ROOT = Path(__file__).resolve().parents[2]
QUESTIONS = ROOT / "seeds" / "eval" / "answers" / "questions.jsonl"
PUBLIC = sorted((ROOT / "seeds" / "public").glob("*.md"))


@pytest.fixture(scope="module")
def report(seeded_pool, lucia, james):
    for path in PUBLIC:
        if path.name != "README.md":
            ingest_file(seeded_pool, lucia.org_id, path)
    return evaluate(make_deps(seeded_pool), {"es": lucia, "en": james}, load(QUESTIONS, "heldout"))


def test_the_eval_set_is_what_its_readme_says():
    items = load(QUESTIONS)
    assert len(items) >= 120 and sum(not i["document"] for i in items) >= 30
    assert {i["lang"] for i in items} == {"es", "en"}
    assert len({i["document"] for i in items if i["set"] == "public"}) >= 3
    pairs = {}
    for item in items:
        pairs.setdefault(item["pair"], []).append(item)
    assert all(
        len(p) == 2 and p[0]["split"] == p[1]["split"] and p[0]["facts"] == p[1]["facts"] for p in pairs.values()
    )


def test_facts_are_matched_folded_and_a_planted_wrong_figure_is_not():
    assert held("Los vales **de hasta 20 EUR** [1]", [r"hasta 20 EUR"]) == [True]
    assert held("Report it WITHIN 1 HOUR of noticing", [r"within 1 hour of noticing"]) == [True]
    assert held("Los vales de hasta 100 EUR [1]", [r"hasta 20 EUR"]) == [False]


def test_held_out_figures_beside_the_anchor(report):
    print("\n" + table(report))
    tutor, anchor = report["figures"]["tutor"], report["figures"]["anchor"]
    assert report["n"] == 74
    assert tutor["all"]["facts"] >= 0.46 and tutor["all"]["first_citation"] >= 0.77
    assert tutor["es"]["facts"] >= 0.39 and tutor["en"]["facts"] >= 0.50
    assert tutor["all"]["false_grounding"] <= 0.50 < anchor["all"]["false_grounding"]
    assert tutor["all"]["abstention"] <= 0.43 and tutor["all"]["parity"] >= 0.62


def test_the_closest_material_is_the_nearest_text_not_the_nearest_title(report, seeded_pool, seeded_deps, lucia):
    """Offered when no document answers: the document holding the nearest passage, in the reader's language
    first, and the course made from it; nothing when no passage is near enough. By title similarity, Spanish
    questions got the public Code of Conduct ("¿Cuánto cobra mi compañero Pablo?", "¿Hay menú vegetariano…?":
    any Spanish title is near a Spanish question for e5-small); by the single nearest passage, James asking
    about the canteen got the Spanish travel policy."""
    night = closest_material(
        seeded_pool, lucia.org_id, "¿Cuánto es el plus de nocturnidad en el almacén?", "es", embedder=seeded_deps
    )
    assert [item["title"] for item in night] == ["Seguridad en el almacén", "Manual de Seguridad en el Almacén"]
    assert [item["kind"] for item in night] == ["course", "document"]
    for question in ("¿Cuánto cobra mi compañero Pablo?", "¿Hay menú vegetariano en el comedor de empresa?"):
        titles = [
            item["title"] for item in closest_material(seeded_pool, lucia.org_id, question, "es", embedder=seeded_deps)
        ]
        assert "Código de Conducta convenido para Contribuyentes" not in titles, (question, titles)
    canteen = closest_material(
        seeded_pool, lucia.org_id, "What's on the canteen menu today?", "en", embedder=seeded_deps
    )
    assert canteen == []
