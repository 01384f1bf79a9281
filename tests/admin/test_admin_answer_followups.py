"""Session 17 (admin6): what the lead's review and last session's walk left — "Stores" read as both store
departments ("Tiendas" is the one so named: session 18), a department's unfinished courses counted as what they
are, follow-ups that point at the previous answer ("and who are they?", "apúntalos"), and "X va tarde…, dale una
semana más" as one request."""

from __future__ import annotations

from agents.i18n import format_date
from tests.admin.conftest import user_by_email

UK = {"James Carter", "Emily Watson", "Harry Patel", "Grace O'Neill"}


def _names(call: dict) -> set[str]:
    return {row["full_name"] for row in call["result"]["rows"]}


def test_a_department_named_is_the_same_people_in_both_languages(turn, seeded_pool):
    oliver = user_by_email(seeded_pool, "oliver@acme.test")
    # "Tiendas" is the department so named (session 18): the Spanish stores, Stores Spain in English; never the
    # UK stores too, which left a Spanish admin no way to ask about her own stores alone
    spanish = turn("¿Quién del equipo de Tiendas tiene cursos sin terminar?")
    in_english = turn("Who in Stores Spain hasn't finished their courses?", user=oliver)
    [es_call], [en_call] = spanish.tool_calls, in_english.tool_calls
    assert _names(es_call) == _names(en_call) and not _names(es_call) & UK, (_names(es_call), _names(en_call))
    assert spanish.response.startswith("Tiendas: "), spanish.response
    # "Stores" names no department: every one its name begins, said so
    english = turn("Who in Stores hasn't finished their courses?", user=oliver)
    assert _names(english.tool_calls[0]) & UK and _names(english.tool_calls[0]) > _names(es_call)
    assert english.response.startswith("Stores Spain and Stores UK: "), english.response
    # the head count too: "Stores" alone was read as the whole organisation (25 people)
    count = turn("How many people are in Stores?", user=oliver)
    assert count.tool_calls[0]["arguments"] == {"department": "Stores"}, count.tool_calls
    assert count.tool_calls[0]["result"]["total"] == 10 and count.response.startswith("Stores Spain and Stores UK")
    # "Tiendas" said in English names one department whole: the Spanish stores only
    tiendas = turn("Who works in Tiendas?", user=oliver)
    assert tiendas.tool_calls[0]["result"]["total"] == 6, tiendas.response
    # and a department named whole is that department alone
    uk = turn("Which courses are still pending in Stores UK?", user=oliver)
    assert _names(uk.tool_calls[0]) <= UK and uk.response.startswith("Stores UK: "), uk.response


def test_unfinished_courses_are_counted_as_enrolments_people_and_courses(turn):
    reply = turn("¿Quién tiene cursos sin terminar?")  # the whole organisation: Harry's overdue one among them
    [call] = reply.tool_calls
    rows, titles = call["result"]["rows"], {row["course"] for row in call["result"]["rows"]}
    people = {row["full_name"] for row in rows}
    assert len(rows) > len(titles), (rows, titles)  # enrolments outnumber courses: the figure said was wrong
    counted = (
        f"{len(people)} personas tienen cursos por terminar: {len(rows)} inscripciones sin acabar, "
        f"en {len(titles)} cursos distintos."
    )
    assert counted in reply.response, reply.response
    # the seeds put Harry's deadline six days before the day they run: read it from the row, never a fixed date
    [harry] = [row for row in rows if row["full_name"] == "Harry Patel"]
    deadline = format_date(harry["deadline"], "es")
    overdue = f"Harry Patel — Devoluciones y reembolsos: lo esencial (25 %, fecha límite {deadline}, vencido)"
    assert overdue in reply.response, reply.response


def test_and_who_are_they_lists_what_the_answer_counted(turn, seeded_pool):
    oliver = user_by_email(seeded_pool, "oliver@acme.test")
    count = turn("How many people do we have in Finance?", user=oliver)
    then = turn("and who are they?", session=count.session, user=oliver)
    assert then.tool_calls == count.tool_calls and "Isabel Vega" in then.response, then.response
    cuenta = turn("¿Cuántas personas hay en Finanzas?")
    luego = turn("y quiénes son?", session=cuenta.session)
    assert [c["arguments"] for c in luego.tool_calls] == [{"department": "Finanzas"}], luego.response


