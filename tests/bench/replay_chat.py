"""`python chat.py` whose every turn replays one recorded turn's events: Gradio's own cost, the floor that
tests/bench/load.py sets beside the real chat (as tests/bench/tutor.py's replay does in-process)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import chat
from agents.runtime.deps import process_deps
from agents.tutor import service
from storage import users

QUESTION = "How many days does a customer have to return a product?"


def main() -> None:
    with process_deps().pool.connection() as conn:
        someone = users.get_user_by_email(conn, "james@acme.test")
    recorded = list(service.run_turn(process_deps(), someone, QUESTION, rate_limit=10**6))
    service.run_turn = lambda *args, **kwargs: iter(recorded)
    chat.main()


if __name__ == "__main__":
    main()
