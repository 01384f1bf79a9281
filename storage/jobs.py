"""Generation jobs (content studio) and their event log.

A job's status follows the lifecycle of spec 004 §9; ``set_status`` refuses any other move. Jobs run
on the task queue (storage/queue.py) under the lock ``queue_lock(job id)``: which worker holds a
job, and that worker's last heartbeat, are read from the queue's own tables.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

import psycopg
from psycopg.rows import class_row
from psycopg.types.json import Jsonb

from core.inputs import Refusal
from storage.rows import one_row, scalar

RUNNING = ("extracting", "structuring", "generating", "reviewing", "publishing")
AWAITING = ("awaiting_structure_review", "awaiting_final_review")
FINISHED = ("published", "rejected", "failed", "cancelled")

# Moves allowed by the lifecycle; any non-finished status may also fail or be cancelled.
TRANSITIONS: dict[str, set[str]] = {
    # a new job starts extracting; a retried one resumes at whichever step failed
    "pending": {"extracting", "structuring", "generating", "reviewing", "publishing", *AWAITING},
    "extracting": {"structuring"},
    "structuring": {"awaiting_structure_review"},
    "awaiting_structure_review": {"generating", "structuring", "rejected"},  # structuring: a redesign
    "generating": {"reviewing", "awaiting_final_review"},
    "reviewing": {"generating", "awaiting_final_review"},
    "awaiting_final_review": {"publishing", "reviewing", "generating", "rejected"},
    "publishing": {"published"},
    "published": set(),
    "rejected": set(),
    "failed": {"pending"},  # retry
    "cancelled": set(),
}


class JobStateError(Refusal):
    """A status change the lifecycle does not allow; ``code`` is ``not_found``, ``transition`` (with the
    ``current`` and ``wanted`` statuses) or ``busy``."""


@dataclass(frozen=True)
class Job:
    id: UUID
    org_id: UUID
    triggered_by: UUID | None
    status: str
    output_type: str
    source_document_ids: list[UUID]
    options: dict
    progress: dict
    review_report: dict | None
    result_course_id: UUID | None
    result_manual_id: UUID | None
    error: str | None
    attempts: int
    claimed_by: str | None  # the queue worker running it now, if any
    heartbeat_at: datetime | None  # that worker's last heartbeat
    command: dict | None
    created_at: datetime
    updated_at: datetime

    @property
    def waiting_for(self) -> str | None:
        """The review the job waits at ("structure" | "final"): None when it waits at none, or when the admin's
        decision is already queued for the worker."""
        if self.command is not None:
            return None
        return {"awaiting_structure_review": "structure", "awaiting_final_review": "final"}.get(self.status)


@dataclass(frozen=True)
class Event:
    id: int
    job_id: UUID
    event_type: str
    data: dict
    created_at: datetime


_COLUMNS = (
    "g.id, g.org_id, g.triggered_by, g.status, g.output_type, g.source_document_ids, g.options, "
    "g.progress, g.review_report, g.result_course_id, g.result_manual_id, g.error, g.attempts, "
    "'worker ' || q.worker_id AS claimed_by, q.last_heartbeat AS heartbeat_at, g.command, "
    "g.created_at, g.updated_at"
)
_FROM = """generation_jobs g LEFT JOIN LATERAL (
    SELECT pj.worker_id, w.last_heartbeat FROM procrastinate_jobs pj
    LEFT JOIN procrastinate_workers w ON w.id = pj.worker_id
    WHERE pj.lock = 'generation:' || g.id AND pj.status = 'doing' LIMIT 1) q ON true"""


def queue_lock(job_id: UUID | str) -> str:
    """The task-queue lock of a generation job: one worker at a time runs it."""
    return f"generation:{job_id}"


def runnable(job: Job) -> bool:
    """New, holding an admin decision, or cut off mid-step: a worker has something to do."""
    return job.status == "pending" or job.command is not None or job.status in RUNNING


def allowed(current: str, new: str) -> bool:
    if new == current:
        return current not in FINISHED
    if new in ("failed", "cancelled"):
        return current not in FINISHED
    return new in TRANSITIONS[current]


def create_job(
    conn: psycopg.Connection,
    org_id: UUID,
    *,
    triggered_by: UUID | None,
    source_document_ids: list[UUID],
    output_type: str = "course_and_manual",
    options: dict | None = None,
) -> UUID:
    return scalar(
        conn,
        """INSERT INTO generation_jobs (org_id, triggered_by, output_type, source_document_ids, options)
           VALUES (%(org_id)s, %(by)s, %(output_type)s, %(docs)s, %(options)s) RETURNING id""",
        {
            "org_id": org_id,
            "by": triggered_by,
            "output_type": output_type,
            "docs": list(source_document_ids),
            "options": Jsonb(options or {}),
        },
    )


def get_job(conn: psycopg.Connection, org_id: UUID, job_id: UUID, *, lock: bool = False) -> Job | None:
    with conn.cursor(row_factory=class_row(Job)) as cur:
        return cur.execute(
            f"SELECT {_COLUMNS} FROM {_FROM} WHERE g.org_id = %(org_id)s AND g.id = %(id)s"
            + (" FOR UPDATE OF g" if lock else ""),
            {"org_id": org_id, "id": job_id},
        ).fetchone()


def list_jobs(conn: psycopg.Connection, org_id: UUID, *, limit: int = 50) -> list[Job]:
    with conn.cursor(row_factory=class_row(Job)) as cur:
        return cur.execute(
            f"SELECT {_COLUMNS} FROM {_FROM} WHERE g.org_id = %(org_id)s ORDER BY g.created_at DESC LIMIT %(limit)s",
            {"org_id": org_id, "limit": limit},
        ).fetchall()


def runnable_jobs(conn: psycopg.Connection) -> list[tuple[UUID, UUID]]:
    """(org, job) of every job a worker has something to do for; the one query spanning organisations,
    as the queue's workers serve them all."""
    return conn.execute(
        """SELECT org_id, id FROM generation_jobs
                           WHERE status = 'pending' OR command IS NOT NULL OR status = ANY(%(running)s)
                           ORDER BY created_at""",
        {"running": list(RUNNING)},
    ).fetchall()


