"""The admin assistant's graph. ``build_graph(checkpointer)`` compiles it; the product passes
``storage.db.checkpointer()`` (PostgresSaver), tests may pass an InMemorySaver. The thread id is the
chat session id, so a pending confirmation survives restarts."""

from __future__ import annotations

from typing import Literal

from langgraph.graph import END, START, StateGraph

from agents.admin import nodes
from agents.admin.state import AdminContext, AdminState


def route_after_synthesize(state: AdminState) -> Literal["await_confirmation", "__end__"]:
    """A previewed write waits for the admin; anything else ends the turn."""
    return "await_confirmation" if state.get("pending") else "__end__"  # END is "__end__", typed str


def route_after_await(state: AdminState) -> Literal["execute_write", "execute_tools", "synthesize"]:
    """Confirmed → write; amended → prepare the amended calls (a new preview); cancelled → say so."""
    if state.get("confirmed_id"):
        return "execute_write"
    return "execute_tools" if state.get("amended") else "synthesize"


def build_graph(checkpointer):
    graph = StateGraph(AdminState, context_schema=AdminContext)
    graph.add_node("plan", nodes.plan)
    graph.add_node("execute_tools", nodes.execute_tools)
    graph.add_node("synthesize", nodes.synthesize)
    graph.add_node("await_confirmation", nodes.await_confirmation)
    graph.add_node("execute_write", nodes.execute_write)
    graph.add_edge(START, "plan")
    graph.add_edge("plan", "execute_tools")
    graph.add_edge("execute_tools", "synthesize")
    graph.add_conditional_edges("synthesize", route_after_synthesize, ["await_confirmation", END])
    graph.add_conditional_edges(
        "await_confirmation", route_after_await, ["execute_write", "execute_tools", "synthesize"]
    )
    graph.add_edge("execute_write", "synthesize")
    return graph.compile(checkpointer=checkpointer)
