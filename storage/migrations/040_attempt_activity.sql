-- An open exercise attempt forces hint-only tutor answers, so it must expire: last_seen_at is the
-- learner's last sign of being at the exercise (the course player showing it, a hint asked), and
-- hints_given counts the graded hints (1 → 2 → 3) the tutor has given for this attempt.
ALTER TABLE exercise_attempts ADD COLUMN last_seen_at timestamptz;
ALTER TABLE exercise_attempts ADD COLUMN hints_given integer NOT NULL DEFAULT 0;
