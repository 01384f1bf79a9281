-- Helpdesk agent sessions: ownership, lifecycle, idempotency and the last turn shown to the user.
-- The LangGraph checkpoint (thread_id = helpdesk_sessions.id) holds the graph state; this row is
-- the authority on who owns a session and how it ended. Only redacted text is stored here.
CREATE TABLE helpdesk_sessions (
    id                  uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    org_id              uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    user_id             uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    chat_session_id     uuid REFERENCES chat_sessions(id) ON DELETE SET NULL,
    status              text NOT NULL DEFAULT 'running'
                        CHECK (status IN ('running', 'awaiting_user', 'awaiting_confirm', 'done')),
    outcome             text CHECK (outcome IN ('filed', 'linked', 'resolved_by_agent', 'aborted')),
    abort_reason        text,
    abort_requested     boolean NOT NULL DEFAULT false,
    pending_question_id text,
    turn                jsonb NOT NULL DEFAULT '{}',    -- the last AgentTurn, redacted
    trace               jsonb NOT NULL DEFAULT '[]',    -- [{action, ms}]: no text
    ticket_id           uuid REFERENCES tickets(id) ON DELETE SET NULL,
    idempotency_key     text,
    trigger             text NOT NULL DEFAULT 'chip',
    language            text NOT NULL DEFAULT 'es',
    tokens_used         integer NOT NULL DEFAULT 0,
    turns_taken         integer NOT NULL DEFAULT 0,
    reached_draft       boolean NOT NULL DEFAULT false,
    checkpoint_deleted  boolean NOT NULL DEFAULT false,
    created_at          timestamptz NOT NULL DEFAULT now(),
    updated_at          timestamptz NOT NULL DEFAULT now(),
    finished_at         timestamptz
);
CREATE INDEX helpdesk_sessions_user ON helpdesk_sessions (org_id, user_id, created_at DESC);
CREATE INDEX helpdesk_sessions_status ON helpdesk_sessions (status, updated_at);
CREATE INDEX helpdesk_sessions_idem ON helpdesk_sessions (user_id, idempotency_key, created_at DESC)
    WHERE idempotency_key IS NOT NULL;
