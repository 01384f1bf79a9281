"""The admin's decisions on a generation job, queued for the worker with their audit entry: the structure review,
the final review, inline edits, a module or an exercise regenerated, a failed job retried."""

from __future__ import annotations

from agents.content.edits import EditError, apply_patch
from agents.content.graph import build_graph
from agents.content.service import ContentServiceError, graph_state, owned_job, template_modules
from agents.content.worker import defer_generation, run_config
from agents.i18n import t
from agents.runtime.deps import AppDeps
from storage import audit, jobs
from storage.users import User

STRUCTURE_DECISIONS = ("approve", "edit", "redesign", "reject")


FINAL_DECISIONS = ("approve", "refine", "reject")


def _queue(deps: AppDeps, user: User, job_id, command: dict, *, expect: str, status: str, review: str) -> None:
    """Queue the admin's decision with its audit entry (``review``: its action), in one transaction."""
    job = owned_job(deps, user, job_id)
    if job.status != expect:
        raise ContentServiceError(
            t("content.error.not_waiting", user.language, status=t(f"content.status.{job.status}", user.language))
        )
    try:
        with deps.pool.connection() as conn:
            jobs.set_command(conn, user.org_id, job.id, command, status=status)
            defer_generation(conn, user.org_id, job.id)
            audit.record(
                conn,
                user.org_id,
                actor_id=user.id,
                action=review,
                entity_type="generation_job",
                entity_id=job.id,
                before={"job_status": job.status},
                after={
                    "decision": command["decision"],
                    "job_status": status,
                    "note": (command.get("notes") or "").strip() or None,
                },
            )
    except jobs.JobStateError as exc:
        raise ContentServiceError(_job_state_refusal(exc, user.language)) from exc


def _job_state_refusal(exc: jobs.JobStateError, lang: str) -> str:
    """The lifecycle's refusal in the reader's language, with the statuses as the studio names them."""
    statuses = {name: t(f"content.status.{status}", lang) for name, status in exc.params.items()}
    return t(f"content.error.job_{exc.code}", lang, **statuses)


def review_structure(
    deps: AppDeps, user: User, job_id, decision: str, *, outline: dict | None = None, notes: str | None = None
) -> None:
    """Checkpoint 1. ``edit`` carries the admin's outline: it is what gets generated. ``redesign`` carries it
    with the admin's notes back to the design pass (the model's, or offline the notes read as rules), and
    the job comes back to this review."""
    if decision not in STRUCTURE_DECISIONS:
        raise ContentServiceError(t("content.error.decision", user.language, choices=", ".join(STRUCTURE_DECISIONS)))
    if (
        decision in ("edit", "redesign")
        and outline is not None
        and not any(str(m.get("title") or "").strip() for m in outline.get("modules", []))
    ):
        raise ContentServiceError(t("content.error.empty_outline", user.language))
    if decision == "edit" and outline is None:
        raise ContentServiceError(t("content.error.empty_outline", user.language))
    if decision == "redesign" and not (notes or "").strip():
        raise ContentServiceError(t("content.error.redesign_notes", user.language))
    command = {
        "decision": decision,
        "edits": {"course_outline": outline} if outline is not None else None,
        "notes": notes,
    }
    status = {"reject": "awaiting_structure_review", "redesign": "structuring"}.get(decision, "generating")
    _queue(
        deps,
        user,
        job_id,
        command,
        expect="awaiting_structure_review",
        status=status,
        review="content.review_structure",
    )


def open_criticals(job: jobs.Job) -> list[dict]:
    return [i for i in (job.review_report or {}).get("issues") or [] if i["severity"] == "critical"]


