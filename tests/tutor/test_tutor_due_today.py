""" "¿Qué me toca repasar hoy?" / "What should I review today?" is answered with what is due today (issue 29, session
22): how many reviews, the lessons they come from and their course, then a pointer to the whole record; "how am I
doing?" keeps the report. Through the tutor on the demo learners, offline and with a model (the fake OpenAI server)."""

from __future__ import annotations

import json

import pytest

from agents.i18n import t
from agents.tutor.classify import heuristic_intent
from agents.tutor.due_today import SHOWN_LESSONS, asks_due_today, due_today_text
from agents.tutor.next_step import asks_next_step
from core.turns import Grounding, Suggestions
from storage.progress import progress_summary
from tests.fake_openai import Reply
from tests.tutor.conftest import by_name, run
from ui.chat_render import render_answer


@pytest.mark.parametrize(
    "who, ask, report",
    [
        ("lucia", "¿Qué me toca repasar hoy?", "¿Cómo voy en mis cursos?"),
        ("lucia", "¿Qué debería repasar hoy?", "¿Cómo voy en mis cursos?"),
        ("james", "What should I review today?", "How am I doing?"),
    ],
)
def test_what_is_due_today_then_a_pointer(seeded_pool, request, who, ask, report):
    user = request.getfixturevalue(who)
    language = user.language
    events, text = run(user, ask, seeded_pool)
    assert by_name(events, Grounding).source == "db"
    print(f"{who}: {ask}\n{text}\n")
    with seeded_pool.connection() as conn:
        record = progress_summary(conn, user.org_id, user.id, lang=language)
    due, pointer = text.rsplit("\n\n", 1)
    assert pointer.endswith(t("tutor.next.more", language, ask=t("tutor.suggest.progress", language)))
    if record["reviews_due"]:
        head, *lessons = due.splitlines()
        assert head == t("tutor.due.head", language, n=record["reviews_due"])
        courses = [e["course"] for e in record["enrollments"]]
        shown = [line for line in lessons if line.startswith("- ")][:SHOWN_LESSONS]  # then "and n more lessons"
        assert shown and all(any(course in line for course in courses) for line in shown)
        # and a link to do them, under the answer
        [link] = [a for a in by_name(events, Suggestions).actions if a["kind"] == "reviews"]
        assert link["label"] == t("tutor.action.reviews", language, n=record["reviews_due"])
        assert 'href="http://app/reviews"' in render_answer(text, {"actions": [link]}, language, "http://app")
    else:
        assert due.startswith(t("tutor.due.none", language, ask="")[:20])
    assert t("tutor.skills", language, skills="")[:8] not in text  # not the report
    _, full = run(user, report, seeded_pool)
    assert all(e["course"] in full for e in record["enrollments"])  # "how am I doing?" keeps the whole report


def test_the_due_reviews_read_in_both_languages():
    due = {"reviews": 7, "lessons": [{"lesson": "Contraseñas", "course": "Seguridad", "count": 4},
                                     {"lesson": "Phishing", "course": "Seguridad", "count": 1},
                                     {"lesson": "Reembolsos", "course": "Devoluciones", "count": 1},
                                     {"lesson": "Cambios", "course": "Devoluciones", "count": 1}]}  # fmt: skip
    spanish, english = due_today_text(due, "es"), due_today_text(due, "en")
    assert spanish.splitlines()[:2] == ["Hoy te tocan 7 repasos:", "- 4 de «Contraseñas» («Seguridad»)"]
    assert spanish.splitlines()[4] == "- y 1 lección más"
    assert english.splitlines()[:2] == ["You have 7 reviews due today:", "- 4 from “Contraseñas” (“Seguridad”)"]
    assert due_today_text({"reviews": 0, "lessons": []}, "es").startswith(
        "Hoy no tienes repasos pendientes. Para saber qué hacer ahora, pregunta «¿Cuál es mi siguiente paso?»"
    )


@pytest.mark.parametrize(
    "message, expected",
    [
        ("¿Qué me toca repasar hoy?", True),
        ("¿Qué debería repasar hoy?", True),
        ("What should I review today?", True),
        ("Do I have to review anything today?", True),
        ("¿Tengo que repasar algo hoy?", True),
        ("¿Cómo voy en mis cursos?", False),
        ("How am I doing?", False),
        ("¿Cuál es mi siguiente paso?", False),
        ("How do I review a customer's refund request?", False),
    ],
)
def test_a_due_today_ask_is_told_from_the_others(message, expected):
    assert asks_due_today(message) is expected
    assert not (expected and asks_next_step(message))
    if expected:  # short: her record answers it without a model
        assert heuristic_intent(message) == "progress"


def test_a_model_is_given_what_is_due_only(seeded_pool, james, fake_openai):
    seen = []

    def responder(request):
        if (request.get("response_format") or {}).get("type") == "json_object":
            return Reply(text=json.dumps({"intent": "progress"}))
        seen.append(request)
        return Reply(text="You have some reviews due today.")

    fake_openai.responder = responder
    run(james, "What should I review today?", seeded_pool)
    data = seen[-1]["messages"][-1]["content"]
    assert "- reviews due today:" in data and "skill " not in data and "deadline" not in data
    assert "what to review today" in seen[-1]["messages"][0]["content"]  # the rule to answer with that alone
