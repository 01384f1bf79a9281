"""Assigning a course to a whole department (read as Marta and Oliver, session 13): every active person of it is
previewed by name, none dropped; it was "Dime a quién asigno el curso" / "No course matches 'whole Stores UK team
in the returns'"."""

from __future__ import annotations

import pytest

from storage import users as user_store


@pytest.mark.parametrize(
    ("message", "email", "department", "title"),
    [
        (
            "Asigna seguridad en el almacén a todo el equipo de Logística para final de mes",
            "admin@acme.test",
            "Logística",
            "Seguridad en el almacén",
        ),
        (
            "Enroll the whole Stores UK team in the returns course by the end of the month",
            "oliver@acme.test",
            "Stores UK",
            "Returns and Refunds Essentials",
        ),
    ],
)
def test_a_whole_department_is_previewed_person_by_person(turn, seeded_pool, message, email, department, title):
    with seeded_pool.connection() as conn:
        user = user_store.get_user_by_email(conn, email)
        everyone = user_store.list_employees(conn, user.org_id, is_active=True, lang=user.language)
    team = sorted(p.full_name for p in everyone if p.department == department)
    assert len(team) >= 4
    reply = turn(message, user=user)
    [call] = reply.tool_calls
    assert call["tool"] == "assign_course" and call["arguments"]["department"] == department
    assert reply.pending is not None, reply.response
    finished = {row["employee"] for row in call["result"]["rows"] if row["status"] == "completed"}
    # everyone is previewed; who finished the course keeps it as it is (session 14: its deadline is history)
    assert sorted(reply.pending["arguments"]["employee_names"]) == [name for name in team if name not in finished]
    assert title in reply.pending["preview"] and all(f"- {name}:" in reply.pending["preview"] for name in team)
