"""Session 15: a deadline moved by months ("Give Harry one more month" was not understood) and people named by a
level ("Who are the beginners at phishing?" listed everyone at low or above)."""

from __future__ import annotations

from datetime import date

import pytest

from agents.admin.deadline_moves import Extension
from agents.i18n import format_date
from storage import enrollments
from storage import users as user_store
from tests.admin.conftest import user_by_email


def _harrys_deadline(pool) -> date:
    with pool.connection() as conn:
        harry = user_store.get_user_by_email(conn, "harry@acme.test")
        [deadline] = [
            row.deadline
            for row in enrollments.employee_enrollments(conn, harry.org_id, harry.id, "en")
            if row.status in ("assigned", "in_progress") and row.deadline
        ]
    return deadline


@pytest.mark.parametrize(
    ("current", "months", "moved"),
    [
        (date(2027, 1, 30), 1, date(2027, 2, 28)),
        (date(2028, 1, 31), 1, date(2028, 2, 29)),
        (date(2026, 11, 29), 2, date(2027, 1, 29)),
        (date(2026, 12, 15), 12, date(2027, 12, 15)),
    ],
)
def test_a_month_later_is_the_same_day_or_the_months_last(current, months, moved):
    assert Extension(months=months).after(current) == moved


@pytest.mark.parametrize(
    ("message", "email", "lang", "amount"),
    [
        ("Give Harry one more month", "oliver@acme.test", "en", "by 1 month"),
        ("Dale un mes más a Harry", "admin@acme.test", "es", "1 mes"),
    ],
)
def test_one_more_month_moves_the_deadline_a_calendar_month_and_is_written_on_confirm(
    turn, seeded_pool, message, email, lang, amount
):
    before = _harrys_deadline(seeded_pool)
    after = Extension(months=1).after(max(before, date.today()))  # late already: a month from today
    user = user_by_email(seeded_pool, email)
    reply = turn(message, user=user)
    assert reply.pending is not None, reply.response
    preview = reply.pending["preview"]
    assert amount in preview.splitlines()[0]
    assert f"{format_date(before, lang)} → {format_date(after, lang)}" in preview
    done = turn(session=reply.session, confirm=reply.pending["id"], user=user)
    assert done.executed and "error" not in done.executed[0]["result"]
    assert _harrys_deadline(seeded_pool) == after
    # said as what happened: his deadline moved (it read "assigned to Harry Patel", as if newly enrolled)
    moved = {"en": "New deadline in", "es": "Nueva fecha límite en"}[lang]
    assert f"{moved} " in done.response and f"Harry Patel → {format_date(after, lang)}" in done.response
    assert "assigned to" not in done.response and "asignado a" not in done.response


def test_the_beginners_at_a_skill_are_those_at_low_only(turn):
    reply = turn("Who are the beginners at phishing?")
    [call] = reply.tool_calls
    levels = {row["level"] for row in call["result"]["rows"]}
    assert levels == {"low"}, call["result"]["rows"]
    assert "that level only" in reply.response and "(Phishing awareness: low)" not in reply.response
    wider = turn("Who knows phishing at a beginner level or above?")
    assert {row["level"] for row in wider.tool_calls[0]["result"]["rows"]} > {"low"}
    spanish = turn("¿Quiénes son principiantes en carretillas?")
    assert {row["level"] for row in spanish.tool_calls[0]["result"]["rows"]} == {"low"}
    assert "solo ese nivel" in spanish.response


def test_people_by_skill_in_one_department_are_that_departments_only(turn):
    """ "Who in Stores UK is a beginner at returns?" listed Diego Martín (Tiendas) too: the department was not
    read. A category named like a department ("¿Quién sabe de atención al cliente?") stays the skills' question."""
    reply = turn("Who in Stores UK is a beginner at returns?")
    [call] = reply.tool_calls
    assert call["arguments"].get("department") == "Stores UK" and call["result"]["rows"]
    assert {row["department"] for row in call["result"]["rows"]} == {"Stores UK"}
    assert reply.response.startswith("Stores UK — ") and "Diego Martín" not in reply.response
    category = turn("¿Quién sabe de atención al cliente?")
    assert "department" not in category.tool_calls[0]["arguments"]
    assert len({row["department"] for row in category.tool_calls[0]["result"]["rows"]}) > 1
