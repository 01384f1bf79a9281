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
        admin = users.get_user_by_email(conn, "admin@acme.test")           # Spanish
        oliver = users.get_user_by_email(conn, "oliver@acme.test")         # English
        employee = users.get_user_by_email(conn, "james@acme.test")
    [draft] = drafts.drafts(deps, admin)
    assert draft.title == TITLE and draft.modules == 1 and draft.lessons >= 2 and draft.exercises >= 1
    assert [d.title for d in drafts.drafts(deps, oliver)] == ["Business Expenses and Travel"]
    assert drafts.drafts(deps, employee) == []

    line = drafts.publish_preview(deps, admin, draft.id)
    assert line.startswith(f"Publicar «{TITLE}»: 1 módulo,") and "\n" not in line
    with seeded_pool.connection() as conn:
        assert course_store.get_course(conn, admin.org_id, draft.id).status == "draft"   # the preview wrote nothing
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
