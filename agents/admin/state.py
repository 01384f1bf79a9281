"""The admin assistant's graph state and the run context its nodes receive."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from typing import TYPE_CHECKING, Any, Literal, NotRequired, TypedDict
from uuid import UUID

from psycopg_pool import ConnectionPool

from agents.admin.earlier import EarlierAnswer
from agents.llm import LLM
from storage.users import User

if TYPE_CHECKING:
    from agents.runtime.deps import Embedder


class ToolCall(TypedDict):
    """One tool call of a turn, one shape from the node that ran it to the screen that shows it (the live
    reply, the CLI, the stored message the page draws): ``result`` holds its ``rows`` and, by tool, a preview,
    an error, other tables and figures."""

    tool: str
    arguments: dict
    result: dict
    result_count: NotRequired[int]  # in a stored message: the rows there were before its lists were cut


class Pending(TypedDict, total=False):
    """A previewed write waiting for the admin's confirm (``id`` is the admin_pending_actions row)."""

    id: str
    tool: str
    arguments: dict
    preview: str
    actions: list[Pending]  # every write of the preview [{"id", "tool", "arguments", "preview"}]


class Answer(TypedDict, total=False):
    """What the admin said this turn, the one value a turn puts into the graph (as its input, or as the resume
    of a preview waiting for a confirm): a message, the Confirm button's pending id, or the Cancel button."""

    message: str
    confirm: str | None
    cancel: bool


class Executed(TypedDict):
    id: str
    tool: str
    result: dict[str, Any]


class AdminState(TypedDict, total=False):
    answer: Answer  # this turn's input, read by the graph's routers and await_confirmation
    message: str  # the admin's message this turn ("" after a bare confirm/cancel)
    language: str  # reply language: "es" | "en"
    history: list[dict]  # recent turns [{"role", "content"}] for the model
    history_summary: str | None  # the older turns, summarised (the tutor's memory, agents.llm.memory)
    earlier_answer: EarlierAnswer | None  # what the previous turn's reads named ("assign them…", "y quiénes son?")
    planned: list[dict]  # [{"tool", "arguments"}] chosen by the model or the twin
    next_steps: list[str]  # later steps of a multi-step request, suggested not run
    tool_calls: list[ToolCall]  # what ran this turn
    pending: Pending | None
    asked: dict | None  # a "which one?" the last tool call asked: the call, the phrase, the candidates (clarify)
    cancelled: dict | None  # the pending action this turn cancelled, with why
    amended: dict | None  # the pending action this turn replaced by an amended preview
    asked_while_pending: bool  # this turn's message is a new request under a preview still waiting
    confirmed_id: str | None  # set only by a resume whose id matches ``pending``
    decision: Literal["confirm", "cancel"] | None  # what this turn's answer did to the preview
    executed: list[Executed]
    response: str
    engine: str
    fallback: str | None  # why the model's plan or reply was replaced by the twin's (issue 13)
    tokens_used: int  # model tokens this turn (planning + phrasing); 0 offline


@dataclass(frozen=True)
class AdminContext:
    """Per-run dependencies (LangGraph runtime context): never module globals."""

    pool: ConnectionPool
    llm: LLM
    admin: User
    org_name: str
    session_id: UUID | None
    embedder: Embedder  # the run's AppDeps: the twin's routing and skill matching embed through it
    recall: Callable[[str], tuple[list[dict], str | None]]  # the session's memory (recent turns, summary)
    today: Callable[[], date] = field(default=date.today)
