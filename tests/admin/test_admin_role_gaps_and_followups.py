"""Session 18 (admin7): what reading about 90 fresh requests as Marta and Oliver left — what a person lacks for
their role (the product keeps no role requirements: it says so, and answers from their open courses and their
colleagues), follow-ups that narrow the last answer ("¿y de ellos quién está en Logística?", "only the experts"),
"¿y quiénes son?" answered in full, a person's open courses, one person's mentors, and words misread."""

from __future__ import annotations

from datetime import date

import pytest

from agents.admin import twin
from agents.runtime.deps import process_embedder
from tests.admin.conftest import user_by_email

TODAY = date(2026, 12, 5)  # a Saturday: the end of the month is 31 Dec


def _people(call: dict) -> set[str]:
    return {row["full_name"] for row in call["result"]["rows"]}


def test_what_a_person_lacks_for_their_role_says_what_it_is_measured_against(turn, seeded_pool):
    spanish = turn("¿Qué habilidades le faltan a Lucía para su puesto?")
    [call] = spanish.tool_calls
    assert call["tool"] == "get_skill_gaps" and call["arguments"] == {"employee_name": "Lucía Fernández"}, call
    rows = {row["skill"]: row for row in call["result"]["rows"]}
    # her security course aims at phishing awareness medium; she has low. Colleagues in Tiendas coach; she doesn't
    assert rows["Detección de phishing"]["target"] == "medium" and rows["Detección de phishing"]["level"] == "low"
    assert (
        rows["Coaching"]["colleagues"] == 1 and rows["Coaching"]["best"] == "high" and "course" not in rows["Coaching"]
    )
    assert "Gestión de reclamaciones" not in rows or rows["Gestión de reclamaciones"]["best"] == "high"
    assert spanish.response.startswith("Lucía Fernández (Dependienta · Tiendas"), spanish.response
    assert "no guarda qué habilidades pide cada puesto" in spanish.response, spanish.response
    english = turn("What skills is Lucia missing for her role?", user=user_by_email(seeded_pool, "oliver@acme.test"))
    assert [c["tool"] for c in english.tool_calls] == ["get_skill_gaps"], english.response
    assert "keeps no list of the skills a role needs" in english.response and "Phishing awareness" in english.response


def test_a_follow_up_narrows_the_last_answer(turn, seeded_pool):
    who = turn("¿Quién sabe de carretillas?")
    assert _people(who.tool_calls[0]) == {"Javier Torres", "Tom Baker", "Ana Morales"}
    narrowed = turn("¿y de ellos quién está en Logística?", session=who.session)
    assert narrowed.tool_calls[0]["tool"] == "who_knows", narrowed.tool_calls
    assert narrowed.tool_calls[0]["arguments"] == {"skill_name": "Forklift operation", "department": "Logística"}
    experts = turn("y solo los expertos?", session=who.session)
    assert experts.tool_calls[0]["arguments"]["min_level"] == "high", experts.tool_calls
    assert _people(experts.tool_calls[0]) == {"Javier Torres"} and experts.response.startswith("Logística — ")
    oliver = user_by_email(seeded_pool, "oliver@acme.test")
    knows = turn("who knows complaint handling", user=oliver)
    # "Customer Care" is a department; "customer" alone is no course here
    care = turn("and in Customer Care?", session=knows.session, user=oliver)
    assert care.tool_calls[0]["arguments"] == {"skill_name": "Complaint handling", "department": "Customer Care"}
    assert _people(care.tool_calls[0]) == {"Marina Gil", "David Ortega"}, care.response
    alerts = turn("quien tiene alertas")
    logistica = turn("y en logistica?", session=alerts.session)
    assert logistica.tool_calls[0]["arguments"] == {"department": "Logística"}, logistica.tool_calls


def test_and_who_are_they_names_everyone_counted_with_their_job_title(turn, seeded_pool):
    oliver = user_by_email(seeded_pool, "oliver@acme.test")
    count = turn("how many people are in stores", user=oliver)
    assert count.tool_calls[0]["result"]["total"] == 10 and "James Carter" not in count.response  # the first 6
    then = turn("and who are they?", session=count.session, user=oliver)
    assert "James Carter (Sales Associate)" in then.response and "Sofía Romero (Dependienta)" in then.response
    assert "the first" not in then.response, then.response  # not the same line again


