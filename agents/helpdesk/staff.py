"""Tickets staff work: staff (admins of the organisation) see the list with reporter and department, the
detail (description, redacted snapshot, facts, steps, linked reports, history), change the status with a note,
set the assignee and add internal notes. Every write is audited (storage.audit, before/after) and notifies
in-app. Another organisation's ticket is "not found". What employees follow is in following.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from uuid import UUID

from agents.helpdesk.guards import redact, without_footer
from agents.helpdesk.turns import HelpdeskError
from agents.helpdesk.wiring import AnyDeps
from agents.i18n import t
from storage import audit as audit_log
from storage import skills, ticket_rows, tickets, users
from storage import ticket_events as events

NOTE_MAX_CHARS = 2000


@dataclass(frozen=True)
class Change:
    """What a staff write did, for the page to confirm on screen."""

    ticket_number: int
    message: str


def not_found(language: str) -> HelpdeskError:
    return HelpdeskError("not_found", t("helpdesk.ticket_not_found", language))


def _require_admin(user) -> None:
    if not user.is_admin:
        raise HelpdeskError("forbidden", t("common.admins_only", user.language))


def _row_dict(row: ticket_rows.TicketRow, departments: dict[str, str]) -> dict:
    """``departments``: canonical department name -> its name in the reader's language."""
    ticket = row.ticket
    return {
        "id": str(ticket.id),
        "number": ticket.number,
        "title": ticket.title,
        "status": ticket.status,
        "severity": ticket.severity,
        "category": ticket.category,
        "reporter": row.reporter_name or "",
        "department": _department(row.reporter_department, departments),
        "assignee": row.assignee_name or "",
        "affected": ticket.affected_count,
        "created_at": ticket.created_at,
        "last_change_at": row.last_change_at,
        "source": ticket.source,
        "filing": ticket.filing_state,
    }


def _department(name: str | None, departments: dict[str, str]) -> str:
    return departments.get(name, name) if name else ""


def _event_dict(event: events.TicketEvent) -> dict:
    return {
        "kind": event.kind,
        "visibility": event.visibility,
        "old": event.old_value,
        "new": event.new_value,
        "note": event.note or "",
        "actor": event.actor_name or "",
        "at": event.created_at,
    }


# --- staff -----------------------------------------------------------------------------------------
def staff_tickets(
    deps: AnyDeps,
    user,
    *,
    statuses: list[str] | None = None,
    severities: list[str] | None = None,
    categories: list[str] | None = None,
    assignee: str | None = None,
    text: str = "",
) -> list[dict]:
    """The organisation's tickets for staff, filtered (assignee: "me", "nobody" or None for all)."""
    _require_admin(user)
    with deps.pool.connection() as conn:
        departments = skills.department_names(conn, user.org_id, user.language)
        rows = [_row_dict(row, departments) for row in ticket_rows.list_rows(conn, user.org_id)]
    words = text.lower().split()
    me = user.full_name
    return [
        r
        for r in rows
        if (not statuses or r["status"] in statuses)
        and (not severities or r["severity"] in severities)
        and (not categories or r["category"] in categories)
        and (
            assignee is None
            or (assignee == "me" and r["assignee"] == me)
            or (assignee == "nobody" and not r["assignee"])
        )
        and all(w in f"{r['number']} {r['title']} {r['reporter']} {r['department']}".lower() for w in words)
    ]


def ticket_detail(deps: AnyDeps, user, ticket_id) -> dict:
    """Everything staff need to work one ticket."""
    _require_admin(user)
    with deps.pool.connection() as conn:
        row = ticket_rows.get_row(conn, user.org_id, ticket_id)
        if row is None:
            raise not_found(user.language)
        affected = events.list_affected(conn, user.org_id, row.ticket.id)
        history = events.list_events(conn, user.org_id, row.ticket.id)
        departments = skills.department_names(conn, user.org_id, user.language)
    ticket = row.ticket
    description, drafted_by_agent = without_footer(ticket.body)
    return {
        **_row_dict(row, departments),
        "description": description,
        "drafted_by_agent": drafted_by_agent,
        "snapshot": ticket.snapshot,
        "facts": ticket.facts,
        "steps": ticket.steps,
        "url": ticket.external_url or "",
        "assignee_id": str(ticket.assignee_id or ""),
        "linked": [
            {
                "name": a.full_name,
                "department": _department(a.department, departments),
                "at": a.created_at,
                "snapshot": a.snapshot,
            }
            for a in affected
            if a.user_id != ticket.created_by
        ],
        "history": [_event_dict(e) for e in history],
    }


def assignable_admins(deps: AnyDeps, user) -> list[dict]:
    _require_admin(user)
    with deps.pool.connection() as conn:
        admins = users.list_users(conn, user.org_id, role="admin")
    return [{"id": str(a.id), "name": a.full_name} for a in admins if a.is_active]


