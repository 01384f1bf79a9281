-- "Did this solve it?" (spec 001, issue 32): the person's answer on a finished helpdesk session (a fix that
-- worked, a linked ticket, a filed one), changeable, and read by staff as a rate per outcome.
ALTER TABLE helpdesk_sessions ADD COLUMN IF NOT EXISTS helpful boolean;
ALTER TABLE helpdesk_sessions ADD COLUMN IF NOT EXISTS helpful_at timestamptz;
