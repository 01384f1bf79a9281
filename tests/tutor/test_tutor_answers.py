"""The answer eval's held-out split (issue 29): 104 es/en questions (52 pairs, named `s24-…`) written at the start
of session 24, before being measured and without reading the tutor's code, the glossary or its losses, on facts no
earlier question asks, worded unlike the earlier sets (the asker's own figure or condition, a comparison, what happens
if, a manager's side, a short ask naming its subject; colloquial Spanish from Spain and Latin America; each language in
its own words): 14 pairs on the demo documents, 26 on the public ones (the Code of Conduct, the TTS leave, travel and
work-schedules pages), 24 questions answered by no document though each sits beside a covered topic (a naturalization
ceremony, a part-time schedule, station parking, a service dog, a forklift driver's extra pay, a sign-language
interpreter for customers, a 3-for-2 refund, probation extended, days to answer a report, TSA PreCheck, a bank's
currency fee, a reward for reporting phishing), asked of the offline tutor and of the naive anchor (the product's
search, then the three sentences most similar to the question) in one run. Session 21's held-out, measured at the
start of that session, is train now (seeds/eval/answers/README.md).

Issue 29's targets: facts in the answer >= 0.75, false grounding <= 5 %, abstention on answerable
<= 5 %, es/en parity >= 0.9, first citation on the answering chunk >= 0.9, the tutor above the anchor
in each language. On this split, session 24's held-out, measured once on 89a66e4 (main 7545060's code; load 3.9-5.5),
tutor [anchor]: facts 0.250 [0.487] (es 0.200 [0.400], en 0.300 [0.575]; demo 0.214 [0.500], public 0.269 [0.481]),
abstention 0.588 (es 0.600, en 0.575; demo 0.750, public 0.500), false grounding 0.208 (es 0.250, en 0.167) [1.0],
first citation 0.818 [0.500], parity 0.577 [0.423]. Met: none; the tutor abstains on 47 of 80 answerable questions,
holds the facts of 20, answers 5 of the 24 unanswerable ones, and the anchor holds more facts in both languages.
The asserts are floors: each figure as last measured, at least one question under it (facts 19/80, es 7/40, en 11/40,
first citation 26/33 answered, false grounding 6/24, abstention 48/80, parity 29/52), so that a regression shows.
They are not the targets.
`python -m agents.tutor answers seeds/eval/answers/questions.jsonl --split heldout` prints the table.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from agents.i18n import t
from agents.ingestion.pipeline import ingest_file
from agents.retrieval import ground
from agents.runtime.deps import process_embedder
from agents.tutor.answer_eval import RATE_LIMIT, evaluate, held, load, table
from agents.tutor.closest import closest_document
from core.turns import Suggestions
from storage import chunks as chunk_store
from tests.conftest import make_deps
from tests.tutor.conftest import by_name, passage, run

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
    assert tutor["all"]["facts"] >= 0.23 and tutor["all"]["first_citation"] >= 0.78
    assert tutor["es"]["facts"] >= 0.17 and tutor["en"]["facts"] >= 0.27
    assert tutor["all"]["false_grounding"] <= 0.26 < anchor["all"]["false_grounding"]
    assert tutor["all"]["abstention"] <= 0.61 and tutor["all"]["parity"] >= 0.55


# Lucía off sick: the onboarding guide's "If you are ill, tell your manager…" is in none of the passages her words
# retrieve (nor the TTS sick leave); from session 21 the TTS work schedules page's table of Monday-to-Friday hours
# (0.837) outvoted the onboarding guide's title block (0.834) and she was sent there. Session 23: a document's
# sections the turn did not retrieve vote too, and the guide's "8. Pay, time and leave" holds "ill" (her "mala").
_OFF_SICK = ("me he puesto mala el lunes, ¿qué hago?", None, "Employee Onboarding Guide", None)


@pytest.mark.parametrize(
    ("question", "course", "document", "section"),
    [
        _OFF_SICK,
        (
            "encontré un USB en el parking, ¿lo enchufo?",
            "Seguridad de la información: lo esencial",
            "Information Security Policy",
            "5.3 Removable media",
        ),
    ],
)
def test_the_closest_material_is_where_a_person_would_look(
    report, seeded_pool, lucia, question, course, document, section
):
    """Offered when no document answers, from the passages the turn retrieved: the document whose best passage
    and share of the question's words come nearest, whatever its language, and the course made from it, titled
    in the learner's language. A search of its own, preferring the learner's language, sent Lucía off sick to
    the customer-service manual and her USB stick to the warehouse safety manual."""
    events, text = run(lucia, question, seeded_pool, rate_limit=RATE_LIMIT)
    pointed = [a["label"] for a in by_name(events, Suggestions).actions if a["kind"] in ("course", "document")]
    assert pointed == ([t("tutor.action.course", "es", title=course)] if course else []) + [
        t("tutor.action.document", "es", title=document)
    ], (question, text)
    assert text.startswith("No encontré nada") and f"«{document}»" in text, text
    # the section named (tests/tutor/test_tutor_not_found_pointer.py), then the document's chip (a course's
    # Spanish title none finds)
    assert (f"en «{section}» (apartado en inglés)." in text) if section else (f"«{document}». " in text), text
    chips = by_name(events, Suggestions).suggestions
    explained = [section] if section else []
    assert chips[: len(explained) + 1] == [
        t("tutor.suggest.explain_course", "es", topic=topic) for topic in [*explained, document]
    ], chips
    assert (t("tutor.suggest.course", "es") in chips) == (course is None), chips  # no asking for a course named


def test_a_refused_turn_points_from_what_it_retrieved_without_searching_again(report, seeded_pool, lucia, monkeypatch):
    question = "encontré un USB en el parking, ¿lo enchufo?"
    scans = []
    scan = chunk_store.hybrid_candidates
    monkeypatch.setattr(chunk_store, "hybrid_candidates", lambda *a, **k: scans.append(1) or scan(*a, **k))
    ground(seeded_pool, lucia.org_id, lucia.id, question, llm=make_deps(seeded_pool).llm, embedder=process_embedder())
    searched = len(scans)
    events, _ = run(lucia, question, seeded_pool, rate_limit=RATE_LIMIT)
    assert by_name(events, Suggestions).actions[0]["kind"] == "course"  # refused, and pointed somewhere
    assert len(scans) - searched == searched  # the turn's own search, and no other


def test_the_closest_document_is_voted_by_its_best_passage_and_the_words_it_holds():
    question = "Can I plug in a USB stick I found in the car park?"
    forklift = passage(1, "Forklifts must be parked in the charging bay.", document="Warehouse Safety", score=0.837)
    usb = passage(2, "Never plug in a USB stick you found: hand it in.", document="Security Policy", score=0.832)
    usb_too = passage(3, "Removable media are blocked on laptops.", document="Security Policy", score=0.834)
    lesson = passage(4, "A USB stick you found", document="Module 1", score=0.9, source_type="lesson")
    # the document's best passage votes for it; within it, the passage holding the question's words is named
    assert closest_document(question, [forklift, usb, usb_too, lesson]) == usb
    assert closest_document(question, [forklift, lesson]) == forklift  # a lesson is no document to open
    assert closest_document(question, [lesson]) is None and closest_document(question, []) is None