def _clean_note(note: str) -> str:
    return redact((note or "").strip())[:NOTE_MAX_CHARS]


def change_status(deps: AnyDeps, user, ticket_id, status: str, note: str = "") -> Change:
    """Set the status with a note the people affected read; audited, and they are notified."""
    _require_admin(user)
    if status not in tickets.STATUSES:
        raise HelpdeskError("invalid", t("helpdesk.invalid_status", user.language))
    note = _clean_note(note)
    with deps.pool.connection() as conn:
        ticket = tickets.get_ticket(conn, user.org_id, ticket_id)
        if ticket is None:
            raise not_found(user.language)
        if ticket.status == status and not note:
            raise HelpdeskError("unchanged", t("helpdesk.status_unchanged", user.language))
        tickets.update_status(conn, user.org_id, ticket.id, status)
        events.add_event(
            conn,
            ticket.id,
            actor_id=user.id,
            kind="status",
            visibility="reporter",
            old_value=ticket.status,
            new_value=status,
            note=note or None,
        )
        audit_log.record(
            conn,
            user.org_id,
            actor_id=user.id,
            action="ticket.status",
            entity_type="ticket",
            entity_id=ticket.id,
            before={"number": ticket.number, "status": ticket.status},
            after={"number": ticket.number, "status": status, "note": note},
        )
        for person in events.list_affected(conn, user.org_id, ticket.id):
            if person.user_id != user.id:
                events.notify(
                    conn,
                    user.org_id,
                    person.user_id,
                    "ticket_status",
                    ticket_id=ticket.id,
                    params={"number": ticket.number, "status": status},
                )
    return Change(
        ticket.number,
        t("helpdesk.status_changed", user.language, number=ticket.number, status=status_label(status, user.language)),
    )


def status_label(status: str, language: str) -> str:
    from agents.i18n import code_label

    return code_label("status", status, language)


def assign(deps: AnyDeps, user, ticket_id, assignee_id: str | None) -> Change:
    """Give the ticket to an admin (or nobody); audited; the new assignee is notified."""
    _require_admin(user)
    target = UUID(assignee_id) if assignee_id else None
    with deps.pool.connection() as conn:
        ticket = tickets.get_ticket(conn, user.org_id, ticket_id)
        if ticket is None:
            raise not_found(user.language)
        if ticket.assignee_id == target:
            raise HelpdeskError("unchanged", t("helpdesk.assignee_unchanged", user.language))
        if not tickets.set_assignee(conn, user.org_id, ticket.id, target):
            raise HelpdeskError("invalid", t("helpdesk.assignee_invalid", user.language))
        assignee = users.get_user(conn, user.org_id, target) if target else None
        name = assignee.full_name if assignee else ""
        events.add_event(
            conn, ticket.id, actor_id=user.id, kind="assigned", old_value=str(ticket.assignee_id or ""), new_value=name
        )
        audit_log.record(
            conn,
            user.org_id,
            actor_id=user.id,
            action="ticket.assign",
            entity_type="ticket",
            entity_id=ticket.id,
            before={"number": ticket.number, "assignee_id": str(ticket.assignee_id or "")},
            after={"number": ticket.number, "assignee_id": str(target or "")},
        )
        if target and target != user.id:
            events.notify(
                conn, user.org_id, target, "ticket_assigned", ticket_id=ticket.id, params={"number": ticket.number}
            )
    key = "helpdesk.assigned_to" if target else "helpdesk.unassigned"
    return Change(ticket.number, t(key, user.language, number=ticket.number, name=name))


def add_note(deps: AnyDeps, user, ticket_id, note: str, *, for_reporter: bool = False) -> Change:
    """An internal note (staff only) or a note the people affected read (they are notified)."""
    _require_admin(user)
    note = _clean_note(note)
    if not note:
        raise HelpdeskError("invalid", t("helpdesk.note_empty", user.language))
    with deps.pool.connection() as conn:
        ticket = tickets.get_ticket(conn, user.org_id, ticket_id)
        if ticket is None:
            raise not_found(user.language)
        visibility = "reporter" if for_reporter else "internal"
        events.add_event(conn, ticket.id, actor_id=user.id, kind="note", visibility=visibility, note=note)
        audit_log.record(
            conn,
            user.org_id,
            actor_id=user.id,
            action="ticket.note",
            entity_type="ticket",
            entity_id=ticket.id,
            before=None,
            after={"number": ticket.number, "visibility": visibility, "note": note},
        )
        if for_reporter:
            for person in events.list_affected(conn, user.org_id, ticket.id):
                if person.user_id != user.id:
                    events.notify(
                        conn,
                        user.org_id,
                        person.user_id,
                        "ticket_note",
                        ticket_id=ticket.id,
                        params={"number": ticket.number},
                    )
    return Change(ticket.number, t("helpdesk.note_added", user.language, number=ticket.number))
