"""Bounded work per input: a megabyte of hostile text is refused (or handled) within 2 s.

The old email pattern was quadratic (redact('a' * 40000) took 6.8 s); every pattern in
agents/helpdesk/guards.py is now linear, and each service caps length before anything reads it.
"""

from __future__ import annotations

import time

import pytest

from agents.admin import service as admin_service
from agents.helpdesk import service as helpdesk_service
from agents.helpdesk.guards import neutralise, redact, sanitise_body, wrap_tool_output
from agents.tutor import service as tutor_service
from core.turns import Error
from tests.conftest import make_deps as make_app_deps
from tests.helpdesk.conftest import make_deps
from tests.untrusted.conftest import row_counts, within

MB = 1_000_000
# The shapes that made the old patterns backtrack: long runs of one class, separators they accept,
# prefixes that start a match again and again.
HOSTILE = {
    "letters": "a" * MB,
    "email-like": ("a.a" * MB)[:MB],
    "at-signs": ("a@" * MB)[:MB],
    "jwt-prefixes": ("eyJ-" * MB)[:MB],
    "digits": ("1 " * MB)[:MB],
    "brackets": "<" * MB,
    "markers": ("<conversation" * MB)[:MB],
}


def _seconds(function, text: str) -> float:
    started = time.perf_counter()
    function(text)
    return time.perf_counter() - started


GUARDS = {
    "redact": redact,
    "neutralise": neutralise,
    "sanitise_body": lambda text: sanitise_body(text, agent_session_id="s", chat_session_id="c", limit=8000),
    "wrap_tool_output": lambda text: wrap_tool_output("kb", text, 4000),
}


@pytest.mark.parametrize("shape", sorted(HOSTILE))
def test_guards_are_linear_on_a_megabyte(shape):
    """25x the input costs ~25x the time (bound: 150x, for a loaded machine; quadratic is 625x), measured in the
    same run, so the bound follows the machine's load; and a megabyte stays within seconds, not hours."""
    text = HOSTILE[shape]
    for name, guard in GUARDS.items():
        small = min(_seconds(guard, text[:40_000]) for _ in range(2))
        large = min(_seconds(guard, text) for _ in range(2))  # one pause of a loaded machine is not the guard's
        assert large < 150 * small + 1.0 and large < 15, f"{name}: 40 kB {small:.3f} s, 1 MB {large:.3f} s"


def test_redaction_still_finds_what_it_should():
    text = "mail ana.perez+hr@acme.example.com, key sk-abcdefghijklmnop1234, card 4111 1111 1111 1111"
    assert redact(text) == "mail [email], key [secret], card [card]"


def test_helpdesk_refuses_a_megabyte_question_within_2s(seeded_pool, people):
    from storage.db import checkpointer

    deps = make_deps(seeded_pool, checkpointer())
    before = row_counts(seeded_pool)
    with within(2.0), pytest.raises(helpdesk_service.HelpdeskError) as caught:
        helpdesk_service.start(deps, people["lucia"], "a" * MB)
    assert caught.value.code == "too_long" and "\n" not in str(caught.value)
    assert "demasiado largo" in str(caught.value)  # Lucía reads Spanish
    assert row_counts(seeded_pool) == before


def test_tutor_refuses_a_megabyte_message_within_2s(seeded_pool, people):
    before = row_counts(seeded_pool)
    with within(2.0):
        events = list(tutor_service.run_turn(make_app_deps(seeded_pool), people["james"], "a" * MB))
    assert [type(e) for e in events] == [Error]
    assert events[0].code == "TOO_LONG" and "too long" in events[0].message
    assert row_counts(seeded_pool) == before


def test_admin_refuses_a_megabyte_message_within_2s(seeded_pool, people):
    before = row_counts(seeded_pool)
    with within(2.0), pytest.raises(admin_service.AdminInputError) as caught:
        admin_service.ask(make_app_deps(seeded_pool), people["admin"], "a" * MB)
    assert "\n" not in str(caught.value) and "20000" not in str(caught.value)
    assert row_counts(seeded_pool) == before
