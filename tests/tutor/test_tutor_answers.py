"""The answer eval's held-out split (issue 29): 104 es/en questions (52 pairs, named `s19-…`) written at the start
of session 19, before any rule changed and without reading the answer check or its losses, on facts no earlier
question asks, worded unlike the earlier sets (bare queries with no question form, the asker's role or place first,
a typo or a missing accent here and there, a person's words the documents don't use; each language in its own
words): 24 pairs on the six demo documents, 16 on the public TTS leave and travel pages and the Code of Conduct, 24
questions answered by no document though each sits beside a covered topic (a customer's lost wallet, holding an item,
staff buying damaged returns, a cheque, a till short at cashing up, lockers, a second job, items in a changing room,
a scratched display model, cash back at the till, a birthday off, an ID check for a knife set), asked of the offline
tutor and of the naive anchor (the product's search, then the three sentences most similar to the question) in one
run. Session 18's held-out, measured at the start of that session, is train now (seeds/eval/answers/README.md).

Issue 29's targets: facts in the answer >= 0.75, false grounding <= 5 %, abstention on answerable
<= 5 %, es/en parity >= 0.9, first citation on the answering chunk >= 0.9, the tutor above the anchor
in each language. On this split, measured once at the start of session 19 (main 5cc0b8c, load 7-13), tutor
[anchor]: facts 0.163 [0.287] (es 0.125 [0.275], en 0.200 [0.300]; demo 0.125 [0.271], public 0.219 [0.312]),
abstention 0.613 (es 0.625, en 0.600; demo 0.750, public 0.406), false grounding 0.083 (es 0.083, en 0.083) [1.0],
first citation 0.710 [0.412], parity 0.750 [0.404]. Met: none; the tutor abstains on 49 of 80 answerable
questions and the anchor holds more facts in both languages.
The asserts are floors: each figure as last measured, at least one question under it (facts 12/80, es 4/40, en
7/40, first citation 21/31 answered, false grounding 3/24, abstention 50/80, parity 38/52), so that a regression
shows; they are not the targets.
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
    assert report["n"] == 104
    assert tutor["all"]["facts"] >= 0.15 and tutor["all"]["first_citation"] >= 0.67
    assert tutor["es"]["facts"] >= 0.10 and tutor["en"]["facts"] >= 0.175
    assert tutor["all"]["false_grounding"] <= 0.13 < anchor["all"]["false_grounding"]
    assert tutor["all"]["abstention"] <= 0.63 and tutor["all"]["parity"] >= 0.73


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
