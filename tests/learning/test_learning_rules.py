"""Pure learning rules: grading per type, progress, score, skill evidence, FSRS, alerts."""

from datetime import UTC, date, datetime, timedelta
from uuid import uuid4

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agents.ingestion.embeddings import embed_query
from agents.insights.alerts import compute_alerts, failure_streak
from agents.learning import grading, progress, scheduling
from agents.learning.grading import AnswerError, grade, solution
from agents.llm import get_llm
from storage.enrollments import AlertRow
from storage.exercises import revealing_texts

TEST = {"options": ["Siete días", "Treinta días", "Un año"], "answer": 1}
TRUE_FALSE = {"statement": "Returns need a receipt.", "answer": True}
FILL = {"text": "Las devoluciones se aceptan en ___ días.", "answers": ["30", "treinta"]}
FILL_TWO = {"text": "Press ___ then ___.", "answers": ["Save", "Exit"]}
STEPS = {"steps": ["Greet the customer", "Check the receipt", "Inspect the item", "Refund"]}
CASE = {
    "scenario": "Un cliente quiere devolver unos zapatos usados hace 40 días sin ticket.",
    "rubric": [
        "Pedir el ticket o comprobante de compra",
        "Comprobar el plazo de 30 días",
        "Ofrecer una alternativa como un vale o un cambio",
    ],
    "model_answer": "Pido el ticket, compruebo el plazo de 30 días y, si no procede, ofrezco un vale.",
}
DIALOGUE = {
    "start": "s",
    "nodes": {
        "s": {
            "speaker": "Cliente",
            "text": "¡Quiero mi dinero ya!",
            "options": [
                {"text": "Entiendo su enfado, veamos qué pasó.", "next": "n2", "correct": True, "feedback": "Empatía."},
                {"text": "No es mi problema.", "next": None, "correct": False, "feedback": "Nunca así."},
            ],
        },
        "n2": {
            "speaker": "Cliente",
            "text": "Está roto.",
            "options": [
                {"text": "Le ofrezco un cambio o el reembolso.", "next": None, "correct": True, "feedback": "Bien."},
                {"text": "Vuelva mañana.", "next": None, "correct": False, "feedback": "Resuélvelo hoy."},
            ],
        },
    },
}


def test_test_and_true_false():
    assert grade("test", TEST, 1).correct and grade("test", TEST, 1).score == 1.0
    wrong = grade("test", TEST, 0, lang="en")
    # the verdict keeps the answer back (the learner gets a second try); the solution says it
    assert not wrong.correct and "Treinta días" not in wrong.feedback
    assert "Treinta días" in solution("test", TEST, "en")
    assert grade("true_false", TRUE_FALSE, True).correct
    assert not grade("true_false", TRUE_FALSE, False).correct
    for bad in (3, -1, True, "1", None):
        with pytest.raises(AnswerError):
            grade("test", TEST, bad)
    with pytest.raises(AnswerError):
        grade("true_false", TRUE_FALSE, "yes")


def test_fill_blank_ignores_case_accents_and_punctuation():
    assert grade("fill_blank", FILL, ["  TREINTA. "]).correct
    assert grade("fill_blank", FILL, "30").correct
    assert not grade("fill_blank", FILL, ["15"]).correct
    assert grade("fill_blank", {"text": "El ___ de compra", "answers": ["envío"]}, ["ENVIO"]).correct
    half = grade("fill_blank", FILL_TWO, ["save", "quit"])
    assert not half.correct and half.score == 0.5
    assert grade("fill_blank", FILL_TWO, ["save", "exit"]).correct
    with pytest.raises(AnswerError):
        grade("fill_blank", FILL_TWO, ["save"])


def test_order_steps_partial_credit_and_bad_answers():
    swapped = [STEPS["steps"][1], STEPS["steps"][0], *STEPS["steps"][2:]]
    result = grade("order_steps", STEPS, swapped)
    assert not result.correct and result.score == 0.5
    with pytest.raises(AnswerError):
        grade("order_steps", STEPS, STEPS["steps"][:3])
    with pytest.raises(AnswerError):
        grade("order_steps", STEPS, [*STEPS["steps"][:3], "Something else"])


@settings(max_examples=80, deadline=None)
@given(st.data())
def test_order_steps_correct_exactly_when_stored_order(data):
    steps = data.draw(st.lists(st.text(min_size=1, max_size=12), min_size=2, max_size=7, unique=True))
    order = data.draw(st.permutations(steps))
    result = grade("order_steps", {"steps": steps}, list(order))
    assert result.correct == (list(order) == steps)
    assert 0.0 <= result.score <= 1.0
    assert (result.score == 1.0) == result.correct


