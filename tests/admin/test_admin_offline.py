"""Scenarios through the offline engine: routing, arguments, ambiguity, and the confirm protocol."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from agents.admin import conversations, dashboards, service
from agents.i18n import code_label, format_date
from storage import audit, enrollments, pending_actions
from storage import courses as course_store
from storage import skills as skill_store
from storage import users as user_store
from tests.admin.conftest import audit_count, is_active


def _only_call(reply) -> dict:
    assert len(reply.tool_calls) == 1, reply.tool_calls
    return reply.tool_calls[0]


def _rows(call) -> list[dict]:
    return call["result"]["rows"]


@pytest.mark.parametrize(
    ("message", "tool", "check"),
    [
        (
            "lista de empleados inactivos",
            "list_employees",
            lambda c: [r["full_name"] for r in _rows(c)] == ["Andrés Molina"],
        ),
        (  # read as Marta (session 13): the whole staff list answered a question about one department
            "¿Cuántas personas hay en Logística?",
            "list_employees",
            lambda c: (
                [r["full_name"] for r in _rows(c)]
                == ["Ana Morales", "Elena Castro", "Javier Torres", "Raúl Navarro", "Tom Baker"]
            ),
        ),
        (  # read as Oliver (session 13): "who works in" a department was not understood
            "Who works in Tiendas?",
            "list_employees",
            lambda c: c["arguments"] == {"department": "Tiendas"} and len(_rows(c)) == 6,
        ),
        (
            "¿Quién trabaja en Logística?",
            "list_employees",
            lambda c: [r["full_name"] for r in _rows(c)][:1] == ["Ana Morales"] and len(_rows(c)) == 5,
        ),
        (  # read as Marta (session 22): the whole staff (25) answered who has not finished their training
            "¿Cuántas personas no han terminado la formación obligatoria?",
            "list_pending_courses",
            lambda c: 0 < len(_rows(c)) and all(r["status"] in ("assigned", "in_progress") for r in _rows(c)),
        ),
        (
            "perfil de James",
            "get_employee_detail",
            lambda c: (
                c["result"]["employee"]["full_name"] == "James Carter"
                and any(e["course"] == "Devoluciones y reembolsos: lo esencial" for e in c["result"]["enrollments"])
            ),
        ),  # in the admin's language
        (
            "show the skills matrix for warehouse safety",
            "get_skills_matrix",
            lambda c: c["arguments"] == {"category": "Warehouse safety"} and "Forklift operation" in _rows(c)[0],
        ),
        (
            "skill gaps with fewer than 2 experts",
            "get_skill_gaps",
            lambda c: c["arguments"] == {"threshold": 2} and "Oracle Financials" in {r["skill"] for r in _rows(c)},
        ),
        (
            "who knows Oracle Financials?",
            "who_knows",
            lambda c: [r["full_name"] for r in _rows(c)] == ["Isabel Vega", "Ryan Mitchell"],
        ),
        (
            "list courses in draft",
            "list_courses",
            lambda c: _rows(c) and {r["status"] for r in _rows(c)} == {"draft"},
        ),
        (
            "stats for the returns course",
            "get_course_stats",
            lambda c: c["result"]["course"]["title"] == "Returns and Refunds Essentials",
        ),
        (
            "alertas",
            "get_alerts",
            lambda c: {"overdue", "deadline_at_risk"} <= {r["kind"] for r in _rows(c)},
        ),
        ("sugerencias de mentores", "get_mentorship_suggestions", lambda c: len(_rows(c)) > 0),
    ],
)
def test_each_read_tool_runs_at_once(turn, message, tool, check):
    reply = turn(message)
    call = _only_call(reply)
    assert call["tool"] == tool and "error" not in call["result"], call
    assert check(call), call
    assert reply.pending is None and reply.executed == [] and reply.response


def test_ambiguous_name_lists_candidates_and_changes_nothing(turn, seeded_pool):
    reply = turn("perfil de Mar")
    call = _only_call(reply)
    names = {row["name"] for row in _rows(call)}
    assert {"Marina Gil", "Diego Martín"} <= names and "Marina Gil" in reply.response
    writes = audit_count(seeded_pool)
    reply = turn("desactiva a Mar", reply.session)
    assert reply.pending is None and {"Marina Gil", "Diego Martín"} <= {r["name"] for r in _rows(reply.tool_calls[0])}
    assert audit_count(seeded_pool) == writes


def test_unknown_course_is_explained_and_nothing_is_pending(turn):
    reply = turn("assign the course Quantum Basket Weaving to James")
    call = _only_call(reply)
    assert call["arguments"]["course_title"] == "Quantum Basket Weaving"
    assert "Quantum Basket Weaving" in call["result"]["error"] and reply.pending is None
    assert "Returns and Refunds Essentials" in reply.response  # the courses that do exist


def _enrollment(pool, admin, email, title):
    with pool.connection() as conn:
        person = user_store.find_people(conn, admin.org_id, email)[0]
        course = course_store.find_courses(conn, admin.org_id, title)[0]
        return enrollments.get_enrollment(conn, admin.org_id, person.id, course.id)


def test_assign_then_confirm_writes_once_with_audit(turn, seeded_pool, admin):
    assert _enrollment(seeded_pool, admin, "tom@acme.test", "Information Security Essentials") is None
    reply = turn("assign Information Security Essentials to Tom Baker in 30 days")
    pending = reply.pending
    deadline = (date.today() + timedelta(days=30)).isoformat()
    assert pending["tool"] == "assign_course" and pending["arguments"]["employee_names"] == ["Tom Baker"]
    for part in ("Tom Baker", "Information Security Essentials", format_date(deadline, "en"), admin.full_name):
        assert part in pending["preview"]  # who, what, when, by whom
    assert not any(key.endswith(("_id", "_ids")) for key in pending["arguments"])  # no internal ids shown
    assert _enrollment(seeded_pool, admin, "tom@acme.test", "Information Security Essentials") is None

    done = turn(session=reply.session, confirm=pending["id"])
    assert [e["id"] for e in done.executed] == [pending["id"]] and done.pending is None
    enrollment = _enrollment(seeded_pool, admin, "tom@acme.test", "Information Security Essentials")
    assert enrollment.status == "assigned" and enrollment.deadline.isoformat() == deadline
    with seeded_pool.connection() as conn:
        entry = audit.list_entries(conn, admin.org_id, action="assign_course")[0]
    assert entry.actor_id == admin.id and entry.before is None and entry.after["deadline"] == deadline

    writes = audit_count(seeded_pool)
    again = turn(session=reply.session, confirm=pending["id"])  # a repeated confirm
    assert again.executed == [] and audit_count(seeded_pool) == writes
    assert "already" in again.response or "ya se ejecutó" in again.response


def test_reassigning_an_enrolled_course_changes_only_what_was_asked(turn, seeded_pool, admin):
    before = _enrollment(seeded_pool, admin, "james@acme.test", "Returns and Refunds Essentials")
    assert before is not None and before.status != "cancelled"
    same = turn("asigna Returns and Refunds Essentials a James")  # no deadline given: nothing changes
    assert same.pending is None and "James Carter" in same.response and "no cambia nada" in same.response
    later = date.today() + timedelta(days=45)
    reply = turn(f"asigna Returns and Refunds Essentials a James antes del {later.isoformat()}")
    preview = reply.pending["preview"]
    old_deadline = format_date(before.deadline, "es") if before.deadline else "sin fecha límite"
    assert f"{old_deadline} → {format_date(later, 'es')}" in preview  # Spanish dates, the one real change
    assert "None" not in preview and later.isoformat() not in preview
    assert code_label("status", before.status, "es") in preview  # what is kept, in Spanish
    turn(session=reply.session, confirm=reply.pending["id"])
    after = _enrollment(seeded_pool, admin, "james@acme.test", "Returns and Refunds Essentials")
    assert after.deadline == later and after.progress == before.progress and after.status == before.status


def test_assign_then_cancel_by_message_or_button(turn, seeded_pool, admin):
    reply = turn("asigna el curso Seguridad en el almacén a Priya")
    assert reply.pending and "Priya Shah" in reply.pending["preview"]
    cancelled = turn("no", reply.session)
    assert cancelled.pending is None and cancelled.executed == [] and cancelled.tool_calls == []
    assert _enrollment(seeded_pool, admin, "priya@acme.test", "Seguridad en el almacén") is None
    late = turn(session=reply.session, confirm=reply.pending["id"])  # confirming after the cancel
    assert late.executed == []
    assert _enrollment(seeded_pool, admin, "priya@acme.test", "Seguridad en el almacén") is None

    second = turn("asigna el curso Seguridad en el almacén a Priya", reply.session)
    button = turn(session=reply.session, cancel=True)
    assert button.pending is None and "Cancel" in button.response
    with seeded_pool.connection() as conn:
        assert pending_actions.get_pending(conn, admin.org_id, admin.id, second.pending["id"]).status == "cancelled"


def test_a_typed_yes_confirms_once_and_anything_else_keeps_the_action_pending(turn, seeded_pool):
    writes = audit_count(seeded_pool)
    reply = turn("desactiva a Chloe")
    assert reply.pending and "Chloe Evans" in reply.pending["preview"]
    asked = turn("who knows Oracle Financials?", reply.session)  # a question: answered, the preview stays
    assert asked.pending["id"] == reply.pending["id"] and asked.executed == []
    assert [c["tool"] for c in asked.tool_calls] == ["who_knows"] and "Still waiting for your" in asked.response
    mixed = turn("sí pero a Priya no", reply.session)  # not only confirmation words
    assert mixed.pending["id"] == reply.pending["id"] and mixed.executed == []
    assert is_active(seeded_pool, "chloe@acme.test") and audit_count(seeded_pool) == writes

    yes = turn("¡Sí!", reply.session)
    assert [e["id"] for e in yes.executed] == [reply.pending["id"]] and yes.pending is None
    assert not is_active(seeded_pool, "chloe@acme.test") and audit_count(seeded_pool) == writes + 1
    again = turn("sí", reply.session)  # nothing pending: nothing happens
    assert again.executed == [] and again.pending is None and audit_count(seeded_pool) == writes + 1

    wrong = turn("desactiva a Harry", reply.session)
    stale = turn(session=reply.session, confirm=reply.pending["id"])  # a stale id: not the one pending
    assert stale.executed == [] and stale.pending["id"] == wrong.pending["id"]
    cancelled = turn("no, espera", reply.session)
    assert cancelled.pending is None and cancelled.executed == [] and is_active(seeded_pool, "harry@acme.test")


def test_verify_deactivate_archive_each_preview_then_confirm(turn, seeded_pool, admin):
    reply = turn("verify Laura's Complaint handling as high")
    assert reply.pending["tool"] == "verify_skill" and "low (checkpoint" in reply.pending["preview"]
    assert "→ high" in reply.pending["preview"]
    turn(session=reply.session, confirm=reply.pending["id"])
    with seeded_pool.connection() as conn:
        laura = user_store.find_people(conn, admin.org_id, "laura@acme.test")[0]
        held = {s.skill: s for s in skill_store.user_skills(conn, admin.org_id, laura.id)}
    assert held["Complaint handling"].level == "high" and held["Complaint handling"].source == "admin"

    reply = turn("deactivate Grace", reply.session)
    assert reply.pending["tool"] == "deactivate_employee" and is_active(seeded_pool, "grace@acme.test")
    turn(session=reply.session, confirm=reply.pending["id"])
    assert not is_active(seeded_pool, "grace@acme.test")

    reply = turn("archive the course Atención al cliente de excelencia", reply.session)
    assert reply.pending["tool"] == "archive_course" and "→ archived" in reply.pending["preview"]
    turn(session=reply.session, confirm=reply.pending["id"])
    with seeded_pool.connection() as conn:
        course = course_store.find_courses(conn, admin.org_id, "Atención al cliente de excelencia")[0]
        entry = audit.list_entries(conn, admin.org_id, action="archive_course")[0]
        actions = {e.action for e in audit.list_entries(conn, admin.org_id)}
    assert course.status == "archived" and entry.before == {"status": "published"}
    assert {"verify_skill", "deactivate_employee", "archive_course"} <= actions


def test_a_two_part_request_runs_the_read_and_previews_the_write(turn):
    """Issue 32: both parts are planned (the read runs, the write waits for its confirm); before, the
    write was only suggested as a next step."""
    reply = turn("alertas y luego asigna el curso de seguridad en el almacén a Harry")
    assert [c["tool"] for c in reply.tool_calls] == ["get_alerts", "assign_course"]
    assert reply.pending["tool"] == "assign_course" and "Harry Patel" in reply.pending["preview"]
    turn(session=reply.session, cancel=True)


def test_employees_never_reach_the_assistant_or_dashboards(seeded_deps, turn, lucia, james):
    for employee in (lucia, james):
        with pytest.raises(service.AdminAccessError):
            turn("lista de empleados", user=employee)
        with pytest.raises(service.AdminAccessError):
            dashboards.overview(seeded_deps, employee)
        with pytest.raises(service.AdminAccessError):
            dashboards.matrix_view(seeded_deps, employee)
        with pytest.raises(service.AdminAccessError):
            conversations.conversation(seeded_deps, employee, None)


def test_an_admin_cannot_resume_another_admins_session(turn, seeded_pool):
    reply = turn("desactiva a Elena")
    with seeded_pool.connection() as conn:
        from storage import users

        oliver = users.get_user_by_email(conn, "oliver@acme.test")
    with pytest.raises(service.AdminInputError):
        turn(session=reply.session, confirm=reply.pending["id"], user=oliver)
    assert is_active(seeded_pool, "elena@acme.test")


def test_a_skill_is_found_by_its_name_in_either_language_accents_and_case_aside(turn):
    reply = turn("¿Quién sabe manejar carretillas elevadoras?")
    call = reply.tool_calls[0]
    assert call["tool"] == "who_knows" and call["arguments"]["skill_name"] == "Forklift operation"
    assert call["result"]["skills"] == ["Manejo de carretillas elevadoras"]  # said in the reader's language
    assert {r["full_name"] for r in _rows(call)} == {"Javier Torres", "Ana Morales", "Tom Baker"}  # medium+
    assert {r["skill"] for r in _rows(call)} == {"Manejo de carretillas elevadoras"}
    english = turn("who knows FORKLIFT operation?")
    assert english.tool_calls[0]["result"]["skills"] == ["Forklift operation"]
    folded = turn("quien sabe de deteccion de PHISHING")
    assert folded.tool_calls[0]["arguments"]["skill_name"] == "Phishing awareness"


def test_a_category_asks_for_the_people_who_know_its_skills_each_named_once(turn, seeded_pool, admin):
    """ "Information security" is a category, not a skill: it once read as "Loading dock safety" (a skill
    sharing the word "seguridad"); its skills are asked for, and the reply counts people, not rows."""
    reply = turn("¿Quién sabe de seguridad de la información?")
    call = _only_call(reply)
    assert call["tool"] == "who_knows" and call["arguments"]["skill_name"] == "Information security"
    with seeded_pool.connection() as conn:
        category = skill_store.list_skills(conn, admin.org_id, category="Information security")
    assert call["result"]["skills"] == [skill.name_in("es") for skill in category]
    people = {r["full_name"] for r in _rows(call)}
    assert len(call["result"]["skills"]) > 1 and len(_rows(call)) > len(people)
    assert reply.response.startswith(f"{len(people)} personas saben") and "muelle" not in reply.response
    assert all(reply.response.count(name) == 1 for name in people)
