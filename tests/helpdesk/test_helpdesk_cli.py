"""python -m agents.helpdesk admin list|show|abort|gc|sweep against the test database."""

from __future__ import annotations

import json

from agents.helpdesk import service
from agents.helpdesk.__main__ import main
from agents.helpdesk.guards import sha
from agents.runtime.deps import process_deps


def _json(capsys) -> object:
    return json.loads(capsys.readouterr().out)


def test_admin_list_show_abort_gc(org, capsys):
    turn = service.start(process_deps(), org.bob, "Zebra printer label is blank, only me, since today")
    assert main(["admin", "list", "--org", "helpdesk-test", "--user", "bob@hd.test", "--json"]) == 0
    rows = _json(capsys)
    assert rows[0]["session_id"] == turn.session_id and rows[0]["user_id_hash"] == sha(org.bob.id)
    assert main(["admin", "list", "--org", "helpdesk-test", "--user-id-hash", sha(org.bob.id)[:8], "--json"]) == 0
    assert turn.session_id in {r["session_id"] for r in _json(capsys)}

    assert main(["admin", "show", "--org", "helpdesk-test", "--session-id", turn.session_id, "--json"]) == 0
    shown = _json(capsys)
    assert shown["state"]["state_version"] == 1 and shown["status"] in ("awaiting_user", "awaiting_confirm")
    assert "tool_cache" not in shown["state"] and "Zebra" not in json.dumps(shown["trace"])

    assert main(["admin", "abort", "--org", "helpdesk-test", "--session-id", turn.session_id, "--json"]) == 0
    assert _json(capsys) == {"aborted": True}
    assert service.get_turn(process_deps(), org.bob, turn.session_id).reason == "admin"
    assert main(["admin", "abort", "--org", "helpdesk-test", "--session-id", turn.session_id]) == 1
    assert capsys.readouterr().out.strip() == "nothing to abort"

    assert main(["admin", "gc", "--json"]) == 0 and set(_json(capsys)) == {"checkpoints_deleted", "sessions_aborted"}
    assert main(["admin", "sweep", "--json"]) == 0 and "aborted" in _json(capsys)


def test_admin_bad_input_is_one_line(org, capsys):
    assert main(["admin", "list", "--org", "no-such-org"]) == 2
    assert capsys.readouterr().err.strip() == "error: no organisation with slug no-such-org"
    assert main(["admin", "show", "--org", "helpdesk-test"]) == 2
    assert main(["admin", "show", "--org", "helpdesk-test", "--session-id", "nope"]) == 2  # bad input: the CLI contract
