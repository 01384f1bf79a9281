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


def test_held_out_answers_are_judged_as_a_person_would():
    """Held out (21 answers, 74 points), before the Snowball stems, the contradiction veto and the retuned
    thresholds: per-point accuracy 0.78, 2 of 10 right answers graded 0 %, 5 of 11 wrong answers given a point;
    after: 0.86, 1 of 10, 3 of 11. Session 14, one alternative of a listed point credited: 0.89, 1 of 10, 3 of 11."""
    held_out = measure([row for row in labelled() if row["split"] == "held_out"])["held_out"]
    assert held_out["point_accuracy"] >= 0.88, held_out
    assert held_out["right_graded_zero"] <= 0.1, held_out
    assert held_out["wrong_given_a_point"] <= 0.3, held_out


def test_a_wrong_figure_or_a_negation_does_not_cover_the_point():
    rubric = [
        "Reports it straight away as a security incident to the IT Service Desk (extension 4400), within 1 hour.",
        "Does not delete the e-mail, so the evidence is preserved.",
    ]
    right = "I report it to the IT Service Desk on extension 4400 within 1 hour. I keep the e-mail as evidence."
    assert coverage_twin(rubric, right, "en", embed_query).covered == [True, True]
    late = "I report the incident to the IT Service Desk on extension 4400 within 24 hours."
    assert coverage_twin(rubric, late, "en", embed_query).covered[0] is False
    deleted = "I delete the e-mail so the evidence is gone, then report it to the IT Service Desk within 1 hour."
    assert coverage_twin(rubric, deleted, "en", embed_query).covered == [True, False]
    refused = ["Entrega la hoja de reclamaciones de inmediato, aunque crea que el cliente no tiene razón."]
    negated = "No le entrego la hoja de reclamaciones porque el cliente no tiene razón."
    assert coverage_twin(refused, negated, "es", embed_query).covered == [False]


def test_a_taxi_is_the_taxis_of_the_rubric():
    """Plurals of short words and Spanish/English inflection meet after Snowball stemming (the prefix stems of
    five letters split taxi/taxis, devolución/devolver and approves/approval)."""
    from agents.learning.rubric import stem_evidence

    assert stem_evidence("Los taxis se usan de noche.", "Cojo un taxi por la noche.", "es") == (2 / 3, 2 / 3, False)
    assert stem_evidence("La devolución del importe.", "Devolver el importe.", "es")[0] == 1.0
    assert stem_evidence("The manager approves refunds.", "approval of the refund by the manager", "en")[0] == 1.0


def test_one_alternative_of_a_listed_point_says_it():
    """ "Cojo un taxi" was graded 0 % against the offline course's point "Los taxis y vehículos con conductor se
    usan." (one word of four). A list of alternatives (an "o"/"or" list, a subject list that opens the point) is
    said by any one item; a list of things to do is not; an alternative said negated is no answer."""
    from agents.learning.rubric import alternative_lists

    taxis = [
        "Los taxis y vehículos con conductor se usan.",
        "Cuando no hay transporte público adecuado, por la noche o con material pesado.",
    ]
    assert coverage_twin(taxis, "Cojo un taxi.", "es", embed_query).covered == [True, False]
    assert coverage_twin(taxis, "Llamo a un taxi porque llevo material pesado.", "es", embed_query).covered == [
        True,
        True,
    ]
    assert coverage_twin(taxis, "No puedo coger un taxi, voy andando.", "es", embed_query).covered[0] is False
    assert coverage_twin(
        ["Se reservan en categoría económica o compacta."], "Uno compacto.", "es", embed_query
    ).covered == [True]
    assert alternative_lists("Taxis and cars with a driver are used.") == [[["taxis"], ["cars", "with", "a", "driver"]]]
    assert alternative_lists("Sabe que negar o retrasar la hoja es una infracción.") == [[["negar"], ["retrasar"]]]
    assert alternative_lists("Con daño rojo: descargar el módulo, acordonar la zona y no usarlo hasta repararlo.") == []
    assert alternative_lists("Entrega la hoja de reclamaciones de inmediato y sin preguntas.") == []
