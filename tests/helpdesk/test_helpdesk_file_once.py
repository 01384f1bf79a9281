"""File exactly once: the local row is written before the GitHub POST; a process killed between the two
(or while GitHub answers) and a re-confirm leave exactly one GitHub issue and one ticket row."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from agents.helpdesk import service
from storage import tickets
from tests.helpdesk.conftest import make_deps
from tests.helpdesk.fake_github import FakeGitHub

ROOT = Path(__file__).resolve().parents[2]
CONFIRM_IN_A_CHILD = """
import sys
from agents.runtime.deps import process_deps
from agents.helpdesk import service
from storage import users
deps = process_deps()
with deps.pool.connection() as conn:
    user = users.get_user_by_email(conn, "ana@hd.test")
service.confirm(deps, user, sys.argv[1], question_id=sys.argv[2])
"""


@pytest.fixture
def github(monkeypatch):
    fake = FakeGitHub()
    for name, value in {"GITHUB_TOKEN": "test-token", "GITHUB_REPO": "o/r", "GITHUB_API_URL": fake.url}.items():
        monkeypatch.setenv(name, value)
    yield fake
    fake.close()


def _draft(user, text: str, deps):
    turn = service.start(deps, user, text)
    while turn.kind == "question":
        turn = service.resume(deps, user, turn.session_id, question_id=turn.question_id, text=turn.choices[0])
    assert turn.kind == "draft_ready", turn
    return turn


def _rows_for(pool, org_id, session_id) -> list:
    with pool.connection() as conn:
        return [t for t in tickets.list_tickets(conn, org_id, limit=1000) if str(t.session_id) == session_id]


@pytest.mark.parametrize("moment", ["before_create", "after_create"])
def test_killed_between_the_local_row_and_github_then_reconfirmed_files_once(org, pool, checkpointer, github, moment):
    deps = make_deps(pool, checkpointer)
    turn = _draft(org.ana, f"La tableta de la sala {moment} no carga la batería, solo a mí, desde hoy", deps)
    github.hang_on_post = moment
    child = subprocess.Popen(
        [sys.executable, "-c", CONFIRM_IN_A_CHILD, turn.session_id, turn.question_id],
        cwd=ROOT,
        env=dict(os.environ),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        assert github.post_arrived.wait(240), child.stderr.read().decode()[-2000:] if child.poll() else "no POST"
        pending = _rows_for(pool, org.org.id, turn.session_id)
        assert [r.filing_state for r in pending] == ["pending"]  # written before the POST
        os.kill(child.pid, signal.SIGKILL)
        child.wait(30)
    finally:
        if child.poll() is None:
            child.kill()
    assert len(github.issues) == (1 if moment == "after_create" else 0)

    deadline = time.monotonic() + 30
    filed = service.confirm(deps, org.ana, turn.session_id, question_id=turn.question_id)
    assert time.monotonic() < deadline and filed.kind == "filed", filed
    again = service.confirm(deps, org.ana, turn.session_id, question_id=turn.question_id)
    assert again.kind == "filed" and again.ticket["number"] == filed.ticket["number"]

    assert len(github.issues) == 1
    assert github.posts == (1 if moment == "after_create" else 2)  # adopted by its footer hash, or POSTed once
    rows = _rows_for(pool, org.org.id, turn.session_id)
    assert len(rows) == 1 and rows[0].filing_state == "complete"
    assert rows[0].external_url == github.issues[0]["html_url"]
    assert f"skillnet_ref: {rows[0].footer_hash}" in github.issues[0]["body"]


def test_a_plain_confirm_files_one_issue_and_completes_the_row(org, pool, checkpointer, github):
    deps = make_deps(pool, checkpointer)
    turn = _draft(org.ana, "El lector de tarjetas de la puerta norte no abre, solo a mí, desde hoy", deps)
    filed = service.confirm(deps, org.ana, turn.session_id, question_id=turn.question_id)
    assert filed.kind == "filed" and github.posts == 1
    rows = _rows_for(pool, org.org.id, turn.session_id)
    assert len(rows) == 1 and rows[0].filing_state == "complete" and rows[0].source == "github"