def waiting_on_ingestion(conn: psycopg.Connection, org_id: UUID, ingestion_id: UUID) -> list[UUID]:
    """Pending jobs whose uploads include this ingestion (they start once all of theirs are settled)."""
    rows = conn.execute(
        """SELECT id FROM generation_jobs WHERE org_id = %(org_id)s AND status = 'pending'
                           AND options->'ingestions' ? %(ingestion)s""",
        {"org_id": org_id, "ingestion": str(ingestion_id)},
    ).fetchall()
    return [row[0] for row in rows]


def add_documents(conn: psycopg.Connection, org_id: UUID, job_id: UUID, document_ids: list[UUID]) -> None:
    """The documents its uploads became join the job's sources (once each, in order)."""
    conn.execute(
        """UPDATE generation_jobs SET updated_at = now(), source_document_ids = ARRAY(
                        SELECT d FROM unnest(source_document_ids || %(docs)s::uuid[]) WITH ORDINALITY u(d, n)
                        GROUP BY d ORDER BY min(n))
                    WHERE org_id = %(org_id)s AND id = %(id)s""",
        {"docs": list(document_ids), "org_id": org_id, "id": job_id},
    )


def count_run(conn: psycopg.Connection, org_id: UUID, job_id: UUID) -> None:
    """A worker starts (or resumes) the job: one more attempt."""
    conn.execute(
        "UPDATE generation_jobs SET attempts = attempts + 1, updated_at = now()"
        " WHERE org_id = %(org_id)s AND id = %(id)s",
        {"org_id": org_id, "id": job_id},
    )


def clear_command(conn: psycopg.Connection, org_id: UUID, job_id: UUID, ran_command: dict | None) -> None:
    """The decision a worker just applied is done (a newer one, queued meanwhile, stays)."""
    conn.execute(
        """UPDATE generation_jobs SET updated_at = now(),
                        command = CASE WHEN command = %(ran)s THEN NULL ELSE command END
                    WHERE org_id = %(org_id)s AND id = %(id)s""",
        {"org_id": org_id, "id": job_id, "ran": Jsonb(ran_command) if ran_command is not None else None},
    )


def set_status(conn: psycopg.Connection, org_id: UUID, job_id: UUID, status: str, *, error: str | None = None) -> None:
    job = get_job(conn, org_id, job_id, lock=True)
    if job is None:
        raise JobStateError("generation job not found", "not_found")
    if not allowed(job.status, status):
        raise JobStateError(
            f"a {job.status} job cannot become {status}", "transition", current=job.status, wanted=status
        )
    conn.execute(
        """UPDATE generation_jobs SET status = %(status)s, updated_at = now(),
                        error = CASE WHEN %(status)s = 'failed' THEN %(error)s ELSE NULL END
                    WHERE org_id = %(org_id)s AND id = %(id)s""",
        {"status": status, "error": error, "org_id": org_id, "id": job_id},
    )


