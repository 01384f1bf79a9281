"""Questions narrowed to what was asked (session 14, found reading as Marta and Oliver): a person's progress in one
course, people by skill level, a course's learners who are behind, one department's alerts, courses nobody is
enrolled in; and a whole department's deactivation explained (one person at a time) instead of "Dime qué
empleado"."""

from __future__ import annotations

import pytest

from storage import courses as course_store
from storage import users as user_store
from tests.admin.conftest import user_by_email


def _department(pool, user, department: str) -> set[str]:
    with pool.connection() as conn:
        people = user_store.list_employees(conn, user.org_id, lang=user.language)
    return {p.full_name for p in people if p.department == department}


@pytest.mark.parametrize(
    ("message", "email", "department", "one_at_a_time"),
    [
        ("Da de baja a todo el equipo de Logística", "admin@acme.test", "Logística", "de una persona en una"),
        ("Deactivate the whole Stores UK team", "oliver@acme.test", "Stores UK", "one person at a time"),
    ],
)
def test_a_whole_department_is_not_deactivated_and_the_reply_says_why(
    turn, seeded_pool, message, email, department, one_at_a_time
):
    user = user_by_email(seeded_pool, email)
    reply = turn(message, user=user)
    assert reply.pending is None
    assert one_at_a_time in reply.response and "\n" not in reply.response.split(one_at_a_time)[0]
    assert all(name in reply.response for name in _department(seeded_pool, user, department))
    picked = turn(sorted(_department(seeded_pool, user, department))[0], session=reply.session, user=user)
    assert picked.pending is not None and picked.pending["tool"] == "deactivate_employee", picked.response


def test_which_courses_have_nobody_enrolled_lists_only_the_empty_ones(turn, seeded_pool):
    oliver = user_by_email(seeded_pool, "oliver@acme.test")
    with seeded_pool.connection() as conn:
        courses = course_store.list_course_summaries(conn, oliver.org_id, lang="en")
    empty = [c.title for c in courses if not c.enrolled]
    taken = [c.title for c in courses if c.enrolled]
    assert empty and taken
    reply = turn("Which courses have nobody enrolled?", user=oliver)
    assert all(title in reply.response for title in empty)
    assert not any(title in reply.response for title in taken), reply.response
    spanish = turn("¿Qué cursos no tienen a nadie inscrito?")
    assert spanish.tool_calls[0]["arguments"] == {"nobody_enrolled": True}


@pytest.mark.parametrize(
    ("message", "email", "title", "progress"),
    [
        ("¿Qué tal lleva Elena el curso de seguridad?", "admin@acme.test", "Seguridad en el almacén", "0 %"),
        ("How's Tom doing on the Warehouse Safety course?", "oliver@acme.test", "Warehouse Safety", "62%"),
    ],
)
def test_a_persons_progress_in_one_course(turn, seeded_pool, message, email, title, progress):
    reply = turn(message, user=user_by_email(seeded_pool, email))
    [call] = reply.tool_calls
    assert call["tool"] == "get_employee_detail" and call["arguments"].get("course_title")
    assert reply.response.count("\n") == 0 and title in reply.response and progress in reply.response, reply.response


def test_a_person_not_in_the_course_is_said_so(turn, seeded_pool):
    reply = turn(
        "Is Ryan enrolled in the warehouse safety course?", user=user_by_email(seeded_pool, "oliver@acme.test")
    )
    assert reply.response == "Ryan Mitchell is not enrolled in “Warehouse Safety”."


@pytest.mark.parametrize(
    ("message", "skill", "experts"),
    [
        ("Who are the forklift experts?", "Forklift operation", {"Javier Torres"}),
        ("Dime los expertos de evacuación de emergencia", "Emergency evacuation", {"Ana Morales"}),
    ],
)
def test_people_by_skill_level(turn, seeded_pool, message, skill, experts):
    user = user_by_email(seeded_pool, "oliver@acme.test" if message.startswith("Who") else "admin@acme.test")
    reply = turn(message, user=user)
    [call] = reply.tool_calls
    assert call["tool"] == "who_knows" and call["arguments"] == {"skill_name": skill, "min_level": "high"}
    assert {row["full_name"] for row in call["result"]["rows"]} == experts


@pytest.mark.parametrize(
    ("message", "email", "title"),
    [
        ("Who's behind on Warehouse Safety?", "oliver@acme.test", "Warehouse Safety"),
        ("¿Quién se está quedando atrás en seguridad en el almacén?", "admin@acme.test", "Seguridad en el almacén"),
    ],
)
def test_who_is_behind_on_a_course_is_that_courses_alerts(turn, seeded_pool, message, email, title):
    reply = turn(message, user=user_by_email(seeded_pool, email))
    [call] = reply.tool_calls
    assert call["tool"] == "get_alerts" and call["arguments"]["course_title"] == "Seguridad en el almacén"
    rows = call["result"]["rows"]
    assert rows and {row["course"] for row in rows} == {title} and reply.response.startswith(title)


@pytest.mark.parametrize(
    ("message", "email", "department"),
    [
        ("¿Quién va con retraso en Logística?", "admin@acme.test", "Logística"),
        ("Any alerts in Stores UK?", "oliver@acme.test", "Stores UK"),
    ],
)
def test_alerts_of_one_department(turn, seeded_pool, message, email, department):
    user = user_by_email(seeded_pool, email)
    reply = turn(message, user=user)
    [call] = reply.tool_calls
    assert call["tool"] == "get_alerts" and call["arguments"]["department"] == department
    rows = call["result"]["rows"]
    assert rows and {row["user"] for row in rows} <= _department(seeded_pool, user, department)
    every = turn("¿Qué alertas hay?" if user.language == "es" else "Any alerts?", user=user)
    assert len(every.tool_calls[0]["result"]["rows"]) > len(rows)
    assert reply.response.startswith(department)
