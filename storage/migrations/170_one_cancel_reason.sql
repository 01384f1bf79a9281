-- A person's cancel was recorded as 'user' when the graph saw it first and 'user_cancelled' when the
-- service did: one code now (the race decided which one a session got).
UPDATE helpdesk_sessions SET abort_reason = 'user_cancelled' WHERE abort_reason = 'user';
