"""The tutor's retrieval nodes: the material a turn is answered from (the course in view, the company's
documents, the learner's own progress, or nothing), announced to the client as the grounding event once the
turn knows whether it answers or asks a guiding question first (graph.py)."""

from __future__ import annotations

import time
from uuid import UUID

from langgraph.runtime import Runtime

from agents.retrieval import Passage, ground
from agents.retrieval.passages import trim_passages
from agents.tutor.answer_check import about_the_course, answers_question
from agents.tutor.closest import closest_material
from agents.tutor.due_today import asks_due_today, due_today, due_today_context
from agents.tutor.next_step import asks_next_step, next_step, next_step_context
from agents.tutor.state import TutorContext, TutorState
from agents.tutor.unwritten import about_the_unwritten
from storage.db import reading
from storage.progress import progress_summary


def _grounded(state: TutorState, runtime: Runtime[TutorContext], course_id: str | None) -> dict:
    ctx = runtime.context
    started = time.perf_counter()
    message, checked = state["message"], not state.get("attempt")

    def search(scope: str | None) -> tuple[str, str, list[Passage]]:
        lesson_id = state.get("lesson_id") if scope else None
        grounding = ground(
            ctx.pool,
            ctx.org_id,
            ctx.user_id,
            message,
            course_id=UUID(scope) if scope else None,
            lesson_id=UUID(lesson_id) if lesson_id else None,
            llm=ctx.llm,
            embedder=ctx.embedder,
        )
        return grounding.rung, grounding.source, trim_passages(grounding.passages, ctx.budgets["retrieved_context"])

    rung, source, passages = search(course_id)
    answered = not passages or not checked or answers_question(message, tuple(passages), ctx.embedder, ctx.org_name)
    if course_id and passages and checked and about_the_course(message):
        answered = True  # "¿Qué es lo más importante de este curso?": the course in view is what is asked about
    if not answered and course_id:  # the course doesn't answer it; the company's documents may (issue 29)
        rung, source, passages = search(None)
        answered = not passages or answers_question(message, tuple(passages), ctx.embedder, ctx.org_name)
    if answered and passages and checked and about_the_unwritten(ctx.pool, ctx.org_id, message):
        answered = False  # a word of the question no document of the company holds (issue 29)
    retrieved = passages
    if not answered:
        rung, passages = "general", []  # retrieved, but no sentence answers (issue 29)
    if rung == "general":  # searched and found nothing: not a turn that needed no documents
        source = "pageindex" if course_id else "semantic"
    closest = closest_material(ctx.pool, ctx.org_id, message, retrieved, state["language"]) if rung == "general" else []
    return {
        "rung": rung,
        "retrieval_source": source,
        "passages": passages,
        "closest": closest,
        "context": "\n\n---\n\n".join(passage_label(p) + "\n" + p.text for p in passages),
        "retrieval_latency_ms": int((time.perf_counter() - started) * 1000),
    }


def passage_label(passage: Passage) -> str:
    """How a passage is introduced to the model: [Source n: document > section, p. N]."""
    where = " > ".join(part for part in (passage.document, passage.section) if part)
    page = f", p. {passage.page}" if passage.page else ""
    return f"[Source {passage.index}: {where}{page}]"


def retrieve_course_context(state: TutorState, runtime: Runtime[TutorContext]) -> dict:
    """The course in view first (course tree, then its documents), via the grounding ladder."""
    return _grounded(state, runtime, state.get("course_id"))


def retrieve_semantic(state: TutorState, runtime: Runtime[TutorContext]) -> dict:
    """Company-wide search for questions outside (or not tied to) a course."""
    return _grounded(state, runtime, None)


def _progress(runtime: Runtime[TutorContext], language: str) -> dict:
    ctx = runtime.context
    with ctx.pool.connection() as conn:
        return progress_summary(conn, ctx.org_id, ctx.user_id, lang=language)


def retrieve_progress(state: TutorState, runtime: Runtime[TutorContext]) -> dict:
    """The learner's own data, straight from the database (no documents involved); asked for her next step, that
    step alone (agents/tutor/next_step.py); asked what to review today, what is due alone (due_today.py)."""
    started = time.perf_counter()
    ctx = runtime.context
    progress = _progress(runtime, state["language"])
    step = due = None
    if asks_next_step(state["message"]):
        with reading(ctx.pool) as conn:
            step = next_step(conn, ctx.org_id, ctx.user_id, progress, ctx.now)
    elif asks_due_today(state["message"]):
        with reading(ctx.pool) as conn:
            due = due_today(conn, ctx.org_id, ctx.user_id, progress, ctx.now)
    context = next_step_context(step) if step else due_today_context(due) if due else progress_context(progress)
    return {
        "rung": "general",
        "retrieval_source": "db",
        "passages": [],
        "progress": progress,
        "next_step": step,
        "due_today": due,
        "context": context,
        "retrieval_latency_ms": int((time.perf_counter() - started) * 1000),
    }


def progress_context(progress: dict) -> str:
    """The learner data a model answers "how am I doing?" from: the whole record, one fact a line."""
    lines = [
        f"- {e['course']}: {e['status']}, {e['progress']:.0%} done"
        + (f", deadline {e['deadline']}" if e.get("deadline") else "")
        + (f", score {e['score']:.0%}" if e.get("score") is not None else "")
        for e in progress.get("enrollments", [])
    ]
    lines += [f"- skill {s['skill']} ({s['category']}): {s['level']}" for s in progress.get("skills", [])]
    lines.append(f"- reviews due now: {progress.get('reviews_due', 0)}")
    lines += [f"- recently failed: {f['exercise']} ({f['course']})" for f in progress.get("recent_failures", [])]
    return "\n".join(lines)


def skip_retrieval(state: TutorState, runtime: Runtime[TutorContext]) -> dict:
    """Greetings and off-topic messages: no material, only the learner's courses to suggest from."""
    return {
        "rung": "general",
        "retrieval_source": "none",
        "passages": [],
        "context": "",
        "progress": _progress(runtime, state["language"]),
        "retrieval_latency_ms": 0,
    }
