"""One line, nothing written: random strings with NUL bytes or undecodable bytes (as a shell hands
them over: lone surrogates), and ids that name nothing, thrown at every CLI and service entry point.
Each is refused with exit code 2 (or an error), one line, and unchanged row counts."""

from __future__ import annotations

import uuid

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agents.admin import service as admin_service
from agents.helpdesk import service as helpdesk_service
from agents.tutor import service as tutor_service
from core.turns import Error
from tests.conftest import make_deps as make_app_deps
from tests.helpdesk.conftest import make_deps
from tests.untrusted.conftest import row_counts

CLIS = {
    "admin": ("agents.admin.__main__", lambda x: ["ask", x, "--user", "admin@acme.test"]),
    "tutor": ("agents.tutor.__main__", lambda x: ["ask", x, "--user", "lucia@acme.test"]),
    "helpdesk": ("agents.helpdesk.__main__", lambda x: ["ask", x, "--user", "lucia@acme.test"]),
    "retrieval": ("agents.retrieval.__main__", lambda x: ["search", x, "--org", "acme"]),
    "content": ("agents.content.__main__", lambda x: ["status", x, "--org", "acme"]),
    "learning": ("agents.learning.__main__", lambda x: ["courses", "--user", x]),
    "storage": ("storage.__main__", lambda x: ["ingest", x, "--org", "acme"]),
}
_text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=40)
# What argv holds when the shell passed bytes that are not UTF-8: lone surrogates (surrogateescape).
BAD = st.one_of(
    st.tuples(_text, _text).map(lambda p: f"{p[0]}\x00{p[1]}"),
    st.tuples(_text, st.integers(0x80, 0xFF), _text).map(lambda p: f"{p[0]}{chr(0xDC00 + p[1])}{p[2]}"),
)


def _one_line_refusal(capsys, module: str, argv: list[str]) -> str:
    import importlib

    code = importlib.import_module(module).main(argv)
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and err.count("\n") == 1 and err.startswith("error: "), (argv, code, out, err)
    return err


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(cli=st.sampled_from(sorted(CLIS)), bad=BAD)
def test_bad_bytes_on_any_cli_are_one_line_and_change_nothing(seeded_pool, capsys, cli, bad):
    module, arguments = CLIS[cli]
    before = row_counts(seeded_pool)
    err = _one_line_refusal(capsys, module, arguments(bad))
    assert "NUL" in err or "UTF-8" in err
    assert row_counts(seeded_pool) == before


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(bad=BAD)
def test_bad_bytes_at_every_service_are_one_line_and_change_nothing(seeded_pool, people, bad):
    from storage.db import checkpointer

    before = row_counts(seeded_pool)
    events = list(tutor_service.run_turn(make_app_deps(seeded_pool), people["lucia"], "Hola " + bad))
    assert [type(e) for e in events] == [Error] and "\n" not in events[0].message
    with pytest.raises(admin_service.AdminInputError) as admin_refusal:
        admin_service.ask(make_app_deps(seeded_pool), people["admin"], "alertas " + bad)
    with pytest.raises(helpdesk_service.HelpdeskError) as helpdesk_refusal:
        helpdesk_service.start(make_deps(seeded_pool, checkpointer()), people["james"], "The printer is broken " + bad)
    assert "\n" not in str(admin_refusal.value) + str(helpdesk_refusal.value)
    assert row_counts(seeded_pool) == before


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    junk=st.one_of(
        st.text(st.characters(codec="utf-8", blacklist_characters="\x00"), min_size=1, max_size=30).filter(
            lambda s: s.strip() and not s.startswith("-")
        ),
        st.uuids().map(str),
    )
)
def test_ids_that_name_nothing_write_nothing(seeded_pool, capsys, junk):
    before = row_counts(seeded_pool)
    _one_line_refusal(capsys, "agents.admin.__main__", ["ask", "--user", "admin@acme.test", "--confirm", junk])
    _one_line_refusal(capsys, "agents.content.__main__", ["status", junk, "--org", "acme"])
    assert row_counts(seeded_pool) == before


def test_the_two_reported_commands(seeded_pool, capsys):
    before = row_counts(seeded_pool)
    err = _one_line_refusal(
        capsys, "agents.admin.__main__", ["ask", "--confirm", "not-a-uuid", "--user", "admin@acme.test"]
    )
    assert "not-a-uuid" in err
    err = _one_line_refusal(capsys, "agents.content.__main__", ["status", str(uuid.uuid4()), "--org", "acme"])
    assert "not found" in err
    assert row_counts(seeded_pool) == before