def review_final(
    deps: AppDeps,
    user: User,
    job_id,
    decision: str,
    *,
    notes: str | None = None,
    waive_reason: str | None = None,
    accept_template_modules: bool = False,
) -> None:
    """Checkpoint 2: approve (publish), refine (targeted fixes, then review again) or reject. Critical quality
    issues block publishing until they are fixed or the admin waives them with a reason; modules the twin
    wrote because the model's answer was unusable are published only with the admin's explicit tick
    (``accept_template_modules``). Both are audit-logged."""
    if decision not in FINAL_DECISIONS:
        raise ContentServiceError(t("content.error.decision", user.language, choices=", ".join(FINAL_DECISIONS)))
    job = owned_job(deps, user, job_id)
    criticals = open_criticals(job) if decision == "approve" else []
    reason = (waive_reason or "").strip()
    if criticals and not reason:
        raise ContentServiceError(t("content.studio.criticals_block", user.language, count=len(criticals)))
    written = template_modules(graph_state(deps, job.id)) if decision == "approve" else []
    replaced = [m for m in written if m["fallback"]]
    if replaced and not accept_template_modules:
        named = ", ".join(f"«{m['title']}»" for m in replaced[:3]) + (", …" if len(replaced) > 3 else "")
        raise ContentServiceError(t("content.studio.template_block", user.language, count=len(replaced), modules=named))
    status = {"approve": "publishing", "refine": "reviewing", "reject": "awaiting_final_review"}[decision]
    edits = {"waived": [i["description"] for i in criticals], "reason": reason} if criticals else None
    _queue(
        deps,
        user,
        job_id,
        {"decision": decision, "edits": edits, "notes": notes},
        expect="awaiting_final_review",
        status=status,
        review="content.review_final",
    )
    if criticals:
        with deps.pool.connection() as conn:
            audit.record(
                conn,
                user.org_id,
                actor_id=user.id,
                action="content.waive_critical_issues",
                entity_type="generation_job",
                entity_id=job.id,
                before={"issues": criticals},
                after={"reason": reason},
            )
    if replaced:
        with deps.pool.connection() as conn:
            audit.record(
                conn,
                user.org_id,
                actor_id=user.id,
                action="content.accept_template_modules",
                entity_type="generation_job",
                entity_id=job.id,
                before={"modules": replaced},
                after={"accepted": True},
            )


def edit_content(
    deps: AppDeps,
    user: User,
    job_id,
    target: str,
    field_name: str | None = None,
    value=None,
    *,
    fields: dict | None = None,
) -> None:
    """An inline edit at the final review: one field, or a form's ``fields`` at once (validated now, applied by
    the worker; the quality report is checked again after it)."""
    job = owned_job(deps, user, job_id)
    state = graph_state(deps, job.id)
    edits = {"target": target, "fields": fields} if fields else {"target": target, "field": field_name, "value": value}
    try:
        apply_patch(state, edits)
    except (EditError, KeyError) as exc:
        raise ContentServiceError(str(exc)) from exc
    _queue(
        deps,
        user,
        job_id,
        {"decision": "patch", "edits": edits, "notes": None},
        expect="awaiting_final_review",
        status="awaiting_final_review",
        review="content.edit",
    )


def regenerate_module(deps: AppDeps, user: User, job_id, module_index: int, instructions: str | None = None) -> None:
    job = owned_job(deps, user, job_id)
    state = graph_state(deps, job.id)
    if not 0 <= module_index < len(state.get("generated_modules") or []):
        raise ContentServiceError(t("content.error.no_module", user.language))
    _queue(
        deps,
        user,
        job_id,
        {
            "decision": "regenerate",
            "notes": None,
            "edits": {"module_index": module_index, "instructions": instructions or None},
        },
        expect="awaiting_final_review",
        status="generating",
        review="content.regenerate_module",
    )


def regenerate_exercise(deps: AppDeps, user: User, job_id, module_index: int, exercise_index: int) -> None:
    """Another exercise in place of one at the final review (the worker writes and reviews it; audited)."""
    job = owned_job(deps, user, job_id)
    modules = graph_state(deps, job.id).get("generated_modules") or []
    if not (0 <= module_index < len(modules) and 0 <= exercise_index < len(modules[module_index]["exercises"])):
        raise ContentServiceError(t("content.error.no_module", user.language))
    _queue(
        deps,
        user,
        job_id,
        {
            "decision": "regenerate_exercise",
            "notes": None,
            "edits": {"module_index": module_index, "exercise_index": exercise_index},
        },
        expect="awaiting_final_review",
        status="awaiting_final_review",
        review="content.regenerate_exercise",
    )


def retry_job(deps: AppDeps, user: User, job_id) -> None:
    """Run a failed job again from the checkpoint before the node that failed."""
    job = owned_job(deps, user, job_id)
    if job.status != "failed":
        raise ContentServiceError(t("content.error.retry_failed_only", user.language))
    failed_node = (job.error or "")[1 : (job.error or "").find("]")] if (job.error or "").startswith("[") else ""
    graph = build_graph(deps.checkpointer)
    retry_from = None
    for snapshot in graph.get_state_history(run_config(job.id)):
        if not snapshot.values.get("error") and (failed_node in snapshot.next or not failed_node):
            retry_from = snapshot.config["configurable"]["checkpoint_id"]
            break
    command = {"retry_from": retry_from} if retry_from else None
    with deps.pool.connection() as conn:
        try:
            jobs.set_status(conn, user.org_id, job.id, "pending")
        except jobs.JobStateError as exc:
            raise ContentServiceError(_job_state_refusal(exc, user.language)) from exc
        if command:
            jobs.set_command(conn, user.org_id, job.id, command, status="pending")
        jobs.add_event(conn, user.org_id, job.id, "retry", {"from": failed_node or "start"})
        defer_generation(conn, user.org_id, job.id)
