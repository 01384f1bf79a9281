"""AgentTurn (what the person sees after each step), HelpdeskError and the steps announced while a turn runs;
the wording is in the catalogue (agents/i18n/messages/helpdesk.py)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from langgraph.config import get_stream_writer

from agents.i18n import has, t
from core.turns import Step


class HelpdeskError(Exception):
    """One line for the person; ``code`` for callers: not_found | conflict | disabled | daily_cap | gone | invalid."""

    def __init__(self, code: str, message: str, retry_after: int | None = None):
        super().__init__(message)
        self.code = code
        self.retry_after = retry_after


def error(code: str, language: str, retry_after: int | None = None) -> HelpdeskError:
    hours = max(1, round(retry_after / 3600)) if retry_after is not None else 0
    return HelpdeskError(code, t(f"helpdesk.error_{code}", language, hours=hours), retry_after)


def announce(step: str, language: str) -> None:
    """A node starts ``step`` (a tool, a specialist): a Step event for the page, when the catalogue names it
    (LangGraph's stream writer: nothing happens outside a streamed run)."""
    key = f"helpdesk.step_{step}"
    if has(key):
        get_stream_writer()(Step(step, t(key, language)))


@dataclass
class AgentTurn:
    session_id: str
    kind: str  # question | solution | duplicate | draft_ready | filed | linked | resolved | aborted
    message: str
    choices: list[str] = field(default_factory=list)
    question_id: str | None = None
    draft: dict | None = None
    ticket: dict | None = None
    reason: str | None = None
    error: str | None = None
    actions: list[str] = field(default_factory=list)
    helpful: bool | None = None  # the person's "did this solve it?" on a finished session (from its row)

    @property
    def finished(self) -> bool:
        return self.kind in ("filed", "linked", "resolved", "aborted")

    @property
    def rateable(self) -> bool:
        """A finished session with something to rate: a fix, a linked or a filed ticket."""
        return self.kind in ("filed", "linked", "resolved")

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> AgentTurn:
        return cls(**{k: v for k, v in data.items() if k in cls.__dataclass_fields__})

    @classmethod
    def from_row(cls, row) -> AgentTurn:
        if row.outcome == "aborted" and row.turn.get("kind") != "aborted":
            return cls.aborted(str(row.id), row.abort_reason or "error", row.language)
        if not row.turn:  # still running its first step
            return cls(session_id=str(row.id), kind="working", message="")
        return cls.from_dict({**row.turn, "helpful": row.helpful})

    @classmethod
    def aborted(cls, session_id: str, reason: str, language: str) -> AgentTurn:
        return cls(
            session_id=session_id,
            kind="aborted",
            reason=reason,
            message=t(
                f"helpdesk.aborted_{reason}" if has(f"helpdesk.aborted_{reason}") else "helpdesk.aborted_error",
                language,
            ),
        )


def turn_from_result(session_id: str, result: dict, language: str) -> AgentTurn:
    actions = [s["action"] for s in result.get("trace", []) if s.get("node") == "supervisor" and s.get("action")]
    interrupts = result.get("__interrupt__")
    if interrupts:
        pending = interrupts[0].value
        kind = pending["kind"]
        message = pending.get("message") or ""
        if kind == "draft_ready":
            message = t("helpdesk.draft_intro", language)
        return AgentTurn(
            session_id=session_id,
            kind=kind,
            message=message,
            choices=list(pending.get("choices") or []),
            question_id=pending["question_id"],
            draft=pending.get("draft"),
            ticket=pending.get("ticket"),
            error=pending.get("error"),
            actions=actions,
            reason=result.get("cut_short"),
        )
    outcome = result.get("outcome")
    if outcome == "filed":
        ticket = result["ticket"]
        message = t("helpdesk.filed", language, number=ticket["number"], title=ticket["title"])
        return AgentTurn(session_id, "filed", message, ticket=ticket, draft=result.get("draft"), actions=actions)
    if outcome == "linked":
        ticket = result["linked_ticket"]
        message = t(
            "helpdesk.linked", language, number=ticket["number"], title=ticket["title"], count=ticket.get("affected", 1)
        )
        return AgentTurn(session_id, "linked", message, ticket=ticket, actions=actions)
    if outcome == "resolved_by_agent":
        message = t("helpdesk.resolved", language)
        return AgentTurn(session_id, "resolved", message, actions=actions)
    turn = AgentTurn.aborted(session_id, result.get("abort_reason") or "error", language)
    turn.actions = actions
    return turn
