"""HelpdeskState: everything the graph checkpoints for one helpdesk session (state_version 1), and
HelpdeskContext: what its nodes depend on, passed per run."""

from __future__ import annotations

import operator
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Literal, TypedDict, get_args

from pydantic import BaseModel, Field

from agents.helpdesk.guards import Settings
from agents.helpdesk.tools import Toolbox
from agents.llm import LLM

if TYPE_CHECKING:
    from agents.runtime.deps import Embedder

STATE_VERSION = 1

NextAction = Literal[
    "retry_kb",
    "web_search",
    "search_duplicates",
    "ask_user",
    "classify",
    "propose_solution",
    "write_draft",
    "await_user_confirm",
    "file_new",
    "link_existing",
    "resolved_by_agent",
    "abort",
]
NEXT_ACTIONS: tuple[str, ...] = get_args(NextAction)
Outcome = Literal["filed", "linked", "resolved_by_agent", "aborted"]
Severity = Literal["low", "medium", "high", "critical"]
CATEGORIES = ("access", "account", "hardware", "software", "network", "payroll", "training", "other")
Category = Literal["access", "account", "hardware", "software", "network", "payroll", "training", "other"]
Impact = Literal["individual", "team", "organization"]


class SupervisorDecision(BaseModel):
    next_action: NextAction
    reason: str = Field(default="", max_length=300)


class ClarifyingQuestion(BaseModel):
    question: str = Field(min_length=5, max_length=300)
    choices: list[str] = Field(default_factory=list, max_length=4)
    fact: str = Field(default="details", max_length=40)


class Classification(BaseModel):
    severity: Severity
    category: Category
    impact: Impact


class TicketDraft(BaseModel):
    title: str = Field(min_length=3, max_length=120)
    body: str = Field(min_length=10, max_length=8000)
    severity: Severity = "medium"
    category: Category = "other"


class ConversationTurn(TypedDict):
    role: Literal["user", "assistant"]
    content: str


class AwaitingUser(TypedDict, total=False):
    kind: Literal["question", "solution", "duplicate", "draft_ready"]
    question_id: str
    message: str
    choices: list[str]
    fact: str
    ticket: dict  # kind == "duplicate": the ticket offered (number, title, state, url)


class HelpdeskState(TypedDict, total=False):
    state_version: int
    session_id: str
    chat_session_id: str
    user_id: str
    org_id: str
    language: str
    original_question: str  # redacted
    conversation: list[ConversationTurn]  # immutable snapshot at start, redacted
    turns_taken: int
    questions_asked: list[str]
    user_replies: list[str]
    kb_retry_attempts: int
    web_search_attempts: int
    duplicate_search_attempts: int
    tool_failures: int
    kb_retry_results: list[dict]  # {title, section, content, score}
    web_search_results: list[dict]  # {title, url, content}
    duplicate_candidates: list[dict]  # {number, title, state, url, similarity, strong}
    rejected_duplicates: list[int]
    proposed_solutions: list[dict]  # {source, text}
    rejected_solutions: list[str]
    solution_accepted: bool
    facts: dict[str, str]
    classification: dict | None
    draft: dict | None
    next_action: NextAction
    awaiting_user: AwaitingUser | None
    outcome: Outcome | None
    abort_reason: str | None
    ticket: dict | None  # {number, title, url, status, created}
    linked_ticket: dict | None
    file_error: str | None
    confirmed: bool  # set only by the human gate on "File it"
    tokens_used: int
    started_at: float  # epoch seconds
    run_started_at: float  # when the agent last started working (start or resume)
    agent_seconds: float  # working time before the last pause
    cut_short: str | None  # "deadline" | "budget_exhausted": this run offers what it found
    tool_cache: dict[str, list]
    tools_invoked: Annotated[list[str], operator.add]
    trace: Annotated[list[dict], operator.add]  # [{node, action, engine, reason, ms}]: no raw text


@dataclass
class HelpdeskContext:
    """What nodes depend on, passed per run (never module globals)."""

    llm: LLM
    tools: Toolbox
    embedder: Embedder  # the proposer's offline twin picks the sentences by embedding
    settings: Settings = field(default_factory=Settings.from_env)
    clock: Callable[[], float] = time.time
    stop_reason: Callable[[str], str | None] = lambda session_id: None  # "user_cancelled" | None
    heartbeat: Callable[[str], None] = lambda session_id: None
