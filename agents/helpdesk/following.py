"""Following tickets: what the people a ticket affects see (the tickets they reported or linked to, one ticket
by number, the organisation's list as they may see it), their in-app notifications, and linking a person to a ticket
(called by the service when someone links their report). Staff's side is in staff.py."""

from __future__ import annotations

from uuid import UUID

from agents.helpdesk.guards import without_footer
from agents.helpdesk.staff import not_found, staff_tickets, status_label, ticket_detail
from agents.helpdesk.wiring import AnyDeps
from agents.i18n import t
from storage import ticket_events as events
from storage import ticket_rows, tickets


def my_tickets(deps: AnyDeps, user) -> list[dict]:
    """The tickets this person reported or linked to: status, last change and the notes meant for them."""
    with deps.pool.connection() as conn:
        rows = ticket_rows.list_affecting(conn, user.org_id, user.id)
        out = []
        for row in rows:
            history = events.list_events(conn, user.org_id, row.ticket.id, reporter_view=True)
            out.append(
                {
                    "id": str(row.ticket.id),
                    "number": row.ticket.number,
                    "title": row.ticket.title,
                    "description": without_footer(row.ticket.body)[0],
                    "status": row.ticket.status,
                    "severity": row.ticket.severity,
                    "category": row.ticket.category,
                    "affected": row.ticket.affected_count,
                    "reported_by_me": row.ticket.created_by == user.id,
                    "created_at": row.ticket.created_at,
                    "last_change_at": row.last_change_at,
                    "notes": [
                        {"note": e.note, "status": e.new_value if e.kind == "status" else None, "at": e.created_at}
                        for e in history
                        if e.note or e.kind == "status"
                    ],
                }
            )
    return out


def ticket_for(deps: AnyDeps, user, number: int) -> dict:
    """One ticket by number as this person may see it: staff and the people affected see it whole;
    anyone else in the organisation sees its title and status only."""
    with deps.pool.connection() as conn:
        ticket = tickets.get_by_number(conn, user.org_id, number)
        if ticket is None:
            raise not_found(user.language)
        mine = ticket.created_by == user.id or events.is_affected(conn, ticket.id, user.id)
    if user.is_admin:
        return ticket_detail(deps, user, ticket.id)
    if not mine:
        return {"number": ticket.number, "title": ticket.title, "status": ticket.status}
    return next(item for item in my_tickets(deps, user) if item["number"] == number)


def visible_tickets(deps: AnyDeps, user) -> list[dict]:
    """Every ticket of the organisation as this person may see it (staff: whole rows; employees: their
    own in full, everyone else's as number, title and status)."""
    if user.is_admin:
        return staff_tickets(deps, user)
    mine = {t["number"]: t for t in my_tickets(deps, user)}
    with deps.pool.connection() as conn:
        rows = ticket_rows.list_rows(conn, user.org_id)
    return [
        mine.get(r.ticket.number) or {"number": r.ticket.number, "title": r.ticket.title, "status": r.ticket.status}
        for r in rows
    ]


def notifications(deps: AnyDeps, user, *, unread_only: bool = True) -> list[dict]:
    """In-app notifications in the reader's language."""
    with deps.pool.connection() as conn:
        rows = events.list_notifications(conn, user.org_id, user.id, unread_only=unread_only)
    out = []
    for n in rows:
        params = dict(n.params)
        if "status" in params:
            params["status"] = status_label(params["status"], user.language)
        out.append(
            {
                "id": n.id,
                "kind": n.kind,
                "text": t(f"helpdesk.notify_{n.kind}", user.language, **params),
                "at": n.created_at,
                "read": n.read_at is not None,
            }
        )
    return out


def mark_notifications_read(deps: AnyDeps, user) -> int:
    with deps.pool.connection() as conn:
        return events.mark_read(conn, user.org_id, user.id)


# --- linking (called by the service when a person links their report) -------------------------------
def record_link(
    deps: AnyDeps, org_id: UUID, user_id: UUID, linked: dict, *, session_id: UUID, snapshot: list
) -> int | None:
    """The person is affected too: count bumped, their snapshot appended, the assignee notified.
    Returns the ticket's count of people affected (None when the ticket is not in this organisation)."""
    with deps.pool.connection() as conn:
        ticket = (
            tickets.get_by_url(conn, org_id, linked["url"])
            if linked.get("url")
            else tickets.get_by_number(conn, org_id, int(linked["number"]))
        )
        if ticket is None:
            return None
        added = events.add_affected(conn, org_id, ticket.id, user_id, session_id=session_id, snapshot=snapshot)
        count = ticket.affected_count + int(added)
        if added:
            events.add_event(conn, ticket.id, actor_id=user_id, kind="linked")
            if ticket.assignee_id and ticket.assignee_id != user_id:
                events.notify(
                    conn,
                    org_id,
                    ticket.assignee_id,
                    "ticket_linked",
                    ticket_id=ticket.id,
                    params={"number": ticket.number, "count": count},
                )
    return count
