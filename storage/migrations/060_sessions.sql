-- Server-side sign-in sessions: the browser holds a random id in a cookie; only its SHA-256 is stored,
-- so a copy of this table cannot be replayed as cookies.
CREATE TABLE user_sessions (
    id_hash      bytea PRIMARY KEY,
    user_id      uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    org_id       uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    method       text NOT NULL CHECK (method IN ('password', 'sso')),
    created_at   timestamptz NOT NULL DEFAULT now(),
    last_seen_at timestamptz NOT NULL DEFAULT now(),
    revoked_at   timestamptz
);
CREATE INDEX user_sessions_live ON user_sessions (user_id) WHERE revoked_at IS NULL;

-- Failed sign-ins by account (the email as typed, known or not) and by client address.
CREATE TABLE sign_in_failures (
    scope           text NOT NULL CHECK (scope IN ('account', 'client')),
    subject         text NOT NULL,
    failures        integer NOT NULL DEFAULT 0,
    last_failure_at timestamptz NOT NULL DEFAULT now(),
    locked_until    timestamptz,
    PRIMARY KEY (scope, subject)
);
