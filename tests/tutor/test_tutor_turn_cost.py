"""What a warm tutor turn costs the chat server, in counts the machine's load doesn't move (README "Capacity"):
the graph's steps (each costs LangGraph ~800 Python calls) and the statements the turn runs."""

from __future__ import annotations

import psycopg

from agents.tutor import graph, service
from core.turns import Done
from tests.conftest import make_deps

QUESTION = "What is the maximum hotel price per night?"


class _CountedGraph:
    """The compiled graph, counting the steps its runs take."""

    def __init__(self, compiled) -> None:
        self.compiled, self.steps = compiled, []

    def stream(self, *args, **options):
        for step in self.compiled.stream(*args, **options):
            self.steps.extend(step)
            yield step


def test_a_warm_grounded_turn_walks_three_steps_and_runs_seventeen_statements(seeded_pool, james, monkeypatch):
    deps = make_deps(seeded_pool)
    session = service.new_session(deps, james)
    list(service.run_turn(deps, james, QUESTION, session_id=session.id))  # the question's vectors, the caches
    counted = _CountedGraph(graph.tutor_graph())
    monkeypatch.setattr(graph, "tutor_graph", lambda: counted)
    statements: list[str] = []
    execute = psycopg.Cursor.execute

    def counting(cursor, query, params=None, **options):
        statements.append(str(query))
        return execute(cursor, query, params, **options)

    monkeypatch.setattr(psycopg.Cursor, "execute", counting)
    events = list(service.run_turn(deps, james, QUESTION, session_id=session.id))
    monkeypatch.undo()
    done = events[-1]
    assert isinstance(done, Done) and done.retrieval_source == "semantic" and "180" in done.text, events[-1]
    # exercise material, the learner's record and the guided decision follow the retrieval in its step; the
    # citations and suggestions follow the answer in its step when it needs no reflection (six steps before)
    assert counted.steps == ["classify_intent", "retrieve_semantic", "generate_response"]
    # the organisation's name is read with the user (eighteen statements before)
    assert len(statements) <= 17, f"{len(statements)}: " + "\n".join(s[:60] for s in statements)
