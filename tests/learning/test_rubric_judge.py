"""Judging the judge: the offline coverage twin against learner answers labelled per rubric point
(tests/learning/data/rubric_answers.yaml). A third of the answers (by a hash of their text) is held out: the
rules are tuned on the rest, and the held-out floors below were measured once before and once after."""

from __future__ import annotations

import hashlib
from collections import defaultdict
from pathlib import Path

import yaml

from agents.ingestion.embeddings import embed_query
from agents.learning.rubric import coverage_twin

DATA = Path(__file__).parent / "data" / "rubric_answers.yaml"


def split_of(text: str) -> str:
    return "held_out" if int(hashlib.sha1(text.encode()).hexdigest(), 16) % 3 == 0 else "train"


def labelled() -> list[dict]:
    """Every answer with its case, language, labels and split; each case's model answer is a right answer (train)."""
    rows = []
    for case in yaml.safe_load(DATA.read_text(encoding="utf-8"))["cases"]:
        model = {"text": case["model_answer"], "covered": [1] * len(case["rubric"]), "kind": "right"}
        for answer in [model, *case["answers"]]:
            split = "train" if answer is model else split_of(answer["text"])
            rows.append({**answer, "rubric": case["rubric"], "lang": case["lang"], "split": split})
    return rows


def measure(rows: list[dict]) -> dict[str, dict[str, float]]:
    """Per split and language: per-point accuracy, right answers graded 0 %, wrong answers given any point."""
    tally: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for row in rows:
        got = coverage_twin(row["rubric"], row["text"], row["lang"], embed_query).covered
        for group in (row["split"], f"{row['split']}/{row['lang']}"):
            counts = tally[group]
            counts["points"] += len(got)
            counts["points_right"] += sum(g == bool(w) for g, w in zip(got, row["covered"]))
            if row["kind"] == "right":
                counts["right"] += 1
                counts["right_graded_zero"] += not any(got)
            else:
                counts["wrong"] += 1
                counts["wrong_given_a_point"] += any(got)
    return {
        group: {
            "point_accuracy": c["points_right"] / c["points"],
            "right_graded_zero": c["right_graded_zero"] / (c["right"] or 1),
            "wrong_given_a_point": c["wrong_given_a_point"] / (c["wrong"] or 1),
            "answers": c["right"] + c["wrong"],
        }
        for group, c in sorted(tally.items())
    }


if __name__ == "__main__":
    for group, figures in measure(labelled()).items():
        print(group, {k: round(v, 3) for k, v in figures.items()})