def test_dialogue_walks_the_graph():
    best = grade("dialogue", DIALOGUE, [0, 0])
    assert best.correct and best.score == 1.0 and "Empatía" in best.feedback
    mixed = grade("dialogue", DIALOGUE, [0, 1])
    assert not mixed.correct and mixed.score == 0.5
    assert not grade("dialogue", DIALOGUE, [1]).correct
    for bad in ([0], [0, 0, 0], [2], [], "0", [1, 0]):
        with pytest.raises(AnswerError):
            grade("dialogue", DIALOGUE, bad)


def test_practical_case_twin_measures_rubric_coverage():
    good = grade(
        "practical_case",
        CASE,
        "Le pediría el ticket de compra y comprobaría si está dentro del plazo "
        "de 30 días. Si no, le ofrezco un vale o un cambio.",
        prompt="¿Qué haces?",
        llm=get_llm(),
        embed_query=embed_query,
    )
    assert good.correct and good.score == 1.0 and good.engine == "offline"
    partial = grade(
        "practical_case",
        CASE,
        "Primero le pido el ticket de compra al cliente.",
        llm=get_llm(),
        embed_query=embed_query,
    )
    assert not partial.correct and 0 < partial.score < grading.PRACTICAL_PASS
    assert "Aún faltan 2 de los 3 puntos" in partial.feedback, partial.feedback
    for missed in CASE["rubric"][1:]:  # a second try comes first: the missing points are not named
        assert missed.rstrip(".") not in partial.feedback
    off_topic = grade(
        "practical_case",
        CASE,
        "Hace buen tiempo hoy en la ciudad, me voy a la playa.",
        llm=get_llm(),
        embed_query=embed_query,
    )
    assert off_topic.score == 0.0
    with pytest.raises(AnswerError):
        grade("practical_case", CASE, "no", llm=get_llm(), embed_query=embed_query)


def test_practical_case_uses_the_model_verdict(fake_openai):
    fake_openai.json(
        {
            "points": [
                {"index": 1, "covered": True, "comment": "ok"},
                {"index": 2, "covered": True, "comment": "ok"},
                {"index": 3, "covered": False, "comment": "no"},
            ],
            "feedback": "Bien: ticket y plazo; falta la alternativa.",
        }
    )
    result = grade("practical_case", CASE, "Pido el ticket y miro el plazo.", llm=get_llm(), embed_query=embed_query)
    assert result.engine.startswith("openai") and result.score == pytest.approx(2 / 3) and result.correct
    # the model's feedback names the missed point before the reveal: the deterministic feedback replaces it
    assert "alternativa" not in result.feedback and "Aún falta 1 de los 3 puntos" in result.feedback


def test_practical_case_keeps_model_feedback_that_hides_the_missed_points(fake_openai):
    fake_openai.json(
        {
            "points": [
                {"index": 1, "covered": True, "comment": "ok"},
                {"index": 2, "covered": False, "comment": "no"},
                {"index": 3, "covered": False, "comment": "no"},
            ],
            "feedback": "Bien que pidas el ticket. Piensa de nuevo en lo que dice la política.",
        }
    )
    result = grade("practical_case", CASE, "Pido el ticket al cliente.", llm=get_llm(), embed_query=embed_query)
    assert result.feedback == "Bien que pidas el ticket. Piensa de nuevo en lo que dice la política."


def test_the_reveal_shows_the_rubric_with_the_model_answer():
    revealed = grading.solution("practical_case", CASE, "es")
    assert CASE["model_answer"] in revealed and all(point in revealed for point in CASE["rubric"])


def test_revealing_texts_give_the_answer_away():
    assert revealing_texts("test", TEST) == ["Treinta días"]
    assert "es verdadera" in revealing_texts("true_false", TRUE_FALSE)
    assert revealing_texts("fill_blank", FILL) == ["30", "treinta"]
    assert "1. Greet the customer\n2. Check the receipt" in revealing_texts("order_steps", STEPS)[0]
    assert CASE["model_answer"] in revealing_texts("practical_case", CASE)
    assert revealing_texts("dialogue", DIALOGUE) == [
        "Entiendo su enfado, veamos qué pasó.",
        "Le ofrezco un cambio o el reembolso.",
    ]


@given(st.integers(0, 50), st.integers(-5, 60), st.integers(0, 50), st.integers(-5, 60))
def test_progress_is_a_fraction(lessons, lessons_done, exercises, exercises_done):
    value = progress.progress(lessons, lessons_done, exercises, exercises_done)
    assert 0.0 <= value <= 1.0
    if lessons + exercises and lessons_done >= lessons and exercises_done >= exercises:
        assert value == 1.0 and progress.status_for(value, True) == "completed"


def test_status_and_score():
    assert progress.status_for(0.0, False) == "assigned"
    assert progress.status_for(0.3, True) == "in_progress"
    assert progress.course_score([1.0, 0.5]) == 0.75 and progress.course_score([]) is None


