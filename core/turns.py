"""The events an agent's turn streams while it runs, the same for every agent and every screen.

A turn is a generator: it yields these events as they happen and returns its result (the admin's reply,
the helpdesk's next turn). ``finish`` plays one to its end for callers that want only the result.
The tutor's answer streams as Grounding · Token* · Citations · Suggestions · Done, or one Error instead of
Done (a Fallback clears its Tokens when the model's reply is refused); ``as_json`` is how the CLIs print them.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import MISSING, dataclass, fields
from typing import Any, TypeVar

R = TypeVar("R")


@dataclass(frozen=True)
class Step:
    """A step started: ``name`` is its code (a tool, a specialist), ``label`` what a person reads."""

    name: str
    label: str


@dataclass(frozen=True)
class Token:
    """The next piece of the reply, as it is written."""

    text: str


@dataclass(frozen=True)
class Replace:
    """Everything shown of the reply so far is replaced by ``text`` (a model reply the agent refused)."""

    text: str


@dataclass(frozen=True)
class Grounding:
    """What the answer stands on: ``rung`` chunks|document|general, ``source`` the search that found it (pageindex,
    semantic, document, db, none…); ``notice`` is shown above the answer before it (the message was cut);
    ``guided`` "ask": the turn is a guiding question (agents/tutor/guided.py), which no document answers yet."""

    rung: str
    source: str
    notice: str | None = None
    guided: str | None = None


@dataclass(frozen=True)
class Fallback:
    """The model's reply was refused for ``reason`` (a code): what was shown of it goes, ``message`` (one line a
    person reads) stands until the deterministic twin's reply streams in its place."""

    reason: str
    message: str


@dataclass(frozen=True)
class Citations:
    """The passages the answer cites, in the order of its [n] markers: each citation's wire form (index,
    document, section, page, source type and id, excerpt, quote…), all a client needs to show its sources."""

    citations: list[dict]


@dataclass(frozen=True)
class Suggestions:
    """Follow-up questions to offer, and next steps beside the answer ({kind, label, id…})."""

    suggestions: list[str]
    actions: list[dict]


@dataclass(frozen=True)
class Done:
    """The answer as stored (``text`` may differ from the streamed tokens: markers removed, a reply replaced),
    with how it was made; the fields after ``low_confidence`` are set only when they say something."""

    message_id: str
    text: str
    language: str
    tokens_used: int
    retrieval_source: str | None
    retrieval_latency_ms: int
    generation_latency_ms: int
    ttft_ms: int | None
    engine: str | None
    low_confidence: bool
    fallback: str | None = None
    low_confidence_reason: str | None = None
    hint_level: int | None = None
    notice: str | None = None
    guided: str | None = None  # "ask": the guiding question alone, which no document answers yet


@dataclass(frozen=True)
class Error:
    """The turn was refused or failed: ``message`` one line in the person's language, ``code`` what it was;
    ``retry_after`` (seconds, a rate limit) and ``ref`` (what was not found) when they apply."""

    message: str
    code: str
    retry_after: int | None = None
    ref: str | None = None


TurnEvent = Step | Token | Replace | Grounding | Fallback | Citations | Suggestions | Done | Error
Turn = Generator[TurnEvent, None, R]


def finish(turn: Turn[R], on_event: Callable[[TurnEvent], object] | None = None) -> R:
    """Run ``turn`` to its end, handing each event to ``on_event``; its result."""
    while True:
        try:
            event = next(turn)
        except StopIteration as end:
            return end.value
        if on_event is not None:
            on_event(event)


def as_json(event: TurnEvent) -> dict[str, Any]:
    """``{"event": name, "data": fields}`` as the CLIs print an event: the class name in lower case; a field with a
    default is left out while it is None, and a token's text is its ``content``."""
    if isinstance(event, Token):
        return {"event": "token", "data": {"content": event.text}}
    data = {
        field.name: value
        for field in fields(event)
        if (value := getattr(event, field.name)) is not None or field.default is MISSING
    }
    return {"event": type(event).__name__.lower(), "data": data}
