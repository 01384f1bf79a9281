"""Content studio operations for the page and the CLI: start a job, list and watch jobs, run one to its end
(operators and tests), its summary, the outline as table rows. The admin's decisions (review, edit, regenerate,
retry) are in decisions.py: they never run the graph, they are queued on the job and a worker resumes it.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from uuid import UUID

from agents.content.graph import build_graph
from agents.content.review import report_figures
from agents.content.worker import defer_generation, run_config
from agents.i18n import DEFAULT_LANGUAGE, t
from agents.ingestion.pipeline import max_upload_bytes
from agents.ingestion.uploads import UploadRefused, queue_uploads
from agents.runtime import tasks
from agents.runtime.deps import AppDeps
from core import config
from core.inputs import distinct_uuids
from storage import audit, documents, ingestions, jobs, queue, rate_limits
from storage.users import User


class ContentServiceError(ValueError):
    """Something the admin asked that cannot be done now; one line, nothing changed."""


@dataclass
class JobView:
    """A job as the studio shows it: its row (the one place its status is kept), events and pipeline state."""

    job: jobs.Job
    events: list[jobs.Event]
    state: dict = field(default_factory=dict)

    @property
    def checkpoint(self) -> str | None:
        return self.job.waiting_for

    @property
    def working(self) -> bool:
        """The worker has something to do: a new job, a stage cut short, an admin's decision queued."""
        return jobs.runnable(self.job)


def require_admin(user: User) -> None:
    if not user.is_admin:
        raise ContentServiceError(t("content.error.admins_only", user.language))


def owned_job(deps: AppDeps, user: User, job_id: UUID | str) -> jobs.Job:
    require_admin(user)
    with deps.pool.connection() as conn:
        job = jobs.get_job(conn, user.org_id, UUID(str(job_id)))
    if job is None:
        raise ContentServiceError(t("content.error.job_not_found", user.language))
    return job


def graph_state(deps: AppDeps, job_id: UUID | str) -> dict:
    """The job's latest checkpointed pipeline state (its content; its status is the job row's)."""
    return dict(build_graph(deps.checkpointer).get_state(run_config(job_id)).values or {})


def max_upload_mb() -> int:
    """The largest file ingestion accepts (SKILLNET_MAX_UPLOAD_MB), so the uploader refuses bigger ones itself."""
    return max(1, round(max_upload_bytes() / 1_048_576))


def list_documents(deps: AppDeps, user: User) -> list[documents.Document]:
    """The documents a job can draw on (not those whose first version is still being ingested)."""
    require_admin(user)
    with deps.pool.connection() as conn:
        still_ingesting = ingestions.in_flight_for_documents(conn, user.org_id)
        return [d for d in documents.list_documents(conn, user.org_id) if d.id not in still_ingesting]


def start_job(
    deps: AppDeps,
    user: User,
    document_ids: Sequence[UUID | str],
    output_type: str = "course_and_manual",
    *,
    options: dict | None = None,
) -> UUID:
    require_admin(user)
    if not document_ids and not (options or {}).get("ingestions"):
        raise ContentServiceError(t("content.error.no_documents", user.language))
    if output_type not in ("course_and_manual", "manual_only"):
        raise ContentServiceError(t("content.error.output_type", user.language))
    ids = distinct_uuids(document_ids)
    with deps.pool.connection() as conn:
        if any(documents.get_document(conn, user.org_id, d) is None for d in ids):
            raise ContentServiceError(t("content.error.document_not_found", user.language))
        # Generation is the costliest thing anyone starts: the organisation's budget, counted in the
        # rate-limit table so it holds across app processes and CLI runs.
        limit = config.get("SKILLNET_CONTENT_JOBS_PER_HOUR")
        wait = rate_limits.take(conn, user.org_id, "content.job", limit, 3600)
        if wait is not None:
            raise ContentServiceError(
                t("content.error.jobs_limited", user.language, limit=limit, minutes=math.ceil(wait / 60))
            )
        job_id = jobs.create_job(
            conn, user.org_id, triggered_by=user.id, source_document_ids=ids, output_type=output_type, options=options
        )
        uploads = len((options or {}).get("ingestions") or [])  # read first: their documents don't exist yet
        jobs.add_event(conn, user.org_id, job_id, "queued", {"documents": len(ids), "uploads": uploads})
        defer_generation(conn, user.org_id, job_id)  # with the job row, or not at all
        audit.record(
            conn,
            user.org_id,
            actor_id=user.id,
            action="content.start_job",
            entity_type="generation_job",
            entity_id=job_id,
            before=None,
            after={
                "output_type": output_type,
                "documents": [str(d) for d in ids],
                **({"uploads": uploads} if uploads else {}),
            },
        )
    return job_id


def start_job_with_uploads(
    deps: AppDeps,
    user: User,
    uploads: list[tuple[str, bytes]],
    document_ids: Sequence[UUID | str],
    output_type: str = "course_and_manual",
) -> UUID:
    """Queue the uploads' ingestion and a job over them and the picked documents: the page returns at
    once, and the job starts when the last of its uploads is ingested (a failed one fails it)."""
    if not uploads:
        return start_job(deps, user, document_ids, output_type)
    try:
        ingestion_ids = queue_uploads(user, uploads, pool=deps.pool)
    except UploadRefused as exc:
        raise ContentServiceError(str(exc)) from exc
    return start_job(deps, user, document_ids, output_type, options={"ingestions": [str(i) for i in ingestion_ids]})


