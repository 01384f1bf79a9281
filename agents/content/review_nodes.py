"""The pipeline's review nodes (spec 004 §3): the quality review and refinement, the admin's final review and what
it may ask for (a patch, an exercise swapped, a module rebuilt), each quality report checked again at once."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from langgraph.runtime import Runtime
from langgraph.types import interrupt

from agents.content import quality
from agents.content.context import MAX_REFINEMENT_CYCLES, ContentContext
from agents.content.edits import apply_patch
from agents.content.exercise_swap import replacement_exercise
from agents.content.nodes import ContentError, build_module, module_task, node_error_wrapper, state_language
from agents.content.review import review_twin
from agents.content.sources import sections_for
from agents.content.state import AdminReview, GenerationState, merge_modules
from agents.content.twins import module_sections
from storage import jobs


@node_error_wrapper("review_quality")
def review_quality(state: GenerationState, runtime: Runtime[ContentContext]) -> dict:
    """Independent review: against the job's whole sources, never the generators' context."""
    ctx = runtime.context
    ctx.step(state, "reviewing", "reviewing")
    sections = state["sources"].sections
    report = quality.review(
        ctx.llm, state.get("generated_modules") or [], state.get("generated_manual"), sections, state_language(state)
    )
    org_id, job_id = state["org_id"], state["job_id"]
    with ctx.pool.connection() as conn:
        jobs.set_review_report(conn, org_id, job_id, report)
        jobs.add_event(
            conn,
            org_id,
            job_id,
            "review_result",
            {
                "passed": report["passed"],
                "score": report["overall_score"],
                "issues_count": len(report["issues"]),
                "critical_count": sum(i["severity"] == "critical" for i in report["issues"]),
                "engine": report["engine"],
            },
        )
    return {"review_report": report}


@node_error_wrapper("refine_content")
def refine_content(state: GenerationState, runtime: Runtime[ContentContext]) -> dict:
    """Targeted fixes for the modules the review flagged (and the admin's instructions, if any)."""
    ctx = runtime.context
    ctx.step(state, "reviewing", "refining")
    report: Mapping[str, Any] = state.get("review_report") or {"issues": []}
    admin: AdminReview = state.get("admin_review_final") or {}
    instructions = admin.get("notes") if admin.get("decision") in ("refine", "edit") else None
    modules = state.get("generated_modules") or []
    flagged = {i["module_index"] for i in report["issues"] if i["module_index"] is not None}
    targets = set(range(len(modules))) if instructions else flagged
    cycle = state.get("refinement_count", 0) + 1
    ctx.event(
        state, "refining", {"cycle": cycle, "max_cycles": MAX_REFINEMENT_CYCLES, "issues_fixing": len(report["issues"])}
    )
    every = state["sources"].sections
    source = "\n\n".join(f"{s.heading}\n{s.text}" for s in every)
    corpus = [s.text for s in every]
    refined = []
    for index in sorted(targets):
        task = module_task(state, index)
        module = modules[index]
        primary = module_sections(module["module_spec"], every)
        primary_ids = {c for s in primary for c in s.chunk_ids}
        supplement_ids = [c for lesson in module["lessons"] for c in lesson["source_chunk_ids"] if c not in primary_ids]
        issues = [i for i in report["issues"] if i["module_index"] == index]
        refined.append(
            quality.refine_module(
                ctx.llm,
                module,
                issues,
                primary,
                sections_for(every, supplement_ids),
                state_language(state),
                task["sibling_terms"],
                corpus,
                source,
                instructions,
                ctx.model_calls,
            )
        )
    return {
        "generated_modules": refined,
        "refinement_count": cycle,
        "admin_review_final": None,
    }


@node_error_wrapper("admin_review_final")
def admin_review_final(state: GenerationState, runtime: Runtime[ContentContext]) -> dict:
    """Human checkpoint 2: approve, refine (edit), reject; or, staying here, patch content or regenerate a module."""
    review = interrupt({"checkpoint": "final"})
    decision = review.get("decision")
    if decision not in ("approve", "edit", "refine", "reject", "patch", "regenerate", "regenerate_exercise"):
        raise ContentError(f"unknown final decision {decision!r}")
    update: dict = {"admin_review_final": review}
    ctx = runtime.context
    if decision == "patch":
        update.update(apply_patch(state, review.get("edits") or {}))
        ctx.event(state, "edited", {"target": (review.get("edits") or {}).get("target")})
        update["review_report"] = _recheck(ctx, state, update)
    if decision == "regenerate_exercise":
        update.update(_swap_exercise(ctx, state, review.get("edits") or {}))
    return update


def _swap_exercise(ctx: ContentContext, state: GenerationState, edits: dict) -> dict:
    """One exercise replaced by another from its module's sections (exercise_swap.py), the review checked again;
    when the sections support no other, the exercise stays and the event says so."""
    modules = state.get("generated_modules") or []
    index, at = int(edits.get("module_index", -1)), int(edits.get("exercise_index", -1))
    if not (0 <= index < len(modules) and 0 <= at < len(modules[index]["exercises"])):
        raise ContentError(f"there is no exercise {index}.{at}")
    sections = state["sources"].sections
    fresh = replacement_exercise(modules[index], at, sections, state_language(state))
    ctx.event(state, "exercise_regenerated", {"module": index, "exercise": at, "replaced": fresh is not None})
    if fresh is None:
        return {}
    old = modules[index]
    module = {**old, "exercises": [fresh if i == at else exercise for i, exercise in enumerate(old["exercises"])]}
    update = {"generated_modules": [module]}
    return {**update, "review_report": _recheck(ctx, state, update)}


def _recheck(ctx: ContentContext, state: GenerationState, update: dict) -> dict:
    """The quality report follows an admin's fix or a regenerated module at once (deterministic checks)."""
    modules = merge_modules(state.get("generated_modules"), update.get("generated_modules") or [])
    sections = state["sources"].sections
    report = review_twin(
        modules, update.get("generated_manual") or state.get("generated_manual"), sections, state_language(state)
    )
    with ctx.pool.connection() as conn:
        jobs.set_review_report(conn, state["org_id"], state["job_id"], report)
    return report


@node_error_wrapper("regenerate_module")
def regenerate_module(state: GenerationState, runtime: Runtime[ContentContext]) -> dict:
    """Rebuild one module (with the admin's instructions); the others stay exactly as they are."""
    ctx = runtime.context
    edits = (state.get("admin_review_final") or {}).get("edits") or {}
    index = int(edits.get("module_index", -1))
    if not 0 <= index < len(state.get("generated_modules") or []):
        raise ContentError(f"there is no module {index}")
    ctx.step(state, "generating", "generating")
    module = build_module(ctx, module_task(state, index, edits.get("instructions")))
    ctx.event(
        state,
        "module_regenerated",
        {"index": index, "title": module["module_spec"]["title"], "engine": module["engine"]},
    )
    return {"generated_modules": [module], "review_report": _recheck(ctx, state, {"generated_modules": [module]})}
