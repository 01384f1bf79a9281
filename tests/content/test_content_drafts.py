"""The seeded draft course ("Gastos y viajes de empresa") opened and finished in the studio: listed for
admins with what it holds, published only after the preview is confirmed (audit-logged), and a second
publish, an employee or another organisation's id changes nothing."""

from __future__ import annotations

import uuid

import pytest

from agents.content import drafts
from storage import audit, users
from storage import courses as course_store

TITLE = "Gastos y viajes de empresa"


def test_the_seeded_draft_is_listed_previewed_and_published_once(seeded_pool, seeded_deps):
    deps = seeded_deps
    with seeded_pool.connection() as conn:
        admin = users.get_user_by_email(conn, "admin@acme.test")  # Spanish
        oliver = users.get_user_by_email(conn, "oliver@acme.test")  # English
        employee = users.get_user_by_email(conn, "james@acme.test")
    [draft] = drafts.drafts(deps, admin)
    assert draft.title == TITLE and draft.modules == 1 and draft.lessons >= 2 and draft.exercises >= 1
    assert [d.title for d in drafts.drafts(deps, oliver)] == ["Business Expenses and Travel"]
    assert drafts.drafts(deps, employee) == []

    line = drafts.publish_preview(deps, admin, draft.id)
    assert line.startswith(f"Publicar «{TITLE}»: 1 módulo,") and "\n" not in line
    with seeded_pool.connection() as conn:
        assert course_store.get_course(conn, admin.org_id, draft.id).status == "draft"  # the preview wrote nothing
    for who, bad_id in ((employee, draft.id), (admin, uuid.uuid4()), (admin, "not-an-id")):
        with pytest.raises(drafts.DraftError, match="borrador|draft"):
            drafts.publish_draft(deps, who, bad_id)

    assert drafts.publish_draft(deps, admin, draft.id) == f"«{TITLE}» está publicado."
    with pytest.raises(drafts.DraftError, match="^Ese curso no es \\(ya\\) un borrador: no se cambió nada.$"):
        drafts.publish_draft(deps, admin, draft.id)
    with seeded_pool.connection() as conn:
        assert course_store.get_course(conn, admin.org_id, draft.id).status == "published"
        entries = audit.list_entries(conn, admin.org_id, action="content.publish_draft")
    assert len(entries) == 1 and entries[0].actor_id == admin.id and entries[0].after == {"status": "published"}
    assert drafts.drafts(deps, admin) == []


def test_a_draft_is_deleted_only_after_its_preview_once_and_audited(seeded_pool, seeded_deps):
    deps = seeded_deps
    with seeded_pool.connection() as conn:
        admin = users.get_user_by_email(conn, "admin@acme.test")
        oliver = users.get_user_by_email(conn, "oliver@acme.test")
        employee = users.get_user_by_email(conn, "james@acme.test")
        course_id = course_store.create_course(conn, admin.org_id, title="Borrador de prueba", status="draft")
        [published] = course_store.find_courses(conn, admin.org_id, "Returns and Refunds Essentials")
    line = drafts.discard_preview(deps, oliver, course_id)
    assert line.startswith("Delete «Borrador de prueba» for good: its 0 modules, 0 lessons and 0 exercises are")
    assert "can't be undone" in line
    assert "Eliminar «Borrador de prueba» definitivamente" in drafts.discard_preview(deps, admin, course_id)
    with seeded_pool.connection() as conn:
        assert course_store.get_course(conn, admin.org_id, course_id).status == "draft"  # the preview wrote nothing
    for who, bad_id in ((employee, course_id), (admin, uuid.uuid4()), (admin, "not-an-id"), (admin, published.id)):
        with pytest.raises(drafts.DraftError, match="borrador|draft"):
            drafts.discard_draft(deps, who, bad_id)

    assert drafts.discard_draft(deps, admin, course_id) == "«Borrador de prueba» se ha eliminado."
    with pytest.raises(drafts.DraftError, match="^Ese curso no es \\(ya\\) un borrador: no se cambió nada.$"):
        drafts.discard_draft(deps, admin, course_id)
    with seeded_pool.connection() as conn:
        assert course_store.get_course(conn, admin.org_id, course_id) is None
        assert course_store.get_course(conn, admin.org_id, published.id).status == "published"
        entries = audit.list_entries(conn, admin.org_id, action="content.discard_draft")
    assert len(entries) == 1 and entries[0].actor_id == admin.id and entries[0].entity_id == str(course_id)
    assert entries[0].before["title"] == "Borrador de prueba" and entries[0].before["status"] == "draft"
