-- Content studio: an admin's decision waiting for a worker to resume the job's graph with it.
-- The worker clears it once the graph has run with it, so a crash in between replays it.
ALTER TABLE generation_jobs ADD COLUMN command jsonb;
