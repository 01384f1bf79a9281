""" "¿Cuál es mi siguiente paso?" / "What's my next step?" is answered with the next step only (issue 29, session 22's
walk: both got the whole progress report): the lesson or the reviews to do, its course and why, then a pointer to
the whole record; "how am I doing?" keeps the report. Through the tutor on the demo learners, offline and with a
model (the fake OpenAI server)."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime, timedelta

import pytest

from agents.i18n import format_date, t
from agents.tutor.next_step import asks_next_step, next_step
from core.turns import Grounding, Suggestions
from storage import lessons as lesson_store
from storage.progress import progress_summary
from tests.fake_openai import Reply
from tests.tutor.conftest import by_name, run

NOW = datetime(2026, 12, 5, 12, tzinfo=UTC)


def _record(pool, user) -> dict:
    with pool.connection() as conn:
        return progress_summary(conn, user.org_id, user.id, lang=user.language)


def _lesson_titles(pool, user, course_id: str) -> list[str]:
    with pool.connection() as conn:
        outline = lesson_store.get_course_outline(conn, user.org_id, course_id)
    assert outline is not None
    return [lesson.title for module in outline.modules for lesson in module.lessons]


@pytest.mark.parametrize(
    "who, ask, report",
    [
        ("lucia", "¿Cuál es mi siguiente paso?", "¿Cómo voy en mis cursos?"),
        ("james", "What's my next step?", "How am I doing?"),
    ],
)
def test_the_next_step_is_one_line_and_a_pointer(seeded_pool, request, who, ask, report):
    user = request.getfixturevalue(who)
    language = user.language
    events, text = run(user, ask, seeded_pool)
    assert by_name(events, Grounding).source == "db"
    print(f"{who}: {ask}\n{text}\n")
    step, pointer = text.split("\n\n")
    assert step.startswith(t("tutor.next.lesson", language, lesson="", course="")[:14])  # "Tu siguiente paso:"
    assert pointer == t("tutor.next.more", language, ask=t("tutor.suggest.progress", language))
    record = _record(seeded_pool, user)
    open_courses = [e for e in record["enrollments"] if e["status"] != "completed"]
    named = [e for e in open_courses if e["course"] in step]
    assert len(named) <= 1 and all(e["course"] not in step for e in record["enrollments"] if e not in named)
    if named:  # a lesson: one of that course's, and why (its deadline or how far along)
        assert any(
            f"«{title}»" in step or f"“{title}”" in step
            for title in _lesson_titles(seeded_pool, user, named[0]["course_id"])
        )
    else:  # the reviews due
        assert str(record["reviews_due"]) in step
    assert t("tutor.skills", language, skills="")[:8] not in text  # not the report
    _, full = run(user, report, seeded_pool)
    assert all(e["course"] in full for e in record["enrollments"])  # "how am I doing?" keeps the whole report
    assert by_name(events, Suggestions).suggestions  # ways on, the pointer's question among them or in the text


def test_what_comes_next_deadline_then_reviews_then_the_soonest_course(seeded_pool, lucia):
    record = _record(seeded_pool, lucia)
    course = next(e for e in record["enrollments"] if e["status"] != "completed")
    others = [dict(e, status="completed") for e in record["enrollments"] if e is not course]

    def with_course(deadline: date | None, reviews: int, status: str = "in_progress") -> dict:
        shown = dict(course, deadline=deadline.isoformat() if deadline else None, status=status)
        return dict(record, enrollments=[shown, *others], reviews_due=reviews)

    with seeded_pool.connection() as conn:

        def step(progress: dict) -> dict:
            return next_step(conn, lucia.org_id, lucia.id, progress, NOW)

        soon = step(with_course(NOW.date() + timedelta(days=3), reviews=4))
        assert (soon["kind"], soon["why"], soon["course"]) == ("lesson", "deadline", course["course"])
        assert soon["lesson"] in _lesson_titles(seeded_pool, lucia, course["course_id"])
        assert step(with_course(NOW.date() - timedelta(days=1), reviews=4))["why"] == "overdue"
        assert step(with_course(NOW.date() + timedelta(days=20), reviews=4)) == {
            "kind": "reviews",
            "why": "due",
            "reviews": 4,
        }
        later = step(with_course(NOW.date() + timedelta(days=20), reviews=0))
        assert later["kind"] == "lesson" and later["why"] in ("started", "not_started")
        assert step(with_course(None, reviews=0, status="completed")) == {"kind": "done", "why": "done"}


def test_the_why_reads_in_both_languages(seeded_pool, lucia):
    from agents.tutor.next_step import next_step_text

    step = {"kind": "lesson", "why": "deadline", "course": "Seguridad", "course_id": "x", "lesson": "Contraseñas",
            "lesson_id": "y", "deadline": "2026-12-09", "progress": 0.125, "reviews": 2}  # fmt: skip
    spanish, english = next_step_text(step, "es"), next_step_text(step, "en")
    assert spanish.splitlines()[0] == (
        f"Tu siguiente paso: la lección «Contraseñas» de «Seguridad». Vence el {format_date('2026-12-09', 'es')}"
        " y llevas el 12 %."
    )
    assert english.startswith("Your next step: the lesson “Contraseñas” of “Seguridad”. It is due on 9 Dec 2026")
    assert "siguiente paso" in next_step_text({"kind": "reviews", "why": "due", "reviews": 3}, "es")


@pytest.mark.parametrize(
    "message, expected",
    [
        ("¿Cuál es mi siguiente paso?", True),
        ("What's my next step?", True),
        ("¿Por dónde sigo?", True),
        ("Which lesson should I do next?", True),
        ("¿Cómo voy en mis cursos?", False),
        ("How am I doing?", False),
        ("What should I review today?", False),
    ],
)
def test_a_next_step_ask_is_told_from_how_am_i_doing(message, expected):
    assert asks_next_step(message) is expected


def test_a_model_is_given_the_next_step_only(seeded_pool, lucia, fake_openai):
    seen = []

    def responder(request):
        if (request.get("response_format") or {}).get("type") == "json_object":
            return Reply(text=json.dumps({"intent": "progress"}))
        seen.append(request)
        return Reply(text="Tu siguiente paso es seguir con tu curso de seguridad.")

    fake_openai.responder = responder
    run(lucia, "¿Cuál es mi siguiente paso?", seeded_pool)
    data = seen[-1]["messages"][-1]["content"]
    assert "- next step (kind:" in data and "reviews due now" not in data
    assert "next step" in seen[-1]["messages"][0]["content"]  # the rule to answer with that one step