def test_skill_evidence_rule():
    apply_ex = progress.ScoredExercise(1.0, "apply")
    recall_ex = progress.ScoredExercise(1.0, "remember")
    assert progress.evidenced_level(2, [apply_ex]) is None  # module not finished
    assert progress.evidenced_level(2, [apply_ex, recall_ex]) == "high"
    assert progress.evidenced_level(2, [recall_ex, recall_ex]) == "medium"  # no higher-order Bloom
    assert progress.evidenced_level(2, [apply_ex, apply_ex], "medium") == "medium"  # capped at target
    assert progress.evidenced_level(2, [apply_ex, progress.ScoredExercise(0.0, "apply")]) == "low"
    assert progress.evidenced_level(1, [progress.ScoredExercise(0.2, "apply")]) is None
    assert progress.raised_level(None, None, "medium") == "medium"
    assert progress.raised_level("low", "checkpoint", "medium") == "medium"
    assert progress.raised_level("high", "checkpoint", "medium") is None  # never downgrades
    assert progress.raised_level("low", "admin", "high") is None  # admin verification wins
    module, skill, other = uuid4(), uuid4(), uuid4()
    evidence = progress.skill_evidence({module: skill}, {module: 2}, {other: "high"}, {module: [apply_ex, recall_ex]})
    assert evidence == {skill: "high", other: "high"}


@settings(max_examples=80, deadline=None)
@given(
    st.lists(st.tuples(st.booleans(), st.floats(0, 1)), min_size=1, max_size=8),
    st.datetimes(min_value=datetime(2024, 1, 1), max_value=datetime(2030, 1, 1)),
    st.lists(st.integers(0, 90 * 24 * 3600), min_size=8, max_size=8),
)
def test_next_due_is_after_each_review(answers, start, gaps):
    card, when = None, start.replace(tzinfo=UTC)
    for (correct, score), gap in zip(answers, gaps):
        card, due = scheduling.review(card, correct, score, when)
        assert due > when
        when = when + timedelta(seconds=gap)


def test_ratings():
    assert scheduling.rating_for(False, 0.5).name == "Again"
    assert scheduling.rating_for(True, 0.7).name == "Hard"
    assert scheduling.rating_for(True, 1.0).name == "Good"
    _, due_wrong = scheduling.review(None, False, 0.0, datetime(2026, 1, 1, tzinfo=UTC))
    _, due_right = scheduling.review(None, True, 1.0, datetime(2026, 1, 1, tzinfo=UTC))
    assert due_right > due_wrong


def _row(**changes):
    base = dict(
        user_id=uuid4(),
        user_name="Lucía",
        course_id=uuid4(),
        course_title="Devoluciones",
        status="in_progress",
        progress=0.5,
        deadline=None,
        assigned_on=date(2026, 1, 1),
        last_activity_on=date(2026, 1, 20),
        outcomes={},
    )
    return AlertRow(**{**base, **changes})


def test_alerts():
    today = date(2026, 1, 21)
    assert compute_alerts([_row()], today) == []
    kinds = lambda rows: [(a.kind, a.severity) for a in compute_alerts(rows, today, lang="en")]  # noqa: E731
    assert kinds([_row(deadline=date(2026, 1, 19))]) == [("overdue", "high")]
    assert kinds([_row(deadline=date(2026, 1, 23), progress=0.2)]) == [("deadline_at_risk", "high")]
    assert kinds([_row(deadline=date(2026, 2, 10), progress=0.1)]) == [("deadline_at_risk", "medium")]
    assert kinds([_row(deadline=date(2026, 3, 30), progress=0.1)]) == []  # plenty of time left
    assert kinds([_row(outcomes={"Q1": [False, False, False, True], "Q2": [False, True, False, False]})]) == [
        ("repeated_failures", "medium")
    ]
    assert kinds([_row(last_activity_on=date(2026, 1, 2))]) == [("inactive", "low")]
    assert kinds([_row(last_activity_on=None, assigned_on=date(2025, 11, 1))]) == [("inactive", "medium")]
    same_user = uuid4()
    both = compute_alerts(
        [
            _row(user_id=same_user, last_activity_on=date(2026, 1, 1)),
            _row(user_id=same_user, course_title="Seguridad", last_activity_on=date(2026, 1, 2)),
        ],
        today,
    )
    assert len(both) == 1 and both[0].course == "Devoluciones, Seguridad"
    assert failure_streak([False, False, True, False]) == 2


def test_alert_details_read_in_the_admins_language_with_locale_dates():
    today = date(2026, 1, 21)
    late = _row(deadline=date(2026, 1, 19), progress=1 / 3)
    spanish, english = compute_alerts([late], today, lang="es")[0], compute_alerts([late], today, lang="en")[0]
    assert spanish.detail == "Venció hace 2 días (fecha límite 19 ene 2026); progreso 33 %"
    assert english.detail == "2 days overdue (deadline 19 Jan 2026); progress 33%"
    assert "2026-01-19" not in spanish.detail + english.detail