def test_a_persons_open_courses_after_their_record(turn, seeded_pool):
    record = turn("¿Qué cursos tiene Carmen?")
    pending = turn("¿y cuáles tiene pendientes?", session=record.session)
    [call] = pending.tool_calls
    assert call["tool"] == "list_pending_courses" and call["arguments"] == {"employee_name": "Carmen López"}, call
    assert _people(call) == {"Carmen López"} and pending.response.startswith("Carmen López: "), pending.response
    oliver = user_by_email(seeded_pool, "oliver@acme.test")
    chloe = turn("What courses is Chloe on?", user=oliver)
    unfinished = turn("which ones are unfinished?", session=chloe.session, user=oliver)
    courses = {row["course"] for row in unfinished.tool_calls[0]["result"]["rows"]}
    assert courses == {"Returns and Refunds Essentials", "Customer Service Excellence"}, unfinished.response


def test_one_persons_mentors(turn):
    reply = turn("quien podria ser mentor de laura?")  # "ser" is a verb, not Sergio
    [call] = reply.tool_calls
    assert call["arguments"] == {"employee_name": "Laura Jiménez"}, call
    assert call["result"]["rows"] and all("Laura Jiménez" in (r["mentee"], r["mentor"]) for r in call["result"]["rows"])


@pytest.mark.parametrize(
    ("request_text", "planned"),
    [
        ("¿Hay cursos sin nadie apuntado?", [("list_courses", {"nobody_enrolled": True})]),  # "apuntado": no order
        (
            "Quien sabe de RGPD en atencion al cliente?",  # the skill by its acronym; the department, not the category
            [("who_knows", {"skill_name": "Data protection (GDPR)", "department": "Atención al Cliente"})],
        ),
        ("anyone know forklifts?", [("who_knows", {"skill_name": "Forklift operation"})]),
        ("who's our strongest at budget analysis?", [("who_knows", {"skill_name": "Budget analysis"})]),
        (
            "Who in Logistics knows manual handling?",
            [("who_knows", {"skill_name": "Manual handling", "department": "Logistics"})],
        ),
        (
            "¿Quién tiene nivel bajo en detección de phishing?",
            [("who_knows", {"skill_name": "Phishing awareness", "level": "low"})],
        ),
        ("What's Chloe's job title?", [("get_employee_detail", {"employee_name": "Chloe Evans"})]),
        ("Change Chloe's job title to Team Lead", []),
        (
            "¿Quién tiene experiencia en seguridad en muelles de carga?",
            [("who_knows", {"skill_name": "Loading dock safety"})],
        ),
        (
            "Stores UK: who's missed a course deadline?",
            [("get_alerts", {"kind": "overdue", "department": "Stores UK"})],
        ),
        ("Any skills about to lapse for anyone?", [("get_alerts", {"kind": "skill_expiring"})]),
        ("how many published courses are there", [("list_courses", {"status": "published"})]),  # not "unpublished"
        ("who's going to miss their deadline?", [("get_alerts", {"kind": "deadline_at_risk"})]),
        ("¿Quién va a llegar tarde con su curso?", [("get_alerts", {"kind": "deadline_at_risk"})]),
        (
            "how is Grace getting on with returns",
            [
                (
                    "get_employee_detail",
                    {"employee_name": "Grace O'Neill", "course_title": "Returns and Refunds Essentials"},
                )
            ],
        ),
        (
            "Do we have anyone strong at budget analysis in Stores UK?",
            [("who_knows", {"skill_name": "Budget analysis", "department": "Stores UK"})],
        ),
        ("What is Raul missing?", [("get_skill_gaps", {"employee_name": "Raúl Navarro"})]),
        ("hey, what's diego got left to do?", [("get_employee_detail", {"employee_name": "Diego Martín"})]),
        ("sofia's file", [("get_employee_detail", {"employee_name": "Sofía Romero"})]),
        ("reactivate Andres", []),  # no slip of "deactivate": no tool reactivates, and nothing is deactivated
        ("What alerts are there for Ryan?", [("get_alerts", {"employee_name": "Ryan Mitchell"})]),
        ("¿Hay alguien inactivo en Logística?", [("list_employees", {"is_active": False, "department": "Logística"})]),
        (
            "What's the average score on customer service excellence?",  # "media" is no level here
            [("get_course_stats", {"course_title": "Atención al cliente de excelencia"})],
        ),
        (
            "¿Qué nota media tiene el curso de atención al cliente?",
            [("get_course_stats", {"course_title": "Atención al cliente de excelencia"})],
        ),
        (
            "Tell me who hasn't started information security essentials yet",
            [("get_course_stats", {"course_title": "Information Security Essentials"})],
        ),
        (
            "Who's signed up for the expenses course?",
            [("get_course_stats", {"course_title": "Gastos y viajes de empresa"})],
        ),
        (
            "put Harry and James on customer service excellence with a month to do it",  # the month was dropped
            [
                (
                    "assign_course",
                    {
                        "course_title": "Atención al cliente de excelencia",
                        "employee_names": ["Harry Patel", "James Carter"],
                        "deadline": "2027-01-05",
                    },
                )
            ],
        ),
        ("who's good with Oracle", [("who_knows", {"skill_name": "Oracle Financials"})]),
        (
            "quien va retrasado con seguridad de la informacion?",
            [("get_alerts", {"kind": "overdue", "course_title": "Information Security Essentials"})],
        ),
        ("¿cómo van los de logística con sus cursos?", [("list_pending_courses", {"department": "Logística"})]),
        (
            "how are the logistics people doing with their courses?",
            [("list_pending_courses", {"department": "Logistics"})],
        ),
        (
            "Could you enrol Emily Watson and Harry Patel on the expenses course? No deadline needed.",
            [
                (
                    "assign_course",
                    {"course_title": "Gastos y viajes de empresa", "employee_names": ["Emily Watson", "Harry Patel"]},
                )
            ],
        ),
        (
            "Inscribe a Lucía y a Sofía en atención al cliente de excelencia a fin de mes",
            [
                (
                    "assign_course",
                    {
                        "course_title": "Atención al cliente de excelencia",
                        "employee_names": ["Lucía Fernández", "Sofía Romero"],
                        "deadline": "2026-12-31",
                    },
                )
            ],
        ),
        (
            "Push Grace's deadline on customer service excellence back a month",
            [
                (
                    "assign_course",
                    {
                        "course_title": "Atención al cliente de excelencia",
                        "employee_names": ["Grace O'Neill"],
                        "extend_months": 1,
                    },
                )
            ],
        ),
        (
            "Apunta a Javier a seguridad de la información y dime quién va retrasado en ese curso",
            [
                (
                    "assign_course",
                    {"course_title": "Information Security Essentials", "employee_names": ["Javier Torres"]},
                ),
                ("get_alerts", {"kind": "overdue", "course_title": "Information Security Essentials"}),
            ],
        ),
    ],
)
def test_requests_read_right(seeded_pool, admin, request_text, planned):
    with seeded_pool.connection() as conn:
        plan, _ = twin.plan_offline(conn, admin.org_id, request_text, TODAY, process_embedder())
    assert [(c["tool"], c["arguments"]) for c in plan] == planned, plan