def list_jobs(deps: AppDeps, user: User) -> list[jobs.Job]:
    require_admin(user)
    with deps.pool.connection() as conn:
        return jobs.list_jobs(conn, user.org_id)


def job_view(deps: AppDeps, user: User, job_id: UUID | str, *, with_state: bool = True) -> JobView:
    job = owned_job(deps, user, job_id)
    with deps.pool.connection() as conn:
        events = jobs.list_events(conn, user.org_id, job.id)
    return JobView(job, events, graph_state(deps, job.id) if with_state else {})


def run_job(deps: AppDeps, org_id: UUID, job_id: UUID | str, *, timeout: float = 600) -> jobs.Job:
    """Work the queue here until this job pauses or ends (the CLI, tests); while another worker holds
    it, wait for that one. The generation jobs this process runs use ``deps`` (its model included)."""
    job_id, deadline = UUID(str(job_id)), time.monotonic() + timeout
    while True:
        with deps.pool.connection() as conn:
            job = jobs.get_job(conn, org_id, job_id)
            if job is None:
                raise ContentServiceError(t("content.error.job_not_found", DEFAULT_LANGUAGE))
            status = queue.open_job_status(conn, jobs.queue_lock(job_id))
            if status is None and jobs.runnable(job):  # e.g. queued before the task queue existed
                defer_generation(conn, org_id, job_id)
                status = "todo"
        if status is None or time.monotonic() > deadline:
            return job
        if status == "doing" or tasks.worker_thread_running():  # another worker runs (or will run) it
            tasks.retry_stalled_now()  # if that worker died, its job comes back
            time.sleep(0.5)
        else:
            tasks.work(wait=False, deps=deps)


def job_summary(deps: AppDeps, org_id: UUID, job_id: UUID) -> dict:
    """The CLI's JSON: job, status, results, counts, exercises by type, the review's figures, engines per module."""
    with deps.pool.connection() as conn:
        job = jobs.get_job(conn, org_id, job_id)
        if job is None:  # unknown, or another organisation's: the same answer
            raise ContentServiceError(t("content.error.job_not_found", None))  # the CLI's reader: English
        counts, by_type = jobs.course_counts(conn, org_id, job.result_course_id)
    state = graph_state(deps, job.id)
    modules = state.get("generated_modules") or []
    if job.result_course_id is None:  # not published yet: count what the pipeline holds
        counts = (len(modules), sum(len(m["lessons"]) for m in modules))
        by_type = {}
        for module in modules:
            for exercise in module["exercises"]:
                by_type[exercise["type"]] = by_type.get(exercise["type"], 0) + 1
    return {
        "job_id": str(job.id),
        "status": job.status,
        "course_id": str(job.result_course_id) if job.result_course_id else None,
        "manual_id": str(job.result_manual_id) if job.result_manual_id else None,
        "modules": counts[0],
        "lessons": counts[1],
        "exercises_by_type": dict(sorted(by_type.items())),
        **report_figures(job.review_report),
        "module_engines": [m.get("engine", "offline") for m in modules],  # which engine wrote each module
        "template_modules": [m["title"] for m in template_modules(state)],
    }


def outline_rows(outline: dict) -> list[dict]:
    """The outline as editable rows (one per lesson) for the structure review table."""
    rows = []
    for number, module in enumerate(outline.get("modules", []), 1):
        for lesson in module["lessons"]:
            rows.append(
                {
                    "module": number,
                    "module_title": module["title"],
                    "lesson": lesson["position"],
                    "lesson_title": lesson["title"],
                    "content_type": lesson["content_type"],
                    "origin": number,
                }
            )
    return rows


def outline_from_rows(rows: list[dict], outline: dict) -> dict:
    """The admin's edited rows back into an outline: modules ordered by number, renamed, added or removed;
    a module keeps its themes and sources when its rows came from an original one (``origin``)."""
    originals = outline.get("modules", [])
    groups: dict[int, list[dict]] = {}
    for row in rows:
        if row.get("module") is None or not str(row.get("lesson_title") or row.get("module_title") or "").strip():
            continue
        groups.setdefault(int(row["module"]), []).append(row)
    modules = []
    for number in sorted(groups):
        group = sorted(groups[number], key=lambda r: (r.get("lesson") is None, r.get("lesson") or 0))
        origin = next(
            (int(r["origin"]) for r in group if r.get("origin") and 0 < int(r["origin"]) <= len(originals)), None
        )
        base = originals[origin - 1] if origin else {"summary": "", "themes": [], "chunk_ids": []}
        title = next(
            (str(r["module_title"]).strip() for r in group if str(r.get("module_title") or "").strip()),
            base.get("title", ""),
        )
        lessons = [
            {"title": str(r["lesson_title"]).strip(), "content_type": r.get("content_type") or "theory"}
            for r in group
            if str(r.get("lesson_title") or "").strip()
        ]
        modules.append({**base, "title": title, "lessons": lessons})
    return {**outline, "modules": modules}


def template_modules(state: dict) -> list[dict]:
    """The modules the offline twin wrote: {index, title, fallback}. ``fallback`` is why the model's answer
    was not used (``length``, ``contract``, …); None when no model was asked (the offline engine)."""
    return [
        {"index": m["index"], "title": m["module_spec"]["title"], "fallback": m.get("fallback")}
        for m in state.get("generated_modules") or []
        if m.get("engine", "offline") == "offline"
    ]
