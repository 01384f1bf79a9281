"""The audit log names what each entry touched (as it is now, in the reader's language, only within the
organisation; a short id when it is gone) and reads its states as short lines, not JSON."""

from __future__ import annotations

import uuid

from agents.i18n import format_percent
from agents.insights.audit_summary import after_summary, before_summary, entity_label
from storage import audit, courses, skills, users
from tests.people import upsert_user


def test_entries_name_what_they_touched_in_one_query_within_the_organisation(seeded_pool, admin):
    with seeded_pool.connection() as conn, conn.transaction(force_rollback=True):
        lucia = users.get_user_by_email(conn, "lucia@acme.test")
        course = next(c for c in courses.list_courses(conn, admin.org_id) if c.titles.get("es"))
        skill = next(s for s in skills.list_skills(conn, admin.org_id) if s.names.get("es"))
        stranger_org = users.ensure_org(conn, "elsewhere", "Elsewhere", "en")
        stranger = upsert_user(
            conn,
            stranger_org.id,
            email="x@elsewhere.test",
            full_name="Stranger Name",
            role="employee",
            password="pw-stranger-1",
        )
        gone = uuid.uuid4()
        touched = {
            "user": lucia.id,
            "course": course.id,
            "user_skill": f"{lucia.id}:{skill.id}",
            "organization": admin.org_id,
        }
        for kind, entity_id in touched.items():
            audit.record(
                conn,
                admin.org_id,
                actor_id=admin.id,
                action="t",
                entity_type=kind,
                entity_id=entity_id,
                before=None,
                after=None,
            )
        audit.record(
            conn,
            admin.org_id,
            actor_id=admin.id,
            action="t",
            entity_type="user",
            entity_id="lucia@acme.test",
            before={"locked": True},
            after={"locked": False},
        )
        audit.record(
            conn,
            admin.org_id,
            actor_id=admin.id,
            action="t",
            entity_type="user",
            entity_id=stranger.id,
            before=None,
            after={"assignee_id": str(stranger.id)},
        )  # another org's person
        audit.record(
            conn,
            admin.org_id,
            actor_id=admin.id,
            action="t",
            entity_type="course",
            entity_id=gone,
            before=None,
            after={"assignee_id": str(lucia.id)},
        )
        names = {(e.entity_type, e.entity_id): e for e in audit.list_entries(conn, admin.org_id, action="t", lang="es")}
    assert names[("user", str(lucia.id))].entity_name == lucia.full_name
    assert names[("user", "lucia@acme.test")].entity_name == lucia.full_name
    assert names[("course", str(course.id))].entity_name == course.titles["es"]  # the reader's language
    assert names[("user_skill", f"{lucia.id}:{skill.id}")].entity_name == f"{lucia.full_name} · {skill.names['es']}"
    assert names[("organization", str(admin.org_id))].entity_name
    outsider = names[("user", str(stranger.id))]
    assert outsider.entity_name is None and not outsider.people  # nothing from elsewhere
    missing = names[("course", str(gone))]
    assert missing.entity_name is None and missing.people == {str(lucia.id): lucia.full_name}
    assert entity_label(str(gone), None, "es") == f"{str(gone)[:8]}… (ya no existe)"
    assert entity_label(str(gone), None, "en") == f"{str(gone)[:8]}… (no longer exists)"


def test_states_read_as_short_lines_in_the_readers_language():
    before, after = {"number": 7, "status": "open"}, {"number": 7, "status": "resolved", "note": "Listo"}
    assert after_summary(before, after, {}, "es") == "estado: abierto → resuelto · nota: Listo"
    assert after_summary(before, after, {}, "en") == "status: open → resolved · note: Listo"  # number unchanged
    assert before_summary(before, {}, "es") == "estado: abierto · número: 7"
    boss = str(uuid.uuid4())
    assert after_summary({"assignee_id": ""}, {"assignee_id": boss}, {boss: "Boss"}, "en") == "assigned to: — → Boss"
    assert (
        after_summary({"role": "admin"}, {"role": "employee"}, {}, "es")
        == "rol: administración de RR. HH. → empleado/a"
    )
    assert (
        after_summary(None, {"desired_retention": 0.85, "locked": False, "questions": ["a", "b"]}, {}, "es")
        == f"retención deseada: {format_percent(0.85, 'es')} · bloqueada: no · preguntas: 2"
    )
    assert after_summary({"status": "draft"}, None, {}, "en") == "" and before_summary(None, {}, "en") == ""
    assert after_summary(None, {"expires_at": "2027-03-01"}, {}, "en") == "expires: 1 Mar 2027"
