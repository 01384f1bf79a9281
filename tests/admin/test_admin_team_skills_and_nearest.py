"""Session 19 (admin8): the classes admin7 read and left — a department's skills ("¿Qué habilidades tiene el equipo
de finanzas?" gave the head count), "who could teach them?" after "who knows LOTO" (gave pairs about other skills),
"and who else?" after a "who knows" answer (not understood, or every mentoring pair), deleting a course (English
refused, Spanish previewed an archive: now both say courses are archived, not deleted, and offer the archive), and
what the assistant says when no tool does the job (the nearest thing it can do for what the request names)."""

from __future__ import annotations

from datetime import date

from agents.admin import twin
from agents.runtime.deps import process_embedder
from tests.admin.conftest import user_by_email

TODAY = date(2026, 12, 5)


def _people(call: dict) -> set[str]:
    return {row["full_name"] for row in call["result"]["rows"]}


def test_a_departments_skills_list_each_of_its_people_with_their_levels(turn, seeded_pool):
    spanish = turn("¿Qué habilidades tiene el equipo de finanzas?")
    [call] = spanish.tool_calls
    assert call["tool"] == "get_skills_matrix" and call["arguments"] == {"department": "Finanzas"}, call
    assert {row["employee"] for row in call["result"]["rows"]} == {"Isabel Vega", "Ryan Mitchell"}
    assert spanish.response.startswith("Finanzas — 2 personas y las habilidades que tienen: "), spanish.response
    assert "Isabel Vega (Análisis presupuestario: alto" in spanish.response, spanish.response
    oliver = user_by_email(seeded_pool, "oliver@acme.test")
    english = turn("list all the customer care staff with their skills", user=oliver)
    [call] = english.tool_calls
    assert call["tool"] == "get_skills_matrix" and call["arguments"] == {"department": "Customer Care"}, call
    assert "David Ortega (Complaint handling: high" in english.response, english.response
    # what a team lacks is still its skill gaps, not its skills
    weakest = turn("Which skills is the Stores team weakest in?", user=oliver)
    assert [c["tool"] for c in weakest.tool_calls] == ["get_skill_gaps"], weakest.response


def test_who_could_teach_them_after_who_knows_is_about_that_skill(turn, seeded_pool):
    oliver = user_by_email(seeded_pool, "oliver@acme.test")
    loto = turn("who knows LOTO", user=oliver)
    assert _people(loto.tool_calls[0]) == {"Ana Morales"}
    teach = turn("and who could teach them?", session=loto.session, user=oliver)
    [call] = teach.tool_calls
    assert call["tool"] == "get_mentorship_suggestions", call
    assert call["arguments"] == {"skill_name": "Lockout-tagout (LOTO)"} and call["result"]["rows"] == []
    # nobody is an expert in LOTO: said, with who knows it best, not pairs about other skills
    assert teach.response.startswith("Nobody can mentor Lockout-tagout (LOTO) yet"), teach.response
    assert "Ana Morales (medium)" in teach.response and "Emergency evacuation" not in teach.response
    spanish = turn("¿Quién sabe de LOTO?")
    enseñar = turn("¿y quién podría enseñarles?", session=spanish.session)
    assert enseñar.tool_calls[0]["arguments"] == {"skill_name": "Lockout-tagout (LOTO)"}, enseñar.tool_calls
    assert enseñar.response.startswith("Nadie puede hacer de mentor en Bloqueo y etiquetado (LOTO)"), enseñar.response
    forklift = turn("who could mentor people in forklift operation?", user=oliver)
    assert forklift.response == "1 mentoring pair in Forklift operation: Javier Torres → Raúl Navarro.", (
        forklift.response
    )


def test_who_else_widens_a_who_knows_answer_and_a_department_narrows_it(turn, seeded_pool):
    who = turn("quien sabe de carretillas")
    logistica = turn("y en logistica?", session=who.session)
    assert logistica.tool_calls[0]["arguments"] == {"skill_name": "Forklift operation", "department": "Logística"}
    more = turn("¿y quién más?", session=who.session)
    [call] = more.tool_calls
    assert call["tool"] == "who_knows" and call["arguments"]["min_level"] == "low", call
    assert call["arguments"]["department"] == "Logística" and "Raúl Navarro" in _people(call), more.response
    oliver = user_by_email(seeded_pool, "oliver@acme.test")
    knows = turn("who knows forklift operation", user=oliver)
    other = turn("and who else?", session=knows.session, user=oliver)
    assert other.tool_calls[0]["arguments"] == {"skill_name": "Forklift operation", "min_level": "low"}, other.response


