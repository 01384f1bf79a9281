"""The events an agent's turn streams while it runs, the same for every agent and every screen.

A turn is a generator: it yields these events as they happen and returns its result (the admin's reply,
the helpdesk's next turn). ``finish`` plays one to its end for callers that want only the result.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass
from typing import TypeVar

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


TurnEvent = Step | Token | Replace
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
