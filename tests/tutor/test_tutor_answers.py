"""The answer eval's held-out split (issue 29): 76 es/en questions (38 pairs) over the six demo
documents and the three public ones, 18 of them answered by no document, asked of the offline tutor and
of the naive anchor (the product's search, then the three sentences most similar to the question) in one
run. The split was written in session 10 after the tuning it measures (the session-9 held-out, looked at
while tuning, is train now: seeds/eval/answers/README.md).

Issue 29's targets: facts in the answer >= 0.75, false grounding <= 5 %, abstention on answerable
<= 5 %, es/en parity >= 0.9, first citation on the answering chunk >= 0.9, the tutor above the anchor
in each language. On this split, main before session 10 -> now [anchor]: facts 0.776 -> 0.759 [0.741]
(es 0.793 -> 0.793 [0.690], en 0.759 -> 0.724 [0.793]), false grounding 0.111 -> 0.056 (es 0.222 ->
0.111, en 0), abstention 0.103 -> 0.103, first citation 0.846 -> 0.846 [0.586], parity 0.684 -> 0.711
[0.526]. Session 10: a sentence in the other language passes the answer check on the lower coverage only
among the two best-ranked sentences (answer_check.TRANSLATED_TOP: "¿Dónde puedo aparcar el coche en la
oficina central?" is no longer answered with the travel guide's rental-car parking charges); a sentence
joins the answer's lead only when it covers the question's terms itself or sits next to the lead, and a
fact stated by both language versions of a policy is said once (answers 17 % shorter on train; an
English jury-duty answer lost the sentence that held the fact beside a wrong lead). Met: facts, the
anchor beaten overall and in Spanish. Not met: in English the anchor leads (0.793: English questions
over the Spanish documents lose terms the glossary cannot pair), false grounding ("¿Cuándo empieza la
jornada intensiva de verano?" is answered with "the first day starts at 9:00"), abstention, first
citation, parity. The asserts hold what is reached, a little under it.
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
    assert report["n"] == 76
    assert tutor["all"]["facts"] >= 0.74 and tutor["all"]["first_citation"] >= 0.82
    assert tutor["all"]["false_grounding"] <= 0.06 < anchor["all"]["false_grounding"]
    assert tutor["all"]["abstention"] <= 0.11 and tutor["all"]["parity"] >= 0.69
    assert tutor["all"]["facts"] > anchor["all"]["facts"] and tutor["es"]["facts"] > anchor["es"]["facts"]


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
