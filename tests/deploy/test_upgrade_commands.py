"""An upgrade's first step, `python -m storage migrate`: pending migrations applied once (a second run finds
nothing to do), and a database it can't reach is one line and exit 2."""

from __future__ import annotations

import json
from pathlib import Path

from storage import db
from storage.__main__ import main
from tests.conftest import clone_database

MIGRATIONS = sorted(path.name for path in (Path(db.__file__).parent / "migrations").glob("*.sql"))


def test_migrate_applies_what_is_pending_once(pg_server_url, monkeypatch, capsys):
    monkeypatch.setenv("DATABASE_URL", clone_database(pg_server_url, "template0"))  # an empty database
    assert main(["migrate"]) == 0
    applied = json.loads(capsys.readouterr().out)["applied"]
    assert applied[: len(MIGRATIONS)] == MIGRATIONS and applied[-1].startswith("procrastinate")
    assert main(["migrate"]) == 0
    assert json.loads(capsys.readouterr().out) == {"applied": []}


def test_an_unreachable_database_is_one_line_and_exit_2(monkeypatch, capsys):
    monkeypatch.setenv("DATABASE_URL", "postgresql://nobody@127.0.0.1:1/nothing")
    assert main(["migrate"]) == 2
    error = capsys.readouterr().err
    assert error.startswith("error: cannot connect to the database") and error.count("\n") == 1
