"""The tutor graph (000 §1 with 003's reflection step):

classify_intent → retrieve_course_context | retrieve_semantic | retrieve_progress | skip_retrieval
→ exercise_material (an open exercise's own source passages first)
→ adapt_to_learner (the course they are taking: its tutor mode, their record in it; issue 29)
→ generate_response → [reflect → generate_response, at most twice] → post_process.
"""

from __future__ import annotations

import dataclasses
import functools
import queue
import threading
from collections.abc import Generator
from concurrent.futures import ThreadPoolExecutor

from langgraph.graph import END, START, StateGraph

from agents.tutor import chip_questions, classify, nodes, retrieve
from agents.tutor.exercise_material import add_exercise_material
from agents.tutor.state import TutorContext, TutorState
from core.turns import Grounding, TurnEvent

RETRIEVAL_NODES = ("retrieve_course_context", "retrieve_semantic", "retrieve_progress", "skip_retrieval")
ROUTES = (*RETRIEVAL_NODES, "retrieve_named")  # the last: the material one of our chips names (chip_questions.py)


def build_graph(checkpointer=None):
    """The compiled graph (turns are independent: the chat tables hold the history, so no checkpointer by default)."""
    graph = StateGraph(TutorState, context_schema=TutorContext)
    graph.add_node("classify_intent", classify.classify_intent)
    for name in RETRIEVAL_NODES:
        graph.add_node(name, getattr(retrieve, name))
        graph.add_edge(name, "exercise_material")
    graph.add_node("retrieve_named", chip_questions.retrieve_named)
    graph.add_edge("retrieve_named", "exercise_material")
    graph.add_node("exercise_material", add_exercise_material)
    graph.add_edge("exercise_material", "adapt_to_learner")
    graph.add_node("adapt_to_learner", nodes.adapt_to_learner)
    graph.add_edge("adapt_to_learner", "generate_response")
    graph.add_node("generate_response", nodes.generate_response)
    graph.add_node("reflect", nodes.reflect)
    graph.add_node("post_process", nodes.post_process)
    graph.add_edge(START, "classify_intent")
    graph.add_conditional_edges("classify_intent", classify.route_after_classify, list(ROUTES))
    graph.add_conditional_edges("generate_response", nodes.route_after_generate, ["reflect", "post_process"])
    graph.add_conditional_edges("reflect", nodes.route_after_reflect, ["generate_response", "post_process"])
    graph.add_edge("post_process", END)
    return graph.compile(checkpointer=checkpointer)


@functools.cache
def tutor_graph():
    """The compiled graph, shared by every turn."""
    return build_graph()


class _Abandoned(Exception):
    """The caller stopped reading the turn's events (a closed chat): the graph stops at its next event."""


# One thread runs a turn's whole graph, its nodes inline, while the caller's generator yields what they emit.
# LangGraph's own streaming of custom events runs every node on a pool thread it creates for each run, with a
# waiter task beside it (thread hand-offs, two new threads and their pool a turn). Turns wait on models for
# seconds, so the pool is wide: it only bounds a runaway, Gradio's queue (32) bounds the chat's turns.
_TURNS = ThreadPoolExecutor(max_workers=128, thread_name_prefix="tutor-turn")


def graph_events(state: dict, ctx: TutorContext, notice: str) -> Generator[TurnEvent, None, dict]:
    """Run the graph for one turn: its events as its nodes emit them (``notice`` added to the Grounding);
    returns its final state."""
    events: queue.SimpleQueue = queue.SimpleQueue()
    abandoned = threading.Event()

    def emit(event: TurnEvent) -> None:
        if abandoned.is_set():
            raise _Abandoned
        events.put(event)

    ctx.emit = emit
    run = _TURNS.submit(tutor_graph().invoke, state, context=ctx)
    run.add_done_callback(lambda _: events.put(None))
    try:
        while (event := events.get()) is not None:
            if notice and isinstance(event, Grounding):  # shown above the answer, before any token
                event = dataclasses.replace(event, notice=notice)
            yield event
    finally:
        abandoned.set()
    return run.result()
