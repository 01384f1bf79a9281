-- Skills over time: every level change is an event with its date and source, written by a trigger
-- so every writer (course checkpoints, an admin's verification, the demo seeds, a future decay job)
-- is recorded without each having to remember. Verified skills may carry an expiry date
-- (a forklift licence, a first-aid certificate).
CREATE TABLE skill_level_events (
    id             bigserial PRIMARY KEY,
    org_id         uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    user_id        uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    skill_id       uuid NOT NULL REFERENCES skills(id) ON DELETE CASCADE,
    level          text NOT NULL CHECK (level IN ('low', 'medium', 'high')),
    previous_level text CHECK (previous_level IN ('low', 'medium', 'high')),
    source         text NOT NULL CHECK (source IN ('checkpoint', 'admin', 'decay')),
    changed_at     timestamptz NOT NULL,
    UNIQUE (user_id, skill_id, changed_at)
);
CREATE INDEX skill_level_events_org ON skill_level_events (org_id, skill_id, changed_at);

CREATE FUNCTION record_skill_level_event() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' OR NEW.level IS DISTINCT FROM OLD.level THEN
        INSERT INTO skill_level_events (org_id, user_id, skill_id, level, previous_level, source, changed_at)
        VALUES (NEW.org_id, NEW.user_id, NEW.skill_id, NEW.level,
                CASE WHEN TG_OP = 'UPDATE' THEN OLD.level END, NEW.source, NEW.last_assessed_at)
        ON CONFLICT (user_id, skill_id, changed_at) DO UPDATE SET level = EXCLUDED.level, source = EXCLUDED.source;
    END IF;
    RETURN NEW;
END $$;

CREATE TRIGGER user_skills_level_events AFTER INSERT OR UPDATE OF level ON user_skills
    FOR EACH ROW EXECUTE FUNCTION record_skill_level_event();

-- the levels held before this migration, as their first event
INSERT INTO skill_level_events (org_id, user_id, skill_id, level, source, changed_at)
SELECT org_id, user_id, skill_id, level, source, last_assessed_at FROM user_skills
ON CONFLICT DO NOTHING;

ALTER TABLE user_skills ADD COLUMN expires_at date;
