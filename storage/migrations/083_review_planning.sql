-- Reviews people can plan: each organisation picks the retention its reviews aim for (FSRS's
-- desired_retention: higher means more reviews), and may hold FSRS parameters fitted to its own
-- review history with the report of that fit (log-loss before and after).
ALTER TABLE organizations
    ADD COLUMN desired_retention numeric(3, 2) NOT NULL DEFAULT 0.9 CHECK (desired_retention BETWEEN 0.7 AND 0.97),
    ADD COLUMN fsrs_parameters jsonb,
    ADD COLUMN fsrs_report jsonb;
