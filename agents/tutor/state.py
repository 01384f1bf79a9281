"""The tutor graph's state (what flows between nodes) and context (what nodes depend on)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal, TypedDict
from uuid import UUID

from psycopg_pool import ConnectionPool

from agents.retrieval.passages import Passage
from core.turns import TurnEvent

Intent = Literal["in_course", "cross_course", "progress", "chitchat", "off_topic"]
INTENTS: tuple[str, ...] = ("in_course", "cross_course", "progress", "chitchat", "off_topic")


class TutorState(TypedDict, total=False):
    # input
    message: str
    language: str  # the language the answer is written in ("es" | "en")
    course_id: str | None
    course_title: str | None
    lesson_id: str | None
    lesson_title: str | None
    history: list[dict]  # recent turns, raw: {"role", "content"}
    history_summary: str | None  # older turns, summarised
    attempt: dict | None  # the exercise in progress the question is about (hint-only answers), else None
    hint_level: int  # 1 conceptual nudge · 2 pointer to the passage · 3 worked analogy
    # the learner (agents/tutor/adapt.py): the course they are taking that the question is on, its tutor mode,
    # the support level from their record, and what helps; None when the question is on no course they take
    learner: dict | None
    # the guided exchange (agents/tutor/guided.py): the conversation's guided state as stored, what this message
    # is to a pending question ("guess" | "reveal"; ``message`` is then the pending question), the guess, and
    # what this turn does ("ask": the question only; "answer") and leaves stored
    guide: dict | None
    guided_reply: str | None
    guess: str | None
    guess_feedback: str | None
    guided_turn: str | None
    guide_next: dict | None
    # classification
    intent: Intent
    # retrieval
    rung: str  # chunks | document | general
    retrieval_source: str  # pageindex | semantic | scoped_fallback | document | db | none
    passages: list[Passage]  # numbered by ground(); renumbered in citation order by post_process
    context: str
    progress: dict | None
    next_step: dict | None  # asked "what's my next step?": that step alone (agents/tutor/next_step.py)
    due_today: dict | None  # asked "what should I review today?": what is due alone (agents/tutor/due_today.py)
    closest: list[dict]  # nothing grounded: the nearest courses/documents by title {kind, id, title}
    retrieval_latency_ms: int
    # generation
    draft: str
    streamed: bool  # tokens already went out while generating
    citation_order: list | None  # passage numbers in order of first citation ([1] is the first); None: not yet
    engine: str  # who wrote the draft: the model's engine or "offline"
    fallback: str | None  # why a model answer was replaced by the twin (agents.tutor.gate)
    tokens_used: int
    generation_latency_ms: int
    ttft_ms: int | None
    removed_citations: list[int]
    # reflection (hint mode)
    leaks: list[str]
    rewrites: int
    # post-processing
    response: str
    citations: list[Passage]  # the cited passages, pinned on the chunk each sentence comes from
    suggestions: list[str]
    actions: list[dict]  # next steps beside the answer: {kind: course|document|helpdesk, label, target}
    low_confidence: bool
    unsupported: list[str]  # answer sentences no cited passage backs
    low_confidence_reason: str | None  # removed_citations | uncited | not_grounded


@dataclass
class TutorContext:
    """Per-turn dependencies, handed to every node through LangGraph's Runtime."""

    pool: ConnectionPool
    llm: Any  # agents.llm.LLM
    org_id: UUID
    org_name: str
    user_id: UUID
    user_name: str
    budgets: dict[str, int]
    started: float  # time.monotonic() when the turn began (TTFT is measured from it)
    clock: Any = None  # time.monotonic, replaceable in tests
    now: Any = None  # the wall-clock time of the turn (AppDeps.now()): review cards are due or fading by it
    embedder: Any = None  # the turn's AppDeps (agents.runtime.deps.Embedder): retrieval embeds through it
    first_token_at: list[float] = field(default_factory=list)
    emit: Callable[[TurnEvent], None] = lambda event: None  # where the turn's events go (graph_events' queue)
