"""Course questions the offline twin answers (issue 32 item 3): who hasn't finished a course, how a course
is doing, every course; a course title two courses fit is asked about, never guessed; a yes/no question
never plans a write."""

from __future__ import annotations

from datetime import date

import pytest

from agents.admin import twin
from agents.runtime.deps import process_embedder
from storage import course_learners
from storage import courses as course_store
from storage import users as user_store

EMBEDDER = process_embedder()
TODAY = date(2027, 1, 4)


@pytest.fixture(scope="module")
def oliver(seeded_pool):
    with seeded_pool.connection() as conn:
        return user_store.get_user_by_email(conn, "oliver@acme.test")


def test_who_has_not_finished_a_course_is_answered_by_name(turn, oliver, seeded_pool):
    reply = turn("who hasn't finished the security course?", user=oliver)
    [call] = reply.tool_calls
    assert call["tool"] == "get_course_stats"
    with seeded_pool.connection() as conn:
        [course] = course_store.find_courses(conn, oliver.org_id, "Information Security Essentials")
        open_ones = course_learners.unfinished_learners(conn, oliver.org_id, course.id)
    assert open_ones and all(p.status in ("assigned", "in_progress") for p in open_ones)
    assert "Not finished yet" in reply.response
    assert all(p.full_name in reply.response for p in open_ones[:8])


def test_who_has_finished_a_course_is_answered_by_name(turn, oliver, seeded_pool):
    """Asked "and who has finished it?", the stats named only who had not (session 18's read)."""
    reply = turn("and who has finished the returns course?", user=oliver)
    with seeded_pool.connection() as conn:
        [course] = course_store.find_courses(conn, oliver.org_id, "Returns and Refunds Essentials")
        done = course_learners.finished_learners(conn, oliver.org_id, course.id)
        open_ones = {p.full_name for p in course_learners.unfinished_learners(conn, oliver.org_id, course.id)}
    assert done and not open_ones & set(done)
    finished = reply.response.split("Finished (")[1].split(".")[0]
    assert all(name in finished for name in done) and not any(name in finished for name in open_ones)


@pytest.mark.parametrize(
    ("message", "tool"),
    [
        ("How is Store policy check-up doing?", "get_course_stats"),
        ("¿Qué tal va el curso de devoluciones?", "get_course_stats"),
        ("Show me all the courses", "list_courses"),
        ("Enséñame los cursos", "list_courses"),
    ],
)
def test_course_status_questions_read_the_course(turn, message, tool):
    reply = turn(message)
    assert [c["tool"] for c in reply.tool_calls] == [tool] and reply.pending is None


@pytest.mark.parametrize(
    ("message", "lang_word", "phrase"),
    [
        ("Inscribe a Lucía en el curso de seguridad", "¿cuál?", "seguridad"),
        ("Enrol Diego in the essentials course", "which one?", "essentials"),
    ],
)
def test_a_course_title_two_courses_fit_is_asked_about(turn, oliver, admin, message, lang_word, phrase):
    reply = turn(message, user=admin if "Inscribe" in message else oliver)
    assert reply.pending is None, "no preview of a course the admin did not choose"
    [call] = reply.tool_calls
    assert call["arguments"]["course_title"] == phrase
    assert lang_word in reply.response and len(call["result"]["rows"]) == 2


@pytest.mark.parametrize(
    "message",
    [
        "Tom Baker is deactivated, right?",
        "¿Lucía está dada de baja?",
        "Did we already archive the returns course?",
        "¿Ya archivaste el curso de gastos?",
        "Do I need to deactivate Andrés?",
        "Have you assigned Store policy check-up to Chloe?",
        "¿Se ha desactivado la cuenta de Andrés?",
    ],
)
def test_a_yes_no_question_never_plans_a_write(seeded_pool, admin, message):
    with seeded_pool.connection() as conn:
        planned, _ = twin.plan_offline(conn, admin.org_id, message, TODAY, EMBEDDER)
    assert planned and all(
        c["tool"] not in ("assign_course", "verify_skill", "deactivate_employee", "archive_course") for c in planned
    )


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("Whose certifications run out soon?", [("get_alerts", {"kind": "skill_expiring"})]),
        (
            "Desactiva a Pablo Sánchez, ha dejado la empresa",
            [("deactivate_employee", {"employee_name": "Pablo Sánchez"})],
        ),
        ("¿Qué alumnos están inactivos?", [("get_alerts", {"kind": "inactive"})]),
        ("Would you mind turning off Marina Gil's access?", [("deactivate_employee", {"employee_name": "Marina Gil"})]),
        # read as Marta and Oliver (session 13)
        ("¿Hay alguien que sepa de LOTO?", [("who_knows", {"skill_name": "Lockout-tagout (LOTO)"})]),
        ("who's our best person for budget analysis", [("who_knows", {"skill_name": "Budget analysis"})]),
        ("Can you show me every course we've got?", [("list_courses", {})]),
        (
            "Hiya, quick one - who still hasn't done the information security course?",
            [("get_course_stats", {"course_title": "Information Security Essentials"})],
        ),
    ],
)
def test_known_misreadings_are_read_right(seeded_pool, admin, message, expected):
    with seeded_pool.connection() as conn:
        planned, _ = twin.plan_offline(conn, admin.org_id, message, TODAY, EMBEDDER)
    assert [(c["tool"], c["arguments"]) for c in planned] == expected


@pytest.mark.parametrize(
    ("message", "title"),
    [
        ("Who's overdue on the security course?", "Information Security Essentials"),
        ("¿Qué alertas hay en el curso de seguridad en el almacén?", "Seguridad en el almacén"),
    ],
)
def test_alerts_asked_of_one_course_are_that_course_s_only(turn, oliver, admin, message, title):
    reply = turn(message, user=oliver if message.startswith("Who") else admin)
    [call] = reply.tool_calls
    assert call["tool"] == "get_alerts" and call["arguments"]["course_title"] == title
    rows = call["result"]["rows"]
    assert rows and {row["course"] for row in rows} == {title}
    assert reply.response.startswith(title)
    every = turn(
        "Who's overdue?" if message.startswith("Who") else "¿Qué alertas hay?",
        user=oliver if message.startswith("Who") else admin,
    )
    assert len(every.tool_calls[0]["result"]["rows"]) > len(rows), "the unscoped question sees other courses"


def test_a_department_is_no_course_in_an_alert_question(turn, oliver):
    """Read as Oliver: "Stores" fit "Store policy check-up", so the answer was "0 alerts: nobody"."""
    reply = turn("Who in Stores UK is overdue?", user=oliver)
    [call] = reply.tool_calls
    assert call["tool"] == "get_alerts" and "course_title" not in call["arguments"] and call["result"]["rows"]
