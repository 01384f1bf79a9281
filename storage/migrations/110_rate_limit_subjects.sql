-- A limit's budget belongs to a person (tutor, admin assistant, helpdesk) or to an organisation
-- (content generation jobs): the column names whose budget it is, not only users.
ALTER TABLE rate_limit_hits RENAME COLUMN user_id TO subject_id;
