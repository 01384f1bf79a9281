"""The answer eval's held-out split (issue 29): 60 es/en questions (30 pairs) written at the start of session
12, before any rule changed, on facts no earlier question asks (14 pairs on the demo documents, 10 on the
public TTS leave and travel pages and the Code of Conduct), 12 of them answered by no document (exam leave,
a sabbatical, pay for a public holiday, cloud storage, night-shift hours, a pensioner's discount), asked of the
offline tutor and of the naive anchor (the product's search, then the three sentences most similar to the
question) in one run. Session 11's held-out, read in that session, is train now (seeds/eval/answers/README.md).

Issue 29's targets: facts in the answer >= 0.75, false grounding <= 5 %, abstention on answerable
<= 5 %, es/en parity >= 0.9, first citation on the answering chunk >= 0.9, the tutor above the anchor
in each language. On this split, tutor [anchor], before session 12's changes -> after (tuned on train only:
the word-pairing bar 0.91 -> 0.93, "off/libre/dan" as asking words, the offline classifier's progress rule):
facts 0.729 -> 0.750 [0.667] (es 0.625 -> 0.667 [0.542], en 0.833 [0.792]), abstention 0.208 -> 0.188
(es 0.292, en 0.083), false grounding 0.25 (es 0.333, en 0.167) [1.0], first citation 0.921 -> 0.923
[0.750], parity 0.767 [0.500]. Met: facts, first citation, the tutor above the anchor in both languages.
Not met: false grounding, abstention (mostly Spanish questions whose answer is in an English document), parity.
The asserts hold what is reached, a little under it, so a regression shows; they are not the targets.
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
    assert report["n"] == 60
    assert tutor["all"]["facts"] >= 0.72 and tutor["all"]["first_citation"] >= 0.9
    assert all(tutor[lang]["facts"] > anchor[lang]["facts"] for lang in ("es", "en"))
    assert tutor["all"]["false_grounding"] <= 0.25 < anchor["all"]["false_grounding"]
    assert tutor["all"]["abstention"] <= 0.21 and tutor["all"]["parity"] >= 0.75


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
