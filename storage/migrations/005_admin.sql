-- Admin assistant: write actions previewed to an admin and waiting for their confirm.
-- A confirm flips status pending -> executed in the same transaction as the write, so a repeated
-- (or concurrent) confirm of the same id writes once.
CREATE TABLE admin_pending_actions (
    id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    org_id      uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    admin_id    uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    session_id  uuid REFERENCES chat_sessions(id) ON DELETE CASCADE,
    tool        text NOT NULL,
    arguments   jsonb NOT NULL,
    preview     text NOT NULL,
    status      text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'executed', 'cancelled')),
    result      jsonb,
    created_at  timestamptz NOT NULL DEFAULT now(),
    resolved_at timestamptz
);
CREATE INDEX admin_pending_actions_session ON admin_pending_actions (org_id, admin_id, session_id, status);
