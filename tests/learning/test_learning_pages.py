"""Learner pages (AppTest on the demo organisation).

The Gradio tutor beside the course player is the tutor's own (tested there); here a stand-in widget
takes its place so these tests don't import Gradio (~20 s on a busy machine).
"""

import sys
import types
from datetime import date, timedelta
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from storage import attempts as attempt_store
from storage import courses as course_store
from storage import enrollments, users
from storage import lessons as lesson_store
from tests.apptest import open_page, texts
from tests.learning.fresh import enroll_from_scratch

ROOT = Path(__file__).resolve().parents[2]
COURSE = "Returns and Refunds Essentials"


@pytest.fixture(scope="module", autouse=True)
def tutor_stand_in():
    import streamlit as st

    chat_server = types.ModuleType("ui.chat_server")
    chat_server.start_chat_server = lambda: None
    tutor_chat = types.ModuleType("ui.tutor_chat")
    tutor_chat.embed_tutor = lambda user, course_id=None, lesson_id=None, exercise_id=None: st.caption(
        f"tutor:{course_id}:{lesson_id}:{exercise_id}"
    )
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(sys.modules, "ui.chat_server", chat_server)
        patch.setitem(sys.modules, "ui.tutor_chat", tutor_chat)
        yield


@pytest.fixture(scope="module")
def emily(seeded_pool):
    """An English-speaking employee enrolled in the returns course from scratch."""
    with seeded_pool.connection() as conn:
        user = users.get_user_by_email(conn, "emily@acme.test")
        course = next(c for c in course_store.list_courses(conn, user.org_id) if c.title == COURSE)
        enroll_from_scratch(conn, user.org_id, user.id, course.id, deadline=date.today() + timedelta(days=10))
        conn.execute("DELETE FROM exercise_attempts WHERE user_id = %s", (user.id,))
        conn.execute("DELETE FROM review_cards WHERE user_id = %s", (user.id,))
        outline = lesson_store.get_course_outline(conn, user.org_id, course.id)
    return {"user": user, "course": course, "outline": outline}


def test_home_my_courses_and_reviews(seeded_db_url, emily):
    at = open_page(emily["user"], "pages/home_employee.py")
    assert at.title[0].value.startswith("Hi, Emily")
    assert [m.label for m in at.metric] == ["Open courses", "Completed courses", "Reviews due"]
    assert COURSE in texts(at) and "Recent tutor chats" in texts(at)

    at = open_page(emily["user"], "pages/my_courses.py")
    assert COURSE in texts(at) and "Deadline:" in texts(at)

    at = open_page(emily["user"], "pages/reviews.py")
    assert "No reviews due" in texts(at)


def test_a_spanish_speaker_gets_spanish_pages(seeded_db_url, seeded_pool):
    with seeded_pool.connection() as conn:
        lucia = users.get_user_by_email(conn, "lucia@acme.test")
    at = open_page(lucia, "pages/my_courses.py")
    assert at.title[0].value == "Mis cursos" and not at.error
    at = open_page(lucia, "pages/home_employee.py")
    assert [m.label for m in at.metric] == ["Cursos pendientes", "Cursos completados", "Repasos pendientes"]


