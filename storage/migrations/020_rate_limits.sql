-- Rate limits count requests, not stored rows: deleting conversations, sessions or a person's data
-- never gives requests back. One row per (user, endpoint) holds the request times of the current
-- window (at most the limit's number of entries); storage/rate_limits.py updates it in one statement.
-- No foreign keys on purpose: a cascade from users or organisations would reset the count.
CREATE TABLE rate_limit_hits (
    user_id    uuid NOT NULL,
    endpoint   text NOT NULL,
    hits       timestamptz[] NOT NULL DEFAULT '{}',
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, endpoint)
);
