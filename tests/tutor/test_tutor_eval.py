"""The tutor eval on the offline engine: 64 questions (es/en) over the six demo documents and one public
document nobody here wrote (seeds/public), each with the passage that answers it.

Figures measured when this was written (targets from issue 14 in brackets): first citation on the
answering chunk 0.828 [0.85], answers in the question's language 1.0 [1.0], on-topic quoted sentences
0.757 [0.80] (0.98 on the questions whose answering document retrieval ranked first: the misses are
cross-language retrieval misses). The asserts are floors just under those figures, so a regression
fails while the gaps stay visible. `python -m agents.tutor eval seeds/eval/tutor.jsonl` prints them.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from agents.tutor.evaluation import evaluate, load
from storage.ingest import ingest_file

ROOT = Path(__file__).resolve().parents[2]
EVAL = ROOT / "seeds" / "eval" / "tutor.jsonl"
PUBLIC = ROOT / "seeds" / "public" / "codigo_conducta_contributor_covenant.md"


@pytest.fixture(scope="module")
def report(seeded_pool, lucia, james):
    ingest_file(seeded_pool, lucia.org_id, PUBLIC)
    return evaluate(seeded_pool, {"es": lucia, "en": james}, load(EVAL))


def test_tutor_eval_figures(report):
    figures = {key: value for key, value in report.items() if key != "items"}
    print("tutor eval:", figures)
    assert report["n"] >= 60 and report["skipped"] == 0
    assert min(report["by_language"].values()) >= 25
    assert report["language_match"] == 1.0, [i["question"] for i in report["items"] if not i["language_ok"]]
    assert report["first_citation_accuracy"] >= 0.80
    assert report["sentence_precision"] >= 0.70
