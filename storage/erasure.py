"""Right to delete, the storage side: what a person's chat and helpdesk data amount to, and removing
their chat conversations (messages go with their sessions). Ticket rows stay, anonymised elsewhere
(storage.tickets.anonymise_reporter, storage.ticket_events.forget_person)."""

from __future__ import annotations

from uuid import UUID

import psycopg

from storage.rows import one_row


def footprint(conn: psycopg.Connection, org_id: UUID, user_id: UUID) -> dict:
    """Counts of what erasing this person removes or anonymises."""
    row = one_row(
        conn.execute(
            """SELECT (SELECT count(*) FROM chat_sessions WHERE org_id = %(o)s AND user_id = %(u)s),
                  (SELECT count(*) FROM chat_messages m JOIN chat_sessions s ON s.id = m.session_id
                   WHERE s.org_id = %(o)s AND s.user_id = %(u)s),
                  (SELECT count(*) FROM helpdesk_sessions WHERE org_id = %(o)s AND user_id = %(u)s),
                  (SELECT count(*) FROM tickets WHERE org_id = %(o)s AND created_by = %(u)s),
                  (SELECT count(*) FROM ticket_affected x JOIN tickets t ON t.id = x.ticket_id
                   WHERE t.org_id = %(o)s AND x.user_id = %(u)s AND t.created_by IS DISTINCT FROM %(u)s),
                  (SELECT count(*) FROM notifications WHERE org_id = %(o)s AND user_id = %(u)s)""",
            {"o": org_id, "u": user_id},
        )
    )
    keys = (
        "chat_sessions",
        "chat_messages",
        "helpdesk_sessions",
        "tickets_reported",
        "tickets_linked",
        "notifications",
    )
    return dict(zip(keys, (int(v) for v in row)))


def delete_chats(conn: psycopg.Connection, org_id: UUID, user_id: UUID) -> int:
    return conn.execute(
        "DELETE FROM chat_sessions WHERE org_id = %(o)s AND user_id = %(u)s", {"o": org_id, "u": user_id}
    ).rowcount
