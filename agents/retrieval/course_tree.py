"""Course-tree (PageIndex) selection: the course's modules are its index; pick, then read lessons.

The model picks modules from titles, summaries and lesson titles (one short call). Its offline twin
ranks modules by the embedding similarity of the question to the same text. The learner's current
lesson is always included.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING
from uuid import UUID

import numpy as np
from pydantic import BaseModel, Field

from agents.retrieval import prompts
from agents.retrieval.hits import Hit
from storage import course_outline
from storage.course_outline import LessonText, ModuleNode

if TYPE_CHECKING:
    from agents.runtime.deps import Embedder

MAX_MODULES = 2
SELECTION_MARGIN = 0.02  # modules within this similarity of the best one are picked too


class ModuleChoice(BaseModel):
    modules: list[int] = Field(description="module numbers, best first")


@dataclass(frozen=True)
class CourseContext:
    lessons: list[LessonText]
    selected: list[tuple[ModuleNode, float]]  # (module, similarity to the question)
    engine: str  # which engine picked the modules


def describe(module: ModuleNode) -> str:
    lessons = "; ".join(module.lesson_titles)
    return f"{module.title}. {module.summary} {lessons}".strip()


def module_similarities(question: str, modules: list[ModuleNode], embedder: Embedder) -> list[float]:
    # Both sides as e5 "query:" texts: short, symmetric, and served from the query cache.
    question_vector = embedder.embed_query(question)
    return [float(np.dot(question_vector, embedder.embed_query(describe(module)))) for module in modules]


def select_modules(
    question: str, modules: list[ModuleNode], embedder: Embedder, llm=None
) -> tuple[list[ModuleNode], str, list[float]]:
    """(chosen modules best first, engine, every module's similarity)."""
    similarities = module_similarities(question, modules, embedder)

    def twin() -> ModuleChoice:
        best = max(similarities)
        order = sorted(range(len(modules)), key=lambda i: -similarities[i])
        chosen = [i for i in order if similarities[i] >= best - SELECTION_MARGIN][:MAX_MODULES]
        return ModuleChoice(modules=[modules[i].position for i in chosen])

    if llm is None:
        choice, engine = twin(), "offline"
    else:
        tree = "\n".join(
            f"{m.position}. {m.title} — {m.summary or '-'} (lessons: {'; '.join(m.lesson_titles)})" for m in modules
        )
        messages = [
            ("system", prompts.MODULE_SELECTION_SYSTEM),
            ("human", prompts.MODULE_SELECTION_USER.format(tree=tree, question=question)),
        ]
        result = llm.structured("classifier", messages, ModuleChoice, twin)
        choice, engine = result.value, result.engine
    by_position = {m.position: m for m in modules}
    chosen = [by_position[p] for p in dict.fromkeys(choice.modules) if p in by_position]
    if not chosen:  # the model named no real module: fall back to the twin's pick
        chosen = [by_position[p] for p in twin().modules]
        engine = "offline"
    return chosen, engine, similarities


def retrieve_course_context(
    pool,
    org_id: UUID,
    course_id: UUID,
    question: str,
    *,
    embedder: Embedder,
    lesson_id: UUID | None = None,
    llm=None,
) -> CourseContext:
    with pool.connection() as conn:
        modules = course_outline.course_tree(conn, org_id, course_id)
    if not modules:
        return CourseContext([], [], "offline")
    chosen, engine, similarities = select_modules(question, modules, embedder, llm)  # no connection held: a model call
    with pool.connection() as conn:
        lessons = course_outline.module_lessons(conn, org_id, [m.id for m in chosen])
        current = (
            course_outline.get_lesson(conn, org_id, lesson_id)
            if lesson_id is not None and all(lesson.id != lesson_id for lesson in lessons)
            else None
        )
    # the chosen modules' order (best first), lessons in reading order inside each
    rank = {m.id: i for i, m in enumerate(chosen)}
    lessons.sort(key=lambda lesson: (rank[lesson.module_id], lesson.position))
    if current is not None:
        lessons.insert(0, current)
    similarity = {m.id: s for m, s in zip(modules, similarities)}
    return CourseContext(lessons, [(m, similarity[m.id]) for m in chosen], engine)


def course_tree_hits(
    pool, org_id: UUID, course_id: UUID, question: str, k: int, *, embedder: Embedder, llm=None
) -> list[Hit]:
    """The course-tree strategy as search hits (the retrieval lab shows them beside the others)."""
    context = retrieve_course_context(pool, org_id, course_id, question, embedder=embedder, llm=llm)
    similarity = {m.id: s for m, s in context.selected}
    return [
        Hit(
            chunk_id=lesson.id,
            document_id=lesson.module_id,
            document_title=lesson.module_title,
            heading=lesson.title,
            page=None,
            position=lesson.position,
            content=lesson.content_md,
            score=round(similarity.get(lesson.module_id, 0.0), 4),
            scores={
                "module": round(similarity.get(lesson.module_id, 0.0), 4),
                "engine": context.engine,
                "module_position": lesson.module_position,
            },
            token_count=len(lesson.content_md) // 4,
        )
        for lesson in context.lessons[:k]
    ]
