"""Skills, categories, departments and course titles read in the reader's language and found by
either language's name (case and accents aside), against the demo organisation."""

from __future__ import annotations

from storage import courses as course_store
from storage import enrollments, skill_matrix, users
from storage import lessons as lesson_store
from storage import skills as skill_store


def test_skill_queries_name_skills_categories_and_departments_in_the_readers_language(seeded_pool):
    with seeded_pool.connection() as conn:
        acme = users.get_org_by_slug(conn, "acme")
        tom = users.get_user_by_email(conn, "tom@acme.test")
        forklift = skill_store.find_skills(conn, acme.id, "carretillas")
        spanish = skill_matrix.who_knows(conn, acme.id, [s.id for s in forklift], "medium", "es")
        english = skill_matrix.who_knows(conn, acme.id, [s.id for s in forklift], "medium", "en")
        canonical = skill_matrix.who_knows(conn, acme.id, [s.id for s in forklift], "medium")
        gaps_es = {g.skill: g.category for g in skill_matrix.skill_gaps(conn, acme.id, 1, "es")}
        tom_es = {s.skill: s.category for s in skill_store.user_skills(conn, acme.id, tom.id, "es")}
        pairs_es = {p.skill for p in skill_matrix.mentorship_suggestions(conn, acme.id, lang="es")}
        departments_en = skill_store.department_names(conn, acme.id, "en")
        categories_es = skill_store.category_names(conn, acme.id, "es")
    assert [s.name for s in forklift] == ["Forklift operation"]
    assert {h.skill for h in spanish} == {"Manejo de carretillas elevadoras"}
    assert {h.skill for h in english} == {h.skill for h in canonical} == {"Forklift operation"}
    assert {h.full_name: h.department for h in spanish}["Tom Baker"] == "Logística"
    assert {h.full_name: h.department for h in english}["Tom Baker"] == "Logistics"
    assert gaps_es["Bloqueo y etiquetado (LOTO)"] == "Seguridad en el almacén"
    assert tom_es["Manejo de carretillas elevadoras"] == "Seguridad en el almacén"
    assert pairs_es and all(name not in pairs_es for name in ("Forklift operation", "Complaint handling"))
    assert departments_en["Tiendas"] == "Stores Spain" and departments_en["Stores UK"] == "Stores UK"
    assert categories_es["Warehouse safety"] == "Seguridad en el almacén"


def test_filters_take_either_languages_name(seeded_pool):
    with seeded_pool.connection() as conn:
        acme = users.get_org_by_slug(conn, "acme")
        by_spanish = skill_store.list_skills(conn, acme.id, category="SEGURIDAD EN EL ALMACEN")
        by_english = skill_store.list_skills(conn, acme.id, category="warehouse safety")
        matrix = skill_matrix.skills_matrix(conn, acme.id, department="Logística", lang="en")
    assert by_spanish and {s.id for s in by_spanish} == {s.id for s in by_english}
    assert {p.department for p in matrix.employees} == {"Logistics"}


def test_course_titles_per_language_and_found_by_either(seeded_pool):
    with seeded_pool.connection() as conn:
        acme = users.get_org_by_slug(conn, "acme")
        james = users.get_user_by_email(conn, "james@acme.test")
        spanish = course_store.find_courses(conn, acme.id, "devoluciones y reembolsos: LO ESENCIAL", "es")
        english = course_store.find_courses(conn, acme.id, "returns and refunds", "en")
        warehouse = course_store.find_courses(conn, acme.id, "Seguridad en el almacen", "en")
        tutor_ref = course_store.find_course(conn, acme.id, "WAREHOUSE SAFETY", "es")
        james_es = {e.course_title for e in enrollments.list_enrollments(conn, acme.id, james.id, "es")}
        james_en = {e.course_title for e in enrollments.list_enrollments(conn, acme.id, james.id, "en")}
        outline = lesson_store.get_course_outline(conn, acme.id, warehouse[0].id)
        people_es = {p.full_name: p.department for p in users.list_employees(conn, acme.id, lang="es")}
    assert [c.title for c in spanish] == ["Devoluciones y reembolsos: lo esencial"]
    assert [c.id for c in english] == [c.id for c in spanish] and english[0].title == "Returns and Refunds Essentials"
    assert [c.title for c in warehouse] == ["Warehouse Safety"]
    assert tutor_ref and tutor_ref.title == "Seguridad en el almacén"
    assert "Seguridad de la información: lo esencial" in james_es and "Information Security Essentials" in james_en
    assert outline.course.title == "Seguridad en el almacén" and outline.course.title_in("en") == "Warehouse Safety"
    assert people_es["James Carter"] == "Tiendas Reino Unido"
