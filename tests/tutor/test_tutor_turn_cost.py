"""What a warm tutor turn costs the chat server, in counts the machine's load doesn't move (README "Capacity"):
the graph's steps (each costs LangGraph ~800 Python calls), the statements the turn runs and the calls of our own
code it makes (both threads: the caller's and the graph's), what the chat reads for its conversations list after
it, what a chat process of its own keeps out of the garbage collector's full passes, and how often the chat's queue
looks for events while none waits."""

from __future__ import annotations

import asyncio
import gc
import socket
import sys
import threading
import weakref
from pathlib import Path

import psycopg
from psycopg._connection_base import BaseConnection  # its commands (BEGIN): no public hook

import chat
from agents.tutor import graph, service
from core.turns import Done
from tests.conftest import make_deps
from ui.chat_sign_in import conversation_choices

QUESTION = "What is the maximum hotel price per night?"
OURS = str(Path(__file__).resolve().parents[2]) + "/"  # the repository's own code: installed packages are elsewhere


class _CountedGraph:
    """The compiled graph, counting the steps its runs take."""

    def __init__(self, compiled) -> None:
        self.compiled, self.steps = compiled, []

    def stream(self, *args, **options):
        for step in self.compiled.stream(*args, **options):
            self.steps.extend(step)
            yield step


class _OwnCalls:
    """Calls of functions defined in the repository, in each thread it is set on."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, frame, event, arg) -> None:
        name = frame.f_code.co_filename
        if event == "call" and name.startswith(OURS) and "site-packages" not in name:  # not a venv in the clone
            self.count += 1


def test_a_warm_grounded_turn_walks_three_steps_runs_seventeen_statements_and_2600_calls_of_our_code(
    seeded_pool, james, monkeypatch
):
    deps = make_deps(seeded_pool)
    session = service.new_session(deps, james)
    list(service.run_turn(deps, james, QUESTION, session_id=session.id))  # the question's vectors, the caches
    counted = _CountedGraph(graph.tutor_graph())
    monkeypatch.setattr(graph, "tutor_graph", lambda: counted)
    statements, transactions = _statements_run(monkeypatch), _transactions_begun(monkeypatch)
    calls, final_state = _OwnCalls(), graph._final_state

    def profiled(*args):  # the graph's thread (graph._TURNS)
        sys.setprofile(calls)
        try:
            return final_state(*args)
        finally:
            sys.setprofile(None)

    monkeypatch.setattr(graph, "_final_state", profiled)
    sys.setprofile(calls)
    try:
        events = list(service.run_turn(deps, james, QUESTION, session_id=session.id))
    finally:
        sys.setprofile(None)
    monkeypatch.undo()
    done = events[-1]
    assert isinstance(done, Done) and done.retrieval_source == "semantic" and "180" in done.text, events[-1]
    # exercise material, the learner's record and the guided decision follow the retrieval in its step; the
    # citations and suggestions follow the answer in its step when it needs no reflection (six steps before)
    assert counted.steps == ["classify_intent", "retrieve_semantic", "generate_response"]
    # the organisation's name is read with the user (eighteen statements before)
    assert len(statements) <= 17, f"{len(statements)}: " + "\n".join(s[:60] for s in statements)
    # our own code's calls (2,423 in session 17; the statements and LangGraph's calls are not among them)
    assert calls.count <= 2600, calls.count
    # the request counted, the question stored, the two searches, the answer stored: the reads are statements of
    # their own, with no BEGIN and COMMIT round trips around them (ten transactions before)
    assert len(transactions) <= 4, transactions


def test_the_conversations_list_after_a_turn_reads_ids_and_titles_not_each_conversations_context(
    seeded_pool, james, monkeypatch
):
    deps = make_deps(seeded_pool)
    list(service.run_turn(deps, james, QUESTION, session_id=service.new_session(deps, james).id))
    statements = _statements_run(monkeypatch)
    choices = conversation_choices(james)
    monkeypatch.undo()
    assert choices == [(s.title or "…", str(s.id)) for s in service.list_sessions(deps, james)]
    assert choices[0][0] == QUESTION  # the newest first, titled by its first question
    (listing,) = [query for query in statements if "chat_sessions" in query]  # (and the chat's start, if first)
    assert "SELECT id, title FROM chat_sessions" in listing, listing  # each context is JSON to decode: not read


def _statements_run(monkeypatch) -> list[str]:
    """Every SQL statement run from now on, in order (psycopg's cursors record them)."""
    statements: list[str] = []
    execute = psycopg.Cursor.execute

    def counting(cursor, query, params=None, **options):
        statements.append(str(query))
        return execute(cursor, query, params, **options)

    monkeypatch.setattr(psycopg.Cursor, "execute", counting)
    return statements


def _transactions_begun(monkeypatch) -> list[bytes]:
    """Every BEGIN sent from now on (psycopg sends it, a round trip of its own, before a transaction's first
    statement)."""
    begun: list[bytes] = []
    exec_command = BaseConnection._exec_command

    def counting(conn, command, *args, **options):
        if isinstance(command, bytes) and command.upper().startswith(b"BEGIN"):
            begun.append(command)
        return exec_command(conn, command, *args, **options)

    monkeypatch.setattr(BaseConnection, "_exec_command", counting)
    return begun


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class _Cycle:
    """An object that refers to itself: only the garbage collector frees it."""

    def __init__(self) -> None:
        self.itself = self


def test_a_chat_process_of_its_own_frees_its_garbage_then_keeps_the_rest_out_of_full_collections(seeded_pool):
    gc.unfreeze()
    garbage = weakref.ref(_Cycle())  # unreachable at once, a cycle: garbage until a collection
    gc.disable()  # no automatic collection frees it on the way: only the launch's own
    try:
        app = chat.launch(port=_free_port(), block=False, own_process=True)  # as `python chat.py` starts it
        try:
            assert garbage() is None  # collected before the freeze, not kept for good
            assert gc.get_freeze_count() > 100_000  # the modules, the app's blocks and server, the models' wrappers
        finally:
            app.close(verbose=False)
    finally:
        gc.enable()
        gc.unfreeze()  # the rest of this test process collects as before


def test_the_apps_own_chat_freezes_nothing(seeded_pool):
    gc.unfreeze()
    app = chat.launch(port=_free_port(), block=False)  # as ui/chat_server.py starts it beside the Streamlit pages
    try:
        assert gc.get_freeze_count() == 0
    finally:
        app.close(verbose=False)


def test_the_chats_queue_looks_for_new_events_every_10_ms_not_every_1_ms(seeded_pool, monkeypatch):
    polls: dict[str, set[float]] = {}  # the delays Gradio's queue loops wait between passes, by loop
    seen = threading.Event()
    sleep = asyncio.sleep

    def recorded(delay, *args, **kwargs):
        polls.setdefault(sys._getframe(1).f_code.co_name, set()).add(delay)  # the coroutine that waits
        if {"start_processing", "start_progress_updates"} <= polls.keys():
            seen.set()
        return sleep(delay, *args, **kwargs)

    monkeypatch.setattr(asyncio, "sleep", recorded)
    app = chat.launch(port=_free_port(), block=False)  # idle: both loops wait between passes
    try:
        assert seen.wait(timeout=30), polls
    finally:
        app.close(verbose=False)
    # Gradio's own: 1 ms and 10 ms, ~33 ms of CPU a second on an idle server (README "Capacity")
    assert polls["start_processing"] == {chat.QUEUE_POLL_SECONDS} == {0.01}
    assert polls["start_progress_updates"] == {chat.PROGRESS_POLL_SECONDS} == {0.1}