def test_deleting_a_course_is_refused_alike_in_both_languages_with_the_archive_offered(turn, seeded_pool, admin):
    oliver = user_by_email(seeded_pool, "oliver@acme.test")
    for said in ("delete the expenses course", "remove the expenses course"):
        reply = turn(said, user=oliver)
        assert reply.tool_calls == [] and reply.pending is None, said
        assert reply.response.startswith("Courses aren't deleted in SkillNet"), reply.response
        assert "archive “Business Expenses and Travel”" in reply.response and "I can list" not in reply.response
    for said in ("elimina el curso de gastos", "borra el curso de gastos", "quita el curso de gastos"):
        reply = turn(said)
        assert reply.tool_calls == [] and reply.pending is None, said
        assert reply.response.startswith("En SkillNet los cursos no se borran"), reply.response
    offered = turn("delete the expenses course", user=oliver)
    archive = turn("archive it", session=offered.session, user=oliver)  # what the refusal says to say
    assert archive.pending and archive.pending["tool"] == "archive_course", archive.response
    # the archive's own words still archive ("quita de circulación"); removing a person's access still deactivates
    with seeded_pool.connection() as conn:
        idiom, _ = twin.plan_offline(
            conn, admin.org_id, "Quita de la circulación el curso de gastos", TODAY, process_embedder()
        )
        access, _ = twin.plan_offline(conn, admin.org_id, "Quítale el acceso a Elena", TODAY, process_embedder())
    assert [c["tool"] for c in idiom] == ["archive_course"] and [c["tool"] for c in access] == ["deactivate_employee"]


def test_what_no_tool_does_is_answered_with_the_nearest_thing_one_does(turn, seeded_pool):
    boss = turn("¿Quién es el jefe de Javier?")
    assert boss.tool_calls == [] and boss.response.startswith("SkillNet no guarda quién depende de quién"), (
        boss.response
    )
    assert "la ficha de Javier Torres" in boss.response
    oliver = user_by_email(seeded_pool, "oliver@acme.test")
    email = turn("send an email to Raúl", user=oliver)
    assert email.response.startswith("I can't do that here. The nearest I can do for Raúl Navarro"), email.response
    nothing = turn("order pizza for the team", user=oliver)  # names nothing of ours: what the assistant does
    assert nothing.response.startswith("I couldn't match that") and "I can list employees" in nothing.response


def _planned(seeded_pool, admin, message: str) -> list[tuple[str, dict]]:
    with seeded_pool.connection() as conn:
        plan, _ = twin.plan_offline(conn, admin.org_id, message, TODAY, process_embedder())
    return [(call["tool"], call["arguments"]) for call in plan]


def test_failing_exams_in_spanish_is_no_account_suspended(seeded_pool, admin):
    # "suspender" is failing an exam as well as suspending an account: a question planned a deactivation
    for said in ("¿Hay alguien que suspenda los exámenes una y otra vez?", "who can't pass their quizzes?"):
        assert _planned(seeded_pool, admin, said) == [("get_alerts", {"kind": "repeated_failures"})], said
    assert _planned(seeded_pool, admin, "Suspende la cuenta de Harry Patel") == [
        ("deactivate_employee", {"employee_name": "Harry Patel"})
    ]


def test_the_speaker_who_writes_in_is_never_a_target(seeded_pool, admin):
    course = "Returns and Refunds Essentials"
    for said, person in (
        ("Te escribe Oliver. Apunta a Chloe al curso de devoluciones.", "Chloe Evans"),
        ("Oliver again - can you put Harry on the returns course?", "Harry Patel"),
    ):
        expected = [("assign_course", {"course_title": course, "employee_names": [person]})]
        assert _planned(seeded_pool, admin, said) == expected, said


