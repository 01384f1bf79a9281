-- Item analysis (issue 31): the figures of each live exercise from learners' first attempts, refreshed
-- by a queue task when attempts arrive, so a course's health page reads one small table.
-- An exercise is retired (hidden from new attempts) or replaced by a regenerated one; its past attempts
-- stay, with their scores.
ALTER TABLE exercises ADD COLUMN IF NOT EXISTS retired_at timestamptz;
ALTER TABLE exercises ADD COLUMN IF NOT EXISTS retired_reason text;
ALTER TABLE exercises ADD COLUMN IF NOT EXISTS replaced_by uuid REFERENCES exercises(id) ON DELETE SET NULL;
-- A replacement takes its predecessor's place; the old row keeps its lesson but no position of its own.
ALTER TABLE exercises DROP CONSTRAINT IF EXISTS exercises_lesson_id_position_key;
CREATE UNIQUE INDEX IF NOT EXISTS exercises_live_position ON exercises (lesson_id, position) WHERE retired_at IS NULL;
CREATE INDEX IF NOT EXISTS exercise_attempts_exercise ON exercise_attempts (exercise_id, user_id, submitted_at)
    WHERE submitted_at IS NOT NULL;

CREATE TABLE IF NOT EXISTS item_statistics (
    org_id          uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    course_id       uuid NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
    exercise_id     uuid PRIMARY KEY REFERENCES exercises(id) ON DELETE CASCADE,
    attempts        integer NOT NULL,          -- learners with a first submitted answer
    facility        real,                      -- mean first score (share right for right/wrong items)
    point_biserial  real,                      -- corr(first score, mean first score on the rest of the course)
    upper_lower     real,                      -- facility of the top 27 % minus the bottom 27 % by rest score
    ranked          integer NOT NULL,          -- learners who also answered another item (the discrimination's n)
    picks           jsonb NOT NULL DEFAULT '{}',   -- first answers of choice items: {answer as JSON text: count}
    computed_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS item_statistics_course ON item_statistics (org_id, course_id);
