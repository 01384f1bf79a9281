"""The answer eval's held-out split (issue 29): 72 es/en questions over the six demo documents and the
three public ones, 16 of them answered by no document, asked of the offline tutor and of the naive
anchor (the product's search, then the three sentences most similar to the question) in one run.

Issue 29's targets: facts in the answer >= 0.75, false grounding <= 5 %, abstention on answerable
<= 5 %, es/en parity >= 0.9, first citation on the answering chunk >= 0.9, the tutor above the anchor
in each language. Held-out, s8 -> now [anchor]: facts 0.786 -> 0.750 [0.661] (es 0.750 -> 0.679 [0.607],
en 0.821 -> 0.821 [0.714]), false grounding 0.625 -> 0.312 [1.0] (es 0.375, en 0.25), abstention
0.054 -> 0.107, first citation 0.736 -> 0.820 [0.571], parity 0.472 -> 0.667 [0.444]. The answer check now pairs the
question's key terms with the sentence's words through a glossary (core.glossary) instead of e5 word
similarity, and retrieval also asks the question as the glossary says it in the other language
(grounding.search_both_languages). Met: facts, the anchor beaten in each language (public documents:
a tie, 0.50). Not met: false grounding, abstention (the check abstains where it cannot pair a question's
words with a sentence's), first citation, parity. The asserts hold what is reached, a little under it.
`python -m agents.tutor answers seeds/eval/answers/questions.jsonl --split heldout` prints the table.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from agents.ingestion.pipeline import ingest_file
from agents.tutor.answer_eval import evaluate, held, load, table
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
    assert report["n"] == 72
    assert tutor["all"]["facts"] >= 0.72 and tutor["all"]["first_citation"] >= 0.80
    assert tutor["all"]["false_grounding"] <= 0.32 < anchor["all"]["false_grounding"]
    assert tutor["all"]["abstention"] <= 0.11 and tutor["all"]["parity"] >= 0.65
    assert tutor["es"]["facts"] > anchor["es"]["facts"] and tutor["en"]["facts"] > anchor["en"]["facts"]
