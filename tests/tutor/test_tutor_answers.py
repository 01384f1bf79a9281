"""The answer eval's held-out split (issue 29): 36 es/en questions (18 pairs) written in session 11
after that session's tuning on train, mostly on the public documents nobody here wrote (the TTS leave and
travel pages, the Code of Conduct), 10 of them answered by no document, asked of the offline tutor and of
the naive anchor (the product's search, then the three sentences most similar to the question) in one run.
The session-10 held-out, looked at in sessions 10 and 11, is train now (seeds/eval/answers/README.md).

Issue 29's targets: facts in the answer >= 0.75, false grounding <= 5 %, abstention on answerable
<= 5 %, es/en parity >= 0.9, first citation on the answering chunk >= 0.9, the tutor above the anchor
in each language. On this split [anchor]: facts 0.577 [0.692] (es 0.538 [0.692], en 0.615 [0.692]),
false grounding 0.50 (es 0.6, en 0.4), abstention 0.231, first citation 0.80 [0.692], parity 0.611
[0.944]. On the session-10 split the same code held facts 0.759 [0.741], false grounding 0.056,
abstention 0.103: on questions written after the tuning, the check lets through neighbours of what is
asked ("How many days off do I get for my wedding?" -> bereavement sick leave; "¿Cuántos días de permiso
me dan por mudanza?" -> the military spouse's relocation leave; "¿Cuál es el código de vestimenta en la
oficina central?" -> "the first day starts at 9:00 at the reception of the head office") and misses list
rows too short to be statements ("15+ years: 8 hours per pay period"). None of the targets is met and the
anchor holds more facts; the asserts hold what is reached, a little under it, so a regression shows.
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
    assert report["n"] == 36
    assert tutor["all"]["facts"] >= 0.55 and tutor["all"]["first_citation"] >= 0.75
    assert tutor["all"]["false_grounding"] <= 0.5 < anchor["all"]["false_grounding"]
    assert tutor["all"]["abstention"] <= 0.25 and tutor["all"]["parity"] >= 0.6


def test_the_closest_material_is_the_nearest_text_not_the_nearest_title(report, seeded_pool, seeded_deps, lucia):
    """Offered when no document answers: the document holding the nearest passage and the course made from
    it. By title similarity, Spanish questions got the public Code of Conduct ("¿Cuánto cobra mi compañero
    Pablo?", "¿Hay menú vegetariano…?": any Spanish title is near a Spanish question for e5-small)."""
    night = closest_material(
        seeded_pool, lucia.org_id, "¿Cuánto es el plus de nocturnidad en el almacén?", embedder=seeded_deps
    )
    assert [item["title"] for item in night] == ["Seguridad en el almacén", "Manual de Seguridad en el Almacén"]
    assert [item["kind"] for item in night] == ["course", "document"]
    for question in ("¿Cuánto cobra mi compañero Pablo?", "¿Hay menú vegetariano en el comedor de empresa?"):
        titles = [item["title"] for item in closest_material(seeded_pool, lucia.org_id, question, embedder=seeded_deps)]
        assert titles and "Código de Conducta convenido para Contribuyentes" not in titles, (question, titles)
