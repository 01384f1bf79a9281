-- How the tutor answers a learner taking the course (issue 29, spec 003): 'guided' opens with a question that
-- makes the learner think before the facts; 'direct' gives the facts first. New and existing courses are
-- guided: a course is taken to learn, and 003's tutor is Socratic. A reference course can be set to direct.
ALTER TABLE courses ADD COLUMN IF NOT EXISTS tutor_mode text NOT NULL DEFAULT 'guided'
    CHECK (tutor_mode IN ('guided', 'direct'));