def test_them_and_apuntalos_are_the_people_the_answer_listed(turn, seeded_pool):
    who = turn("¿Quién sabe manejar la carretilla a nivel alto?")
    listed = _names(who.tool_calls[0])
    assert listed, who.response
    then = turn("apúntalos al curso de atención al cliente para el 31 de diciembre", session=who.session)
    [call] = then.tool_calls
    assert call["tool"] == "assign_course" and set(call["arguments"]["employee_names"]) == listed, call
    assert call["arguments"]["deadline"].endswith("-12-31"), call
    oliver = user_by_email(seeded_pool, "oliver@acme.test")
    late = turn("Who is overdue?", user=oliver)
    more = turn("give them another week", session=late.session, user=oliver)
    # each one's own overdue course, one preview each, one confirm for all
    moved = {(c["arguments"]["course_title"], *c["arguments"]["employee_names"]) for c in more.tool_calls}
    overdue = {(row["course"], row["user"]) for row in late.tool_calls[0]["result"]["rows"]}
    assert moved == overdue and all(c["arguments"]["extend_days"] == 7 for c in more.tool_calls), more.tool_calls
    assert more.pending is not None and len(more.pending["actions"]) == len(overdue)


def test_it_is_the_one_course_the_answer_named(turn):
    drafts = turn("¿Qué cursos están en borrador?")
    assert len(drafts.tool_calls[0]["result"]["rows"]) == 1, drafts.response
    archive = turn("archívalo", session=drafts.session)
    [call] = archive.tool_calls
    assert call["tool"] == "archive_course" and call["arguments"]["course_title"] == "Gastos y viajes de empresa"
    stats = turn("¿Cómo va el curso de seguridad en el almacén?")
    assign = turn("asígnalo a Pablo para el viernes", session=stats.session)
    assert assign.tool_calls[0]["arguments"]["course_title"] == "Seguridad en el almacén", assign.tool_calls


def test_someone_late_given_more_time_is_one_request_not_an_alerts_read(turn):
    reply = turn("Raúl va tarde con su curso, dale una semana más")
    [call] = reply.tool_calls
    assert call["tool"] == "assign_course" and call["arguments"]["employee_names"] == ["Raúl Navarro"], call
    assert call["arguments"]["extend_days"] == 7 and reply.pending is not None, reply.response
    asked = turn("¿Quién va tarde? Dale una semana más a Harry")  # a question and an order: both still run
    assert [c["tool"] for c in asked.tool_calls] == ["get_alerts", "assign_course"], asked.tool_calls


def test_a_persons_open_courses_are_theirs_not_the_catalogue(turn, seeded_pool):
    reply = turn("Which courses does Sergio still have open?", user=user_by_email(seeded_pool, "oliver@acme.test"))
    assert [c["tool"] for c in reply.tool_calls] == ["get_employee_detail"], reply.tool_calls


def test_read_as_an_admin_in_session_17(turn, seeded_pool):
    """Replies read as Marta and Oliver: a course name cut at its "and" lost the deadline in the preview; a
    team's weakest skills, the best person at a skill, who hasn't logged in lately and "Isabel necesita el
    curso…" were not understood (or answered with the team's head count)."""
    oliver = user_by_email(seeded_pool, "oliver@acme.test")
    signed = turn("Can you sign Chloe and David up for returns and refunds, due 15 January?", user=oliver)
    [call] = signed.tool_calls
    assert call["tool"] == "assign_course" and call["arguments"]["deadline"].endswith("-01-15"), signed.tool_calls
    assert "15 Jan" in signed.pending["preview"], signed.pending["preview"]
    # a question mark between two questions still cuts them (the fifth set's two-part requests)
    two = turn("Who knows coaching? And how is the returns course doing?", user=oliver)
    assert [c["tool"] for c in two.tool_calls] == ["who_knows", "get_course_stats"], two.tool_calls
    weakest = turn("which skills is the Stores team weakest in?", user=oliver)
    [gaps] = weakest.tool_calls
    assert gaps["tool"] == "get_skill_gaps" and gaps["arguments"] == {"department": "Stores"}, weakest.tool_calls
    assert weakest.response.startswith("Stores Spain and Stores UK — "), weakest.response
    flojea = turn("¿En qué habilidades flojea el equipo de Logística?")
    assert [c["tool"] for c in flojea.tool_calls] == ["get_skill_gaps"], flojea.tool_calls
    # within the team, among the skills it holds: no finance skill is a warehouse team's gap
    assert "Oracle Financials" not in flojea.response and flojea.response.startswith("Logística — "), flojea.response
    best = turn("Who's our best person at Oracle Financials?", user=oliver)
    assert best.tool_calls[0]["arguments"] == {"skill_name": "Oracle Financials"}, best.tool_calls  # best first
    quiet = turn("¿Quién no ha entrado en la plataforma últimamente?")
    assert quiet.tool_calls[0]["arguments"] == {"kind": "inactive"}, quiet.tool_calls
    needs = turn("Isabel necesita el curso de gastos y viajes antes de fin de mes")
    assert needs.tool_calls[0]["tool"] == "assign_course" and needs.pending is not None, needs.response