def test_remind_them_is_no_tool_and_nobody_is_looked_up(turn, seeded_pool):
    oliver = user_by_email(seeded_pool, "oliver@acme.test")
    course = turn("Who hasn't finished the warehouse course?", user=oliver)
    reply = turn("remind them", session=course.session, user=oliver)
    assert reply.tool_calls == [] and reply.pending is None, reply.tool_calls


def test_a_follow_up_takes_the_course_and_the_department_it_points_at(seeded_pool, admin):
    with seeded_pool.connection() as conn:
        plan, _ = twin.plan_offline(
            conn,
            admin.org_id,
            "Give everyone in IT that course by the 30th",  # "IT" is the department, "that course" the course
            TODAY,
            process_embedder(),
            "How's the Information Security Essentials course going?",
        )
        extend, _ = twin.plan_offline(
            conn,
            admin.org_id,
            "Dale tres semanas más",
            TODAY,
            process_embedder(),
            "¿Cómo va Sofía con el curso de atención al cliente?",
        )
    assert plan == [
        {
            "tool": "assign_course",
            "arguments": {
                "course_title": "Information Security Essentials",
                "employee_names": [],
                "department": "IT",
                "deadline": "2026-12-30",
            },
        }
    ], plan
    assert extend[0]["arguments"]["course_title"] == "Atención al cliente de excelencia", extend


def test_skill_gaps_say_no_expert_not_fewer_than_one(turn):
    reply = turn("¿Qué habilidades no tienen expertos?")
    assert "ningún experto" in reply.response and "menos de 1" not in reply.response, reply.response