def set_command(conn: psycopg.Connection, org_id: UUID, job_id: UUID, command: dict, *, status: str) -> None:
    """Queue an admin decision for the worker and move the job to ``status``; one at a time."""
    job = get_job(conn, org_id, job_id, lock=True)
    if job is None:
        raise JobStateError("generation job not found", "not_found")
    if job.command is not None:
        raise JobStateError("the previous change is still being applied; try again in a moment", "busy")
    set_status(conn, org_id, job_id, status)
    conn.execute(
        "UPDATE generation_jobs SET command = %(command)s WHERE org_id = %(org_id)s AND id = %(id)s",
        {"command": Jsonb(command), "org_id": org_id, "id": job_id},
    )


def set_progress(conn: psycopg.Connection, org_id: UUID, job_id: UUID, progress: dict) -> None:
    conn.execute(
        """UPDATE generation_jobs SET progress = %(progress)s, updated_at = now()
                    WHERE org_id = %(org_id)s AND id = %(id)s""",
        {"progress": Jsonb(progress), "org_id": org_id, "id": job_id},
    )


def mark_module_done(conn: psycopg.Connection, org_id: UUID, job_id: UUID, index: int, title: str) -> dict:
    """Record module ``index`` as generated (once, even when a crash makes it run twice); returns progress."""
    row = conn.execute(
        """UPDATE generation_jobs SET updated_at = now(), progress = progress
               || jsonb_build_object('current', %(title)s::text,
                                     'done', (SELECT coalesce(jsonb_agg(DISTINCT d), '[]'::jsonb) FROM
                                              jsonb_array_elements(coalesce(progress->'done', '[]'::jsonb)
                                                                   || to_jsonb(%(index)s::int)) d))
           WHERE org_id = %(org_id)s AND id = %(id)s RETURNING progress""",
        {"title": title, "index": index, "org_id": org_id, "id": job_id},
    ).fetchone()
    progress = dict(row[0]) if row else {}
    progress["completed"] = len(progress.get("done", []))
    return progress


def set_review_report(conn: psycopg.Connection, org_id: UUID, job_id: UUID, report: dict) -> None:
    conn.execute(
        """UPDATE generation_jobs SET review_report = %(report)s, updated_at = now()
                    WHERE org_id = %(org_id)s AND id = %(id)s""",
        {"report": Jsonb(report), "org_id": org_id, "id": job_id},
    )


def set_result(
    conn: psycopg.Connection, org_id: UUID, job_id: UUID, *, course_id: UUID | None, manual_id: UUID | None
) -> None:
    conn.execute(
        """UPDATE generation_jobs SET result_course_id = %(course)s, result_manual_id = %(manual)s,
                        updated_at = now() WHERE org_id = %(org_id)s AND id = %(id)s""",
        {"course": course_id, "manual": manual_id, "org_id": org_id, "id": job_id},
    )


def add_event(conn: psycopg.Connection, org_id: UUID, job_id: UUID, event_type: str, data: dict) -> int:
    return scalar(
        conn,
        """INSERT INTO generation_events (org_id, job_id, event_type, data)
           VALUES (%(org_id)s, %(job_id)s, %(type)s, %(data)s) RETURNING id""",
        {"org_id": org_id, "job_id": job_id, "type": event_type, "data": Jsonb(data)},
    )


def list_events(
    conn: psycopg.Connection, org_id: UUID, job_id: UUID, *, after_id: int = 0, limit: int = 500
) -> list[Event]:
    with conn.cursor(row_factory=class_row(Event)) as cur:
        return cur.execute(
            """SELECT id, job_id, event_type, data, created_at FROM generation_events
               WHERE org_id = %(org_id)s AND job_id = %(job_id)s AND id > %(after)s
               ORDER BY id LIMIT %(limit)s""",
            {"org_id": org_id, "job_id": job_id, "after": after_id, "limit": limit},
        ).fetchall()


def course_counts(conn: psycopg.Connection, org_id: UUID, course_id: UUID | None) -> tuple[tuple[int, int], dict]:
    """(modules, lessons) of a published course and its exercises by type (a job's summary)."""
    params = {"org": org_id, "course": course_id}
    counts = one_row(
        conn.execute(
            """SELECT (SELECT count(*) FROM modules WHERE org_id = %(org)s AND course_id = %(course)s),
                  (SELECT count(*) FROM lessons l JOIN modules m ON m.id = l.module_id
                    WHERE m.org_id = %(org)s AND m.course_id = %(course)s)""",
            params,
        )
    )
    by_type: dict[str, int] = dict(
        conn.execute(
            """SELECT e.type, count(*) FROM exercises e JOIN lessons l ON l.id = e.lesson_id
           JOIN modules m ON m.id = l.module_id WHERE m.org_id = %(org)s AND m.course_id = %(course)s
           GROUP BY e.type ORDER BY e.type""",
            params,
        ).fetchall()
    )
    return (counts[0], counts[1]), by_type
