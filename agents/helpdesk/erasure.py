"""Right to delete as an admin action: a preview of what goes, then the erasure, which runs only with
the token of a preview of the same data (so nothing is erased unseen, and a change since the preview
asks for a new one). Chat and helpdesk data go; tickets stay with no reporter and no conversation
(other people may be affected by them); the audit log records who erased whom."""

from __future__ import annotations

import json

from agents.helpdesk.guards import sha
from agents.helpdesk.turns import HelpdeskError
from agents.helpdesk.upkeep import forget_user
from agents.helpdesk.wiring import AnyDeps
from agents.i18n import t
from storage import audit as audit_log
from storage import erasure, ticket_events, tickets, users


def _person(deps: AnyDeps, admin, email: str):
    if not admin.is_admin:
        raise HelpdeskError("forbidden", t("common.admins_only", admin.language))
    with deps.pool.connection() as conn:
        person = users.get_user_by_email(conn, (email or "").strip().lower())
    if person is None or person.org_id != admin.org_id:  # another organisation's people are "not found"
        raise HelpdeskError("not_found", t("helpdesk.erase_unknown", admin.language))
    if person.id == admin.id:
        raise HelpdeskError("invalid", t("helpdesk.erase_self", admin.language))
    return person


def preview(deps: AnyDeps, admin, email: str) -> dict:
    person = _person(deps, admin, email)
    with deps.pool.connection() as conn:
        counts = erasure.footprint(conn, admin.org_id, person.id)
    token = sha(json.dumps({"user": str(person.id), **counts}, sort_keys=True), 24)
    return {"email": person.email, "name": person.full_name, "counts": counts, "token": token}


def erase(deps: AnyDeps, admin, email: str, token: str) -> dict:
    seen = preview(deps, admin, email)
    if token != seen["token"]:
        raise HelpdeskError("conflict", t("helpdesk.erase_stale", admin.language))
    person = _person(deps, admin, email)
    helpdesk = forget_user(deps, admin.org_id, person.id)  # checkpoints, sessions, audit lines
    with deps.pool.connection() as conn:
        chats = erasure.delete_chats(conn, admin.org_id, person.id)
        reported = tickets.anonymise_reporter(conn, admin.org_id, person.id)
        rest = ticket_events.forget_person(conn, admin.org_id, person.id)
        audit_log.record(
            conn,
            admin.org_id,
            actor_id=admin.id,
            action="person.erase",
            entity_type="user",
            entity_id=person.id,
            before=seen["counts"],
            after={"chat_sessions": 0, "helpdesk_sessions": 0, "tickets_anonymised": reported},
        )
    return {**helpdesk, "chat_sessions_deleted": chats, "tickets_anonymised": reported, **rest}