def test_course_player_lesson_exercise_feedback_and_next(seeded_db_url, seeded_pool, emily):
    user, outline = emily["user"], emily["outline"]
    linked = outline.modules[0].lessons[1]  # the tutor's "go to the lesson" link (issue 29) opens that lesson
    at = open_page(user, "pages/course_player.py", query={"course": str(emily["course"].id), "lesson": str(linked.id)})
    assert at.header[0].value == linked.title
    at = open_page(user, "pages/course_player.py", learn_course_id=str(emily["course"].id))
    first = outline.modules[0].lessons[0]
    assert at.header[0].value == first.title and "Course progress: 0%" in str(at.get("progress")[0].proto)
    assert "This course is in" not in texts(at)  # the course speaks the reader's language: nothing to say
    next(b for b in at.button if b.label == "Next →").click()
    at.run()
    assert at.header[0].value == outline.modules[0].lessons[1].title

    practice = next(lesson for lesson in outline.modules[0].lessons if lesson.exercises)
    at.button(key=f"nav_{practice.id}").click()
    at.run()
    test_exercise = practice.exercises[0]
    assert test_exercise.type == "test" and test_exercise.prompt in texts(at)
    assert "Multiple choice" in texts(at) and "Bloom" not in texts(at)  # a trainer's word, not the learner's
    with seeded_pool.connection() as conn:  # the tutor's guardrail sees the open exercise
        assert attempt_store.active_attempt(conn, user.org_id, user.id).exercise_id == test_exercise.id
    at.radio(key=f"in_{test_exercise.id}").set_value(test_exercise.content["answer"])
    next(b for b in at.button if b.label == "Check answer").click()
    at.run()
    assert not at.exception
    assert at.success and "Correct" in at.success[0].value and test_exercise.explanation in texts(at)
    assert "Source:" in texts(at) or not test_exercise.source_chunk_ids
    assert f"tutor:{emily['course'].id}:{practice.id}" in texts(at)  # the tutor knows the lesson

    true_false = practice.exercises[1]
    at.radio(key=f"in_{true_false.id}").set_value(not true_false.content["answer"])
    next(b for b in at.button if b.label == "Check answer").click()
    at.run()
    # a first wrong answer: where to look and a second try, not the solution
    assert any("Not yet" in w.value for w in at.warning) and not at.error
    assert "The statement is" not in texts(at) and true_false.explanation not in texts(at)
    assert {"Try again", "Show me the answer"} <= {b.label for b in at.button}
    with seeded_pool.connection() as conn:  # the second try is still in progress for the tutor
        assert attempt_store.active_attempt(conn, user.org_id, user.id).exercise_id == true_false.id
    at.button(key=f"again_{true_false.id}").click()
    at.run()
    at.radio(key=f"in_{true_false.id}").set_value(not true_false.content["answer"])
    next(b for b in at.button if b.label == "Check answer").click()
    at.run()
    assert any("Incorrect" in e.value for e in at.error)  # the second wrong try reveals
    assert "The statement is" in texts(at) and true_false.explanation in texts(at)
    with seeded_pool.connection() as conn:
        enrollment = enrollments.get_enrollment(conn, user.org_id, user.id, emily["course"].id)
    assert enrollment.status == "in_progress" and 0 < enrollment.progress < 1


def test_an_employee_reaches_the_learner_pages_through_navigation(seeded_db_url, emily):
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.session_state["user"] = emily["user"]
    at.run()
    for page in ("pages/my_courses.py", "pages/course_player.py", "pages/reviews.py"):
        at.switch_page(page)
        at.run()
        assert not at.exception and not at.error, page
    assert COURSE in texts(at) or "No reviews due" in texts(at)


def answer_in_apptest(at: AppTest, exercise) -> None:
    """Answer ``exercise`` correctly through its widget in the review page."""
    c = exercise.content
    if exercise.type == "dialogue":
        node = c["start"]
        while node is not None:
            option = next(o for o in c["nodes"][node]["options"] if o["correct"])
            next(b for b in at.button if b.label == option["text"]).click()
            at.run()
            node = option["next"]
        return
    if exercise.type in ("test", "true_false"):
        at.radio[0].set_value(c["answer"])
    elif exercise.type == "fill_blank":
        at.text_input[0].input(c["answers"][0])
    elif exercise.type == "order_steps":
        for box, step in zip(at.selectbox, c["steps"]):
            box.set_value(step)
    else:
        at.text_area[0].input(c["model_answer"])
    next(b for b in at.button if b.label in ("Check answer", "Comprobar")).click()
    at.run()


