"""The answer to a "which one?" completes the request that asked (agents.admin.clarify): the same person, the
same deadline, the course or person picked, previewed; a new request after the question is planned as new."""

from __future__ import annotations

import pytest

from storage import users as user_store


@pytest.fixture(scope="module")
def oliver(seeded_pool):
    with seeded_pool.connection() as conn:
        return user_store.get_user_by_email(conn, "oliver@acme.test")


def _asked(turn, message: str, user=None):
    reply = turn(message, user=user)
    [call] = reply.tool_calls
    assert reply.pending is None and len(call["result"]["rows"]) >= 2, reply.response
    return reply, call


def _previewed(reply) -> dict:
    assert reply.pending is not None, reply.response
    [call] = reply.tool_calls
    assert call["tool"] == "assign_course" and "error" not in call["result"]
    return call["arguments"]


@pytest.mark.parametrize(
    ("answer", "picked"),
    [
        ("Seguridad en el almacén", "Seguridad en el almacén"),
        ("la del almacén", "Seguridad en el almacén"),
        ("la primera", 0),
    ],
)
def test_answering_which_course_previews_the_assignment_asked_for(turn, answer, picked):
    asked, call = _asked(turn, "asigna el curso de seguridad a Tom Baker para final de mes")
    title = call["result"]["rows"][picked]["title"] if isinstance(picked, int) else picked
    reply = turn(answer, session=asked.session)
    arguments = _previewed(reply)
    assert arguments["course_title"] == title and title in reply.pending["preview"]
    assert arguments["employee_names"] == ["Tom Baker"] and arguments["deadline"] == call["arguments"]["deadline"]


def test_answering_which_course_in_english_by_place(turn, oliver):
    asked, call = _asked(turn, "Enrol Diego in the essentials course by Friday", user=oliver)
    reply = turn("the second one", session=asked.session, user=oliver)
    arguments = _previewed(reply)
    assert arguments["course_title"] == call["result"]["rows"][1]["title"]
    assert arguments["employee_names"] == ["Diego Martín"] and arguments["deadline"] == call["arguments"]["deadline"]
    assert call["result"]["rows"][1]["title"] in reply.pending["preview"]


@pytest.mark.parametrize("answer", ["Marina", "la de atención al cliente"])
def test_answering_which_person_previews_the_assignment_asked_for(turn, answer):
    asked, call = _asked(turn, "asigna seguridad en el almacén a mar para el viernes")
    reply = turn(answer, session=asked.session)
    arguments = _previewed(reply)
    assert arguments["employee_names"] == ["Marina Gil"] and arguments["deadline"] == call["arguments"]["deadline"]
    assert "Marina Gil" in reply.pending["preview"] and "Seguridad en el almacén" in reply.pending["preview"]


def test_a_new_request_after_the_question_is_planned_as_new(turn):
    asked, _ = _asked(turn, "asigna el curso de seguridad a Tom Baker para final de mes")
    reply = turn("¿Quién sabe de Oracle?", session=asked.session)
    assert reply.pending is None and [c["tool"] for c in reply.tool_calls] != ["assign_course"]
