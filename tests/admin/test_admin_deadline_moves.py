"""A deadline moved later for people already enrolled (session 14): "Give Harry one more week" / "Dale una semana
más a Harry" answered "Nothing to change" or "I couldn't match that". Now each person's current deadline moves by
the amount said, previewed old → new; with no course named, the person's one open course with a deadline (two:
asked which, and the answer completes it); what can't be moved or read is said."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from agents.i18n import format_date
from storage import audit, enrollments
from storage import users as user_store
from tests.admin.conftest import user_by_email


def _open_deadlines(pool, email: str) -> dict[str, object]:
    """course title (in English) -> deadline, of the person's open enrollments with one."""
    with pool.connection() as conn:
        person = user_store.get_user_by_email(conn, email)
        return {
            row.course: row.deadline
            for row in enrollments.employee_enrollments(conn, person.org_id, person.id, "en")
            if row.status in ("assigned", "in_progress") and row.deadline
        }


@pytest.mark.parametrize(
    ("message", "email", "lang"),
    [("Give Harry one more week", "oliver@acme.test", "en"), ("Dale una semana más a Harry", "admin@acme.test", "es")],
)
def test_one_more_week_moves_the_persons_deadline_a_week_later(turn, seeded_pool, message, email, lang):
    [(title, before)] = _open_deadlines(seeded_pool, "harry@acme.test").items()
    reply = turn(message, user=user_by_email(seeded_pool, email))
    [call] = reply.tool_calls
    assert call["tool"] == "assign_course" and call["arguments"]["extend_days"] == 7
    assert reply.pending is not None, reply.response
    after = max(before, date.today()) + timedelta(days=7)  # late already: a week from today (session 16)
    preview = reply.pending["preview"]
    assert f"{format_date(before, lang)} → {format_date(after, lang)}" in preview
    assert ("7 days" if lang == "en" else "7 días") in preview.splitlines()[0]


def test_the_moved_deadline_is_written_on_confirm_and_audited(turn, seeded_pool):
    [(title, before)] = _open_deadlines(seeded_pool, "raul@acme.test").items()
    reply = turn("Extend Raúl's deadline by 10 days", user=user_by_email(seeded_pool, "oliver@acme.test"))
    assert reply.pending is not None, reply.response
    done = turn(session=reply.session, confirm=reply.pending["id"], user=user_by_email(seeded_pool, "oliver@acme.test"))
    assert done.executed and "error" not in done.executed[0]["result"]
    after = max(before, date.today()) + timedelta(days=10)  # from today if Raúl is late already
    assert _open_deadlines(seeded_pool, "raul@acme.test") == {title: after}
    with seeded_pool.connection() as conn:
        oliver = user_store.get_user_by_email(conn, "oliver@acme.test")
        entry = audit.list_entries(conn, oliver.org_id, action="assign_course", limit=1)[0]
    assert entry.after["deadline"] == after.isoformat()
    assert entry.before["deadline"] == before.isoformat()


def test_two_open_courses_ask_which_and_the_answer_completes_the_move(turn, seeded_pool):
    deadlines = _open_deadlines(seeded_pool, "chloe@acme.test")
    assert len(deadlines) == 2
    oliver = user_by_email(seeded_pool, "oliver@acme.test")
    asked = turn("Chloe needs two more weeks", user=oliver)
    assert asked.pending is None and "which one?" in asked.response
    assert all(title in asked.response for title in deadlines)
    answered = turn("the returns one", session=asked.session, user=oliver)
    assert answered.pending is not None, answered.response
    before = deadlines["Returns and Refunds Essentials"]
    assert (
        f"{format_date(before, 'en')} → {format_date(before + timedelta(days=14), 'en')}" in answered.pending["preview"]
    )


def test_a_deadline_still_past_after_the_move_counts_from_today(turn, seeded_pool):
    """Session 15 refused "un día más" for Ryan, overdue for weeks ("ya pasó; dime una fecha nueva"); an HR admin
    giving someone late one more day means one day from today, and the preview says it counts from today."""
    [(title, before)] = _open_deadlines(seeded_pool, "ryan@acme.test").items()
    reply = turn("Dale a Ryan un día más", user=user_by_email(seeded_pool, "admin@acme.test"))
    assert reply.pending is not None, reply.response
    after = date.today() + timedelta(days=1)
    assert "desde hoy" in reply.pending["preview"]
    assert f"{format_date(before, 'es')} → {format_date(after, 'es')}" in reply.pending["preview"]


@pytest.mark.parametrize(
    ("message", "email", "said"),
    [
        ("Give Harry more time", "oliver@acme.test", "more time"),
        ("Dale más tiempo a Harry", "admin@acme.test", "más tiempo"),
    ],
)
def test_more_time_without_an_amount_says_what_it_could_not_read(turn, seeded_pool, message, email, said):
    reply = turn(message, user=user_by_email(seeded_pool, email))
    assert reply.pending is None and said in reply.response, reply.response


def test_a_new_date_without_a_course_moves_the_persons_one_open_course(turn, seeded_pool):
    [(title, before)] = _open_deadlines(seeded_pool, "grace@acme.test").items()
    reply = turn("Move Grace's deadline to the end of next month", user=user_by_email(seeded_pool, "oliver@acme.test"))
    assert reply.pending is not None, reply.response
    assert title in reply.pending["preview"] and f"{format_date(before, 'en')} → " in reply.pending["preview"]


def test_assigning_a_finished_course_again_leaves_its_deadline_alone(turn, seeded_pool):
    """Read as Marta: "Apúntame a Grace y a Harry al repaso … para el 15" previewed both finished enrollments'
    deadlines moving (21 oct → 15 dic, "conserva completado"), a change nobody would see."""
    reply = turn("Apúntame a Grace y a Harry al repaso de la política de tienda para el 15")
    assert reply.pending is None
    assert "No hay nada que cambiar" in reply.response and reply.response.count("completado") == 2, reply.response
