"""python -m agents.admin ask (its main, in-process): the JSON shape, --confirm resuming on the
PostgresSaver, one-line refusals."""

from __future__ import annotations

import json

from agents.admin.__main__ import main
from tests.admin.conftest import is_active


def cli(capsys, *argv) -> tuple[int, dict | str, str]:
    code = main(["ask", *argv])
    out, err = capsys.readouterr()
    return code, (json.loads(out) if "--json" in argv and code == 0 else out), err


def test_preview_confirm_and_repeat_confirm(capsys, seeded_pool):
    code, reply, _ = cli(capsys, "desactiva a Sofía", "--user", "admin@acme.test", "--json")
    assert code == 0 and set(reply) == {
        "session",
        "response",
        "tool_calls",
        "pending",
        "executed",
        "engine",
        "fallback",
        "tokens_used",
    }
    assert set(reply["pending"]) == {"id", "tool", "arguments", "preview"}
    assert reply["tool_calls"][0]["tool"] == "deactivate_employee" and set(reply["tool_calls"][0]) == {
        "tool",
        "arguments",
        "rows",
    }
    assert is_active(seeded_pool, "sofia@acme.test")

    code, done, _ = cli(capsys, "--user", "admin@acme.test", "--confirm", reply["pending"]["id"], "--json")
    assert done["session"] == reply["session"]  # the action's own session, found from its id
    assert code == 0 and [e["id"] for e in done["executed"]] == [reply["pending"]["id"]] and done["pending"] is None
    assert not is_active(seeded_pool, "sofia@acme.test")
    args = ["--user", "admin@acme.test", "--session", reply["session"], "--confirm", reply["pending"]["id"], "--json"]
    code, again, _ = cli(capsys, *args)
    assert code == 0 and again["executed"] == []


def test_a_typed_si_under_a_pending_write_runs_it_once(capsys, seeded_pool):
    code, reply, _ = cli(capsys, "desactiva a Chloe", "--user", "admin@acme.test", "--json")
    assert code == 0 and reply["pending"] and is_active(seeded_pool, "chloe@acme.test")
    args = ["--session", reply["session"], "--user", "admin@acme.test", "--json"]
    code, done, _ = cli(capsys, "sí", *args)
    assert code == 0 and [e["id"] for e in done["executed"]] == [reply["pending"]["id"]] and done["pending"] is None
    assert not is_active(seeded_pool, "chloe@acme.test")
    code, again, _ = cli(capsys, "sí", *args)
    assert code == 0 and again["executed"] == [] and again["pending"] is None


def test_refusals_are_one_line_and_change_nothing(capsys):
    code, _, err = cli(capsys, "lista de empleados", "--user", "lucia@acme.test")
    assert code == 2 and err.count("\n") == 1 and "admin" in err
    code, _, err = cli(capsys, "alertas", "--user", "admin@acme.test", "--session", "nope")
    assert code == 2 and err.count("\n") == 1 and "sesión" in err.lower()  # the demo admin reads Spanish
    code, _, err = cli(capsys, "alertas", "--user", "nobody@acme.test")
    assert code == 2
