-- Course titles and department names in each language ({"es": ..., "en": ...}), as migration 061 did
-- for skills and categories. courses.title and users.department stay the canonical names (unique,
-- what tools and filters key on); a reader sees the name in their language when there is one.
ALTER TABLE courses ADD COLUMN titles jsonb NOT NULL DEFAULT '{}'::jsonb;

CREATE TABLE departments (
    org_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    name   text NOT NULL,            -- as users.department holds it
    names  jsonb NOT NULL DEFAULT '{}'::jsonb,
    PRIMARY KEY (org_id, name)
);

-- The department's name in ``lang`` (NULL: the canonical name), for queries that show people.
CREATE FUNCTION department_in(org uuid, department text, lang text) RETURNS text
LANGUAGE sql STABLE AS $$
    SELECT coalesce((SELECT d.names ->> lang FROM departments d WHERE d.org_id = org AND d.name = department),
                    department)
$$;
