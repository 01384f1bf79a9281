-- Generation jobs run on the procrastinate task queue (storage/queue.py): its lock keeps a job in one
-- worker at a time and its worker heartbeats find a dead worker's job, so the home-made claim columns go.
DROP INDEX IF EXISTS generation_jobs_runnable;
ALTER TABLE generation_jobs DROP COLUMN IF EXISTS claimed_by, DROP COLUMN IF EXISTS heartbeat_at;
