-- Tickets staff can work and employees can follow: who reported it, who works it, what the agent
-- saw (redacted snapshot, facts, steps), everyone affected, a history of status changes and notes,
-- and in-app notifications. filing_state makes filing exactly-once: the row is written 'pending'
-- (with its idempotency key and the footer hash the external issue carries) before any external
-- POST, and completed after it.
ALTER TABLE tickets
    ADD COLUMN assignee_id    uuid REFERENCES users(id) ON DELETE SET NULL,
    ADD COLUMN language       text,
    ADD COLUMN snapshot       jsonb NOT NULL DEFAULT '[]',   -- [{role, content}], redacted
    ADD COLUMN facts          jsonb NOT NULL DEFAULT '{}',
    ADD COLUMN steps          jsonb NOT NULL DEFAULT '[]',   -- the agent's actions, no text
    ADD COLUMN session_id     uuid,
    ADD COLUMN affected_count integer NOT NULL DEFAULT 1,
    ADD COLUMN filing_state   text NOT NULL DEFAULT 'complete' CHECK (filing_state IN ('pending', 'complete')),
    ADD COLUMN footer_hash    text;
CREATE INDEX tickets_reporter ON tickets (org_id, created_by, created_at DESC);

-- Everyone who hit the problem: the reporter, then each person who linked their report to it.
CREATE TABLE ticket_affected (
    ticket_id   uuid NOT NULL REFERENCES tickets(id) ON DELETE CASCADE,
    user_id     uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    session_id  uuid,
    snapshot    jsonb NOT NULL DEFAULT '[]',
    created_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (ticket_id, user_id)
);

-- The ticket's history: status changes (with the note), assignments, notes and links.
-- visibility 'reporter' notes are shown to the people affected; 'internal' ones only to staff.
CREATE TABLE ticket_events (
    id          bigserial PRIMARY KEY,
    ticket_id   uuid NOT NULL REFERENCES tickets(id) ON DELETE CASCADE,
    actor_id    uuid REFERENCES users(id) ON DELETE SET NULL,
    kind        text NOT NULL CHECK (kind IN ('status', 'assigned', 'note', 'linked')),
    visibility  text NOT NULL DEFAULT 'internal' CHECK (visibility IN ('internal', 'reporter')),
    old_value   text,
    new_value   text,
    note        text,
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX ticket_events_ticket ON ticket_events (ticket_id, id);

CREATE TABLE notifications (
    id          bigserial PRIMARY KEY,
    org_id      uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    user_id     uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    kind        text NOT NULL,
    ticket_id   uuid REFERENCES tickets(id) ON DELETE CASCADE,
    params      jsonb NOT NULL DEFAULT '{}',
    read_at     timestamptz,
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX notifications_user ON notifications (user_id, read_at, created_at DESC);
