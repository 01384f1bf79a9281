"""Tutor test helpers: the demo learners and a way to run one turn and look at its events."""

from __future__ import annotations

from typing import TypeVar

import pytest

from agents.retrieval import Passage
from agents.tutor import service
from core.turns import Token, TurnEvent
from storage import users
from tests.conftest import make_deps

E = TypeVar("E")


def run(user, message, pool, **options) -> tuple[list[TurnEvent], str]:
    """(events, streamed text) of one turn in a conversation (``session_id``), else of the answer to a question
    asked in a new one (a guided course's question first is answered "just tell me": ``service.run_to_answer``);
    ``llm=`` a model of the test's own, else the process's."""
    deps = make_deps(pool, llm=options.pop("llm", None))
    turn = service.run_turn if "session_id" in options else service.run_to_answer
    events = list(turn(deps, user, message, **options))
    return events, "".join(e.text for e in events if isinstance(e, Token))


def passage(index: int, text: str, **fields) -> Passage:
    """A retrieved passage for a unit test: a chunk with no document or section unless given."""
    found = {"document": "", "section": "", "page": None, "source_type": "document_chunk", "source_id": ""}
    return Passage(index=index, text=text, **{**found, **fields})


def by_name(events: list[TurnEvent], kind: type[E]) -> E:
    """The turn's first event of that kind."""
    return next(e for e in events if isinstance(e, kind))


@pytest.fixture(scope="module")
def lucia(seeded_pool):
    with seeded_pool.connection() as conn:
        return users.get_user_by_email(conn, "lucia@acme.test")


@pytest.fixture(scope="module")
def james(seeded_pool):
    with seeded_pool.connection() as conn:
        return users.get_user_by_email(conn, "james@acme.test")
