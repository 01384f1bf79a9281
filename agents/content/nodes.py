"""The pipeline's nodes (spec 004 §3) up to the generated course: context, themes, structure and its review,
modules, manual, and the error handler (the review nodes are in review_nodes.py). Plain functions of the state
that return only what they change.

Every node is wrapped by ``node_error_wrapper`` (§6.1): an exception becomes ``error`` in the state
and the routers send the run to ``handle_error``, which records it on the job.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Mapping
from typing import Any

from langgraph.errors import GraphBubbleUp
from langgraph.runtime import Runtime
from langgraph.types import interrupt

from agents.content import authoring, design
from agents.content import themes as content_themes
from agents.content.context import ContentContext
from agents.content.edits import apply_notes
from agents.content.sources import course_language, load_sources, module_chunk_ids, sections_for
from agents.content.state import GenerationState, ModuleTask
from agents.content.twins import module_sections
from storage import documents, jobs

log = logging.getLogger(__name__)
FULL_TEXT_PAGE_THRESHOLD = 5  # spec 004 §10


class ContentError(RuntimeError):
    """Source material the pipeline cannot work with; one line."""


def node_error_wrapper(name: str):
    def decorator(func):
        @functools.wraps(func)
        def wrapper(state: dict, runtime: Runtime[ContentContext]) -> dict:
            if state.get("error"):  # a parallel task already failed: let the router reach handle_error
                return {}
            try:
                return func(state, runtime)
            except GraphBubbleUp:  # interrupts are how the human checkpoints pause the graph
                raise
            except Exception as exc:
                log.error("content node %s failed for job %s", name, state.get("job_id"), exc_info=True)
                message = str(exc).splitlines()[0] if str(exc) else ""
                return {"error": f"[{name}] {type(exc).__name__}: {message}"[:500]}

        return wrapper

    return decorator


def state_language(state: Mapping[str, Any]) -> str:
    return state.get("source_metadata", {}).get("language", "es")


@node_error_wrapper("prepare_context")
def prepare_context(state: GenerationState, runtime: Runtime[ContentContext]) -> dict:
    """The job's sources, loaded once for every node after it; full text for one short document, chunks
    otherwise (spec 004 §3.1). No model."""
    ctx, org_id = runtime.context, state["org_id"]
    ctx.step(state, "extracting", "extracting")
    with ctx.pool.connection() as conn:
        found = [documents.get_document(conn, org_id, d) for d in state["source_document_ids"]]
        docs = [d for d in found if d is not None]
        if not docs or len(docs) < len(found):
            raise ContentError("a source document was not found / no se encontró un documento fuente")
        texts = {str(d.id): documents.get_full_text(conn, org_id, d.id) or "" for d in docs}
    if not any(t.strip() for t in texts.values()) or sum(d.chunk_count for d in docs) == 0:
        raise ContentError("the documents have no text / los documentos no tienen texto")
    total_pages = sum(d.page_count for d in docs)
    full_text = len(docs) == 1 and total_pages <= FULL_TEXT_PAGE_THRESHOLD
    languages = sorted({d.language for d in docs})
    return {
        "sources": load_sources(ctx.pool, org_id, state["source_document_ids"]),
        "rag_mode": "full_text" if full_text else "chunked",
        "source_metadata": {
            "total_pages": total_pages,
            "doc_count": len(docs),
            "doc_titles": [d.title for d in docs],
            "languages": languages,
            "language": course_language(docs),
        },
    }


@node_error_wrapper("extract_themes")
def extract_themes(state: GenerationState, runtime: Runtime[ContentContext]) -> dict:
    ctx, sections = runtime.context, state["sources"].sections
    themes, engine = content_themes.extract_themes(ctx.llm, sections, state["rag_mode"], state_language(state))
    ctx.event(state, "themes", {"count": len(themes), "engine": engine})
    return {"extracted_themes": themes}


@node_error_wrapper("design_structure")
def design_structure(state: GenerationState, runtime: Runtime[ContentContext]) -> dict:
    ctx = runtime.context
    ctx.step(state, "structuring", "structuring")
    sections = state["sources"].sections
    review = state.get("admin_review_structure") or {}
    if review.get("decision") == "redesign":  # back from the structure review with the admin's notes
        edited = (review.get("edits") or {}).get("course_outline") or state["course_outline"]
        outline, engine, rules = design.redesign_structure(
            ctx.llm, edited, review.get("notes") or "", state["extracted_themes"], sections, state_language(state)
        )
        ctx.event(
            state, "structure", {"modules": len(outline["modules"]), "engine": engine, "redesign": True, "rules": rules}
        )
    else:
        outline, engine = design.design_structure(
            ctx.llm, state["extracted_themes"], state["source_metadata"], sections, state_language(state)
        )
        ctx.event(state, "structure", {"modules": len(outline["modules"]), "engine": engine})
    return {"course_outline": outline}


@node_error_wrapper("admin_review_structure")
def admin_review_structure(state: GenerationState, runtime: Runtime[ContentContext]) -> dict:
    """Human checkpoint 1: approve, edit (the edited outline, with the notes' rules applied to it, is what gets
    generated), redesign (the edited outline and the admin's notes go back to the design pass, then to this
    review again) or reject."""
    review = interrupt({"checkpoint": "structure"})
    decision = review.get("decision")
    if decision not in ("approve", "edit", "redesign", "reject"):
        raise ContentError(f"unknown structure decision {decision!r}")
    if decision == "redesign":
        return {"admin_review_structure": review}
    update: dict = {"admin_review_structure": review}
    edited = (review.get("edits") or {}).get("course_outline")
    if decision == "edit" and edited:
        sections = state["sources"].sections
        # the notes written as rules (rename N: title, merge N and M, split N) apply as in a redesign's twin;
        # other notes need a design pass ("redesign"), and the page's help says so
        edited, _ = apply_notes(edited, review.get("notes") or "")
        update["course_outline"] = design.normalize_outline(
            edited, state["extracted_themes"], sections, state_language(state)
        )
    if decision != "reject":
        total = len((update.get("course_outline") or state["course_outline"])["modules"])
        with runtime.context.pool.connection() as conn:
            jobs.set_progress(conn, state["org_id"], state["job_id"], {"total": total, "done": [], "current": ""})
    return update


def module_task(state: GenerationState, index: int, instructions: str | None = None) -> ModuleTask:
    outline = state["course_outline"]
    spec = outline["modules"][index]
    themes = [t for t in state["extracted_themes"] if t["key"] in spec["themes"]]
    siblings = [term for t in state["extracted_themes"] if t["key"] not in spec["themes"] for term in t["terms"]]
    return {
        "job_id": state["job_id"],
        "org_id": state["org_id"],
        "module_index": index,
        "total": len(outline["modules"]),
        "module_spec": spec,
        "themes": themes,
        "sibling_terms": siblings,
        "sources": state["sources"],
        "rag_mode": state["rag_mode"],
        "language": state_language(state),
        "instructions": instructions,
    }


def build_module(ctx: ContentContext, task: Mapping[str, Any]) -> dict:
    """One module from its compartmented sources: its own sections (the outline's), plus a semantic supplement."""
    every = task["sources"].sections
    spec = task["module_spec"]
    own = module_sections(spec, every)
    if task["rag_mode"] == "full_text":  # a short document: the module's writer gets all of it (§3.4)
        supplement_ids: list[str] = []
    else:
        _, supplement_ids = module_chunk_ids(
            ctx.pool,
            ctx.embedder,
            task["org_id"],
            task["sources"].document_ids,
            [c for s in own for c in s.chunk_ids] or spec["chunk_ids"],
            task["themes"],
        )
    supplement = sections_for(every, supplement_ids)
    context = every if task["rag_mode"] == "full_text" else own + supplement
    return authoring.write_module(
        ctx.llm,
        task,
        own,
        supplement,
        every,
        task.get("sibling_terms", []),
        [s.text for s in every],
        context,
        ctx.model_calls,
    )


@node_error_wrapper("generate_modules")
def generate_modules(task: ModuleTask, runtime: Runtime[ContentContext]) -> dict:
    """One module per parallel task (LangGraph Send); a crash re-runs only the modules not yet saved."""
    ctx, title = runtime.context, task["module_spec"]["title"]
    ctx.event(
        task,
        "progress",
        {
            "step": "generating",
            "current": title,
            "index": task["module_index"],
            "total": task["total"],
            "phase": "started",
        },
    )
    module = build_module(ctx, task)
    org_id, job_id = task["org_id"], task["job_id"]
    with ctx.pool.connection() as conn:
        progress = jobs.mark_module_done(conn, org_id, job_id, task["module_index"], title)
        jobs.add_event(
            conn,
            org_id,
            job_id,
            "progress",
            {
                "step": "generating",
                "completed": progress["completed"],
                "total": task["total"],
                "current": title,
                "index": task["module_index"],
                "phase": "done",
                "engine": module["engine"],
            },
        )
    return {"generated_modules": [module]}


@node_error_wrapper("generate_manual")
def generate_manual(state: GenerationState, runtime: Runtime[ContentContext]) -> dict:
    ctx = runtime.context
    ctx.step(state, "generating", "generating_manual")
    sections = state["sources"].sections
    manual = authoring.write_manual(ctx.llm, sections, state["source_metadata"], state_language(state))
    return {"generated_manual": manual}


def handle_error(state: GenerationState, runtime: Runtime[ContentContext]) -> dict:
    """Terminal: the job fails with the node's one-line error; a retry resumes from that node."""
    message = state.get("error") or "unknown error"
    step = message[1 : message.index("]")] if message.startswith("[") and "]" in message else None
    org_id, job_id = state["org_id"], state["job_id"]
    with runtime.context.pool.connection() as conn:
        jobs.set_status(conn, org_id, job_id, "failed", error=message)
        jobs.add_event(
            conn,
            org_id,
            job_id,
            "error",
            {"step": step, "message": message[:300], "recoverable": "ContentError" not in message},
        )
    return {}