def test_ways_of_asking_who_knows_what_and_which_alerts(seeded_pool, admin):
    for said in ("anyone handy with shift planning?", "¿alguien controla de planificación de turnos?"):
        assert _planned(seeded_pool, admin, said) == [("who_knows", {"skill_name": "Shift planning"})], said
    expired = _planned(seeded_pool, admin, "whose certifications have gone out of date?")
    assert expired == [("get_alerts", {"kind": "skill_expired"})]
    headcount = _planned(seeded_pool, admin, "what's the head count in Logistics?")
    assert headcount == [("list_employees", {"department": "Logistics"})]
    good_at = _planned(seeded_pool, admin, "what are the Stores UK team good at?")
    assert good_at == [("get_skills_matrix", {"department": "Stores UK"})]


def test_what_no_tool_does_names_the_nearest_for_the_course_said(turn, seeded_pool, admin):
    for said in ("Cámbiale el nombre al curso de gastos", "Prepárame la nómina de diciembre"):
        assert _planned(seeded_pool, admin, said) == [], said
    rename = turn("rename the returns course to Returns 2027", user=user_by_email(seeded_pool, "oliver@acme.test"))
    assert rename.tool_calls == [], rename.tool_calls  # was its statistics
    assert rename.response.startswith("I can't do that here. The nearest I can do for “Returns and Refunds")


def test_what_about_another_skill_asks_the_same_question_of_it(turn, seeded_pool):
    oliver = user_by_email(seeded_pool, "oliver@acme.test")
    oracle = turn("Who in Finance knows Oracle Financials?", user=oliver)
    budget = turn("what about budget analysis?", session=oracle.session, user=oliver)
    assert budget.tool_calls[0]["arguments"] == {"skill_name": "Budget analysis", "department": "Finance"}, (
        budget.response
    )


def test_taking_someone_off_a_course_is_no_assignment(turn, seeded_pool, admin):
    # no tool unenrols: "Quita a Harry del curso de devoluciones" previewed an assignment of him to it
    reply = turn("Quita a Harry del curso de devoluciones")
    assert reply.tool_calls == [] and reply.pending is None, reply.tool_calls
    assert reply.response.startswith("Desde aquí no puedo quitar a nadie de un curso"), reply.response
    assert "Harry Patel en «Devoluciones y reembolsos: lo esencial»" in reply.response
    oliver = user_by_email(seeded_pool, "oliver@acme.test")
    english = turn("remove Harry from the returns course", user=oliver)
    assert english.tool_calls == [] and english.response.startswith("I can't take someone off a course here")
    # his access removed is still a deactivation
    assert _planned(seeded_pool, admin, "remove Harry Patel's access") == [
        ("deactivate_employee", {"employee_name": "Harry Patel"})
    ]


def test_a_skill_with_experts_and_no_beginner_names_only_its_experts(turn, seeded_pool):
    coaching = turn("¿Quién sabe de coaching?")
    teach = turn("¿y quién podría enseñarles?", session=coaching.session)
    assert teach.response.startswith("No hay parejas de mentoría en Coaching: nadie es principiante."), teach.response
    assert "Carmen López (alto)" in teach.response and "Ana Morales" not in teach.response  # medium: no expert


def test_an_assignment_asked_as_a_favour_is_previewed(seeded_pool, admin):
    # "¿Me metes a David…?" asks a favour, not whether it is so: it read David's place in the course
    polite = "Cuando puedas, ¿me metes a David y a Laura en el de atención al cliente de excelencia? Sin fecha."
    [(tool, args)] = _planned(seeded_pool, admin, polite)
    assert tool == "assign_course" and set(args["employee_names"]) == {"David Ortega", "Laura Jiménez"}, args
    assert _planned(seeded_pool, admin, "¿Me pones a Lucía en el curso de devoluciones?") == [
        ("assign_course", {"course_title": "Returns and Refunds Essentials", "employee_names": ["Lucía Fernández"]})
    ]
    assert _planned(seeded_pool, admin, "Could you pop Chloe onto the returns course?") == [
        ("assign_course", {"course_title": "Returns and Refunds Essentials", "employee_names": ["Chloe Evans"]})
    ]
