"""The content pipeline's state (spec 004 §2.1). Ids are UUIDs: the checkpointer's serialiser keeps them as such."""

from __future__ import annotations

from typing import Annotated, Literal, TypedDict
from uuid import UUID

from agents.content.sources import Sources

BloomLevel = Literal["remember", "understand", "apply", "analyze", "evaluate", "create"]
ContentType = Literal["theory", "example", "exercise", "summary"]
ExerciseType = Literal["test", "true_false", "fill_blank", "order_steps", "practical_case", "dialogue"]
APPLIED_LEVELS = ("apply", "analyze", "evaluate", "create")


class LessonSpec(TypedDict):
    title: str
    position: int
    content_type: ContentType


class ModuleSpec(TypedDict):
    title: str
    summary: str
    position: int
    themes: list[str]
    bloom_level: BloomLevel
    chunk_ids: list[str]
    lessons: list[LessonSpec]


class Citation(TypedDict):
    document: str
    section: str
    page: int | None
    chunk_id: str


class GeneratedLesson(TypedDict):
    title: str
    position: int
    content_type: ContentType
    content: str  # Markdown
    citations: list[Citation]
    source_chunk_ids: list[str]


class GeneratedExercise(TypedDict):
    type: ExerciseType
    bloom_level: BloomLevel
    prompt: str
    content: dict  # the shared per-type contract (storage/exercises.py)
    explanation: str
    source_chunk_ids: list[str]


class GeneratedModule(TypedDict):
    index: int
    module_spec: ModuleSpec
    lessons: list[GeneratedLesson]
    exercises: list[GeneratedExercise]
    engine: str


class ReviewIssue(TypedDict):
    severity: Literal["critical", "major", "minor"]
    module_index: int | None
    description: str
    suggestion: str


class ReviewReport(TypedDict):
    passed: bool
    overall_score: float
    issues: list[ReviewIssue]
    module_scores: list[float]
    checks_score: float  # the whole course's checks (citations, verified answers, coverage), before findings
    checks: dict
    engine: str


class AdminReview(TypedDict, total=False):
    decision: str  # structure: approve|edit|redesign|reject; final: + refine|patch|regenerate|regenerate_exercise
    edits: dict | None
    notes: str | None


def merge_modules(current: list[GeneratedModule] | None, new: list[GeneratedModule]) -> list[GeneratedModule]:
    """Modules arrive one per parallel task (or a refined set): each replaces the one with its index."""
    by_index = {module["index"]: module for module in current or []}
    for module in new:
        by_index[module["index"]] = module
    return [by_index[index] for index in sorted(by_index)]


class GenerationState(TypedDict, total=False):
    job_id: UUID
    org_id: UUID
    triggered_by: UUID | None
    source_document_ids: list[UUID]
    output_type: Literal["course_and_manual", "manual_only"]

    sources: Sources  # loaded once, by prepare_context
    rag_mode: Literal["full_text", "chunked"]

    extracted_themes: list[dict]  # [{key, title, bloom_level, chunk_ids, summary, terms}]
    source_metadata: dict  # {total_pages, doc_count, doc_titles, languages, language}

    course_outline: dict  # {title, description, outcome, modules: [ModuleSpec]}
    admin_review_structure: AdminReview | None

    generated_modules: Annotated[list[GeneratedModule], merge_modules]
    generated_manual: dict | None  # {title, toc, sections, content_md, engine}

    review_report: ReviewReport | None
    refinement_count: int
    admin_review_final: AdminReview | None

    result_course_id: UUID | None
    result_manual_id: UUID | None

    error: str | None  # a node's failure, on its way to handle_error; the job's status is its row's (storage/jobs.py)


class ModuleTask(TypedDict):
    """What one parallel module generator sees: its spec and the job's sources, nothing else."""

    job_id: UUID
    org_id: UUID
    module_index: int
    total: int
    module_spec: ModuleSpec
    themes: list[dict]
    sibling_terms: list[str]  # other modules' key terms: distractors for multiple choice
    sources: Sources
    rag_mode: str
    language: str
    instructions: str | None