def test_reviews_serve_due_cards_one_at_a_time(seeded_deps, seeded_db_url, seeded_pool):
    from agents.learning import service

    with seeded_pool.connection() as conn:
        lucia = users.get_user_by_email(conn, "lucia@acme.test")
    due = service.due_reviews(seeded_deps, lucia)
    assert due, "the demo gives Lucía reviews due at sign-in"
    at = open_page(lucia, "pages/reviews.py")
    assert ("1 pendiente" if len(due) == 1 else f"{len(due)} pendientes") in texts(at) and due[
        0
    ].exercise.prompt in texts(at)
    assert "Bloom" not in texts(at)
    answer_in_apptest(at, due[0].exercise)
    assert not at.exception and at.success and "Correcto" in at.success[0].value
    assert "Próximo repaso" in texts(at)
    assert len(service.due_reviews(seeded_deps, lucia)) == len(due) - 1


def test_an_admin_previews_a_course_they_are_not_enrolled_in(seeded_db_url, seeded_pool, emily):
    """The studio's "open the course" link: an admin sees the lessons and each question with its answer, and
    nothing is recorded; an employee following the same link to a course not assigned to them does not."""
    with seeded_pool.connection() as conn:
        admin = users.get_user_by_email(conn, "oliver@acme.test")
        assert enrollments.get_enrollment(conn, admin.org_id, admin.id, emily["course"].id) is None
    at = open_page(admin, "pages/course_player.py", query={"course": str(emily["course"].id)})
    first = emily["outline"].modules[0].lessons[0]
    assert f"Preview of “{COURSE}”" in texts(at) and at.header[0].value == first.title
    assert not at.selectbox  # nothing to choose: the linked course is shown
    at.button(key="next_lesson").click().run()
    assert not at.exception and at.header[0].value == emily["outline"].modules[0].lessons[1].title
    with seeded_pool.connection() as conn:
        assert enrollments.get_enrollment(conn, admin.org_id, admin.id, emily["course"].id) is None

    with seeded_pool.connection() as conn:
        james = users.get_user_by_email(conn, "james@acme.test")
        other = next(
            c
            for c in course_store.list_courses(conn, james.org_id, status="published")
            if enrollments.get_enrollment(conn, james.org_id, james.id, c.id) is None
        )
    at = open_page(james, "pages/course_player.py", query={"course": str(other.id)})
    assert "Preview of" not in texts(at)


def test_a_reader_of_another_language_is_told_the_courses_language(seeded_db_url, seeded_pool, emily):
    """One language per course (issue 28): a Spanish reader opening the English course is told it is in English;
    the course is not half translated."""
    with seeded_pool.connection() as conn:
        marta = users.get_user_by_email(conn, "admin@acme.test")
    at = open_page(marta, "pages/course_player.py", query={"course": str(emily["course"].id)})
    assert not at.exception
    assert [i.value for i in at.info if i.value.startswith("Este curso está en inglés")], [i.value for i in at.info]


def test_the_verdict_line_says_the_verdict_once_in_the_readers_format():
    from ui.exercises import verdict_line

    assert verdict_line("es", "Todavía no", 0.0, "Todavía no.") == "Todavía no · 0 %"
    assert verdict_line("en", "Correct", 1.0, "Correct!") == "Correct · 100%"
    assert verdict_line("es", "Todavía no", 0.5, "1 de 2 huecos bien.") == "Todavía no · 50 % — 1 de 2 huecos bien."


def test_the_bloom_level_shows_for_admins_only():
    def exercise_card(show_level: bool, lang: str):
        from types import SimpleNamespace

        from ui.exercises import exercise_input

        exercise = SimpleNamespace(
            id="e1",
            type="true_false",
            prompt="Returns take 30 days",
            bloom_level="remember",
            content={"statement": "Returns take 30 days", "answer": True},
        )
        exercise_input(exercise, lang, key="e1", show_level=show_level)

    learner = AppTest.from_function(exercise_card, args=(False, "es")).run()
    assert [c.value for c in learner.caption] == ["Verdadero o falso"]
    admin = AppTest.from_function(exercise_card, args=(True, "en")).run()
    assert [c.value for c in admin.caption] == ["True or false · Bloom level: Remember (only admins see the level)"]
