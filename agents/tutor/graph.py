"""The tutor graph (000 §1 with 003's reflection step):

classify_intent → retrieve_course_context | retrieve_semantic | retrieve_progress | skip_retrieval | retrieve_named,
  each followed in its step by adapt_to_learner (an open exercise's own source passages first, then the course
  they are taking: its tutor mode, their record in it; issue 29)
→ generate_response, followed in its step by post_process when the draft needs no reflection
  | [reflect → generate_response, at most twice] → post_process.

Work that always follows a node runs in that node's step: each step of the graph costs LangGraph ~800 Python
calls (reading and writing the state's channels, its task and callback bookkeeping), a third of a warm turn's
calls when each of the six ran as a step of its own (three now).
"""

from __future__ import annotations

import dataclasses
import functools
import queue
import threading
from collections.abc import Callable, Generator
from concurrent.futures import ThreadPoolExecutor
from typing import cast

from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime

from agents.tutor import chip_questions, classify, nodes, retrieve
from agents.tutor.exercise_material import add_exercise_material
from agents.tutor.state import TutorContext, TutorState
from core.turns import Grounding, TurnEvent

RETRIEVAL_NODES = ("retrieve_course_context", "retrieve_semantic", "retrieve_progress", "skip_retrieval")
ROUTES = (*RETRIEVAL_NODES, "retrieve_named")  # the last: the material one of our chips names (chip_questions.py)


def _then_adapted(retrieval: Callable[[TutorState, Runtime[TutorContext]], dict]):
    """The retrieval node, then in the same step an open exercise's own passages first (exercise_material.py)
    and the learner's course and record (nodes.adapt_to_learner)."""

    @functools.wraps(retrieval)
    def step(state: TutorState, runtime: Runtime[TutorContext]) -> dict:
        found = retrieval(state, runtime)
        material = found | add_exercise_material(cast(TutorState, {**state, **found}), runtime)
        adapted = material | nodes.adapt_to_learner(cast(TutorState, {**state, **material}), runtime)
        # announced once the turn knows it asks a guiding question first: no document answers that yet
        runtime.context.emit(Grounding(found["rung"], found["retrieval_source"], guided=adapted["guided_turn"]))
        return adapted

    return step


def answer(state: TutorState, runtime: Runtime[TutorContext]) -> dict:
    """The answer streamed, then its citations and suggestions, unless the draft goes to reflection first."""
    draft = nodes.generate_response(state, runtime)
    drafted = cast(TutorState, {**state, **draft})
    if nodes.route_after_generate(drafted) == "reflect":
        return draft
    return draft | nodes.post_process(drafted, runtime)


def route_after_answer(state: TutorState) -> str:
    return END if "response" in state else "reflect"


def build_graph(checkpointer=None):
    """The compiled graph (turns are independent: the chat tables hold the history, so no checkpointer by default)."""
    graph = StateGraph(TutorState, context_schema=TutorContext)
    graph.add_node("classify_intent", classify.classify_intent)
    for name in RETRIEVAL_NODES:
        graph.add_node(name, _then_adapted(getattr(retrieve, name)))
        graph.add_edge(name, "generate_response")
    graph.add_node("retrieve_named", _then_adapted(chip_questions.retrieve_named))
    graph.add_edge("retrieve_named", "generate_response")
    graph.add_node("generate_response", answer)
    graph.add_node("reflect", nodes.reflect)
    graph.add_node("post_process", nodes.post_process)
    graph.add_edge(START, "classify_intent")
    graph.add_conditional_edges("classify_intent", classify.route_after_classify, list(ROUTES))
    graph.add_conditional_edges("generate_response", route_after_answer, ["reflect", END])
    graph.add_conditional_edges("reflect", nodes.route_after_reflect, ["generate_response", "post_process"])
    graph.add_edge("post_process", END)
    return graph.compile(checkpointer=checkpointer)


@functools.cache
def tutor_graph():
    """The compiled graph, shared by every turn."""
    return build_graph()


def _final_state(state: dict, ctx: TutorContext) -> dict:
    """The graph's final state: the input with each step's update over it (every key of TutorState keeps its
    last value). Streamed as updates, LangGraph reads one node's keys a step instead of all of the state's."""
    final = dict(state)
    for step in tutor_graph().stream(state, context=ctx, stream_mode="updates"):
        for update in step.values():
            final.update(update or {})
    return final


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
    run = _TURNS.submit(_final_state, state, ctx)
    run.add_done_callback(lambda _: events.put(None))
    try:
        while (event := events.get()) is not None:
            if notice and isinstance(event, Grounding):  # shown above the answer, before any token
                event = dataclasses.replace(event, notice=notice)
            yield event
    finally:
        abandoned.set()
    return run.result()
