"""The admin assistant's graph. ``build_graph(checkpointer)`` compiles it; the product passes
``storage.db.checkpointer()`` (PostgresSaver), tests may pass an InMemorySaver. The thread id is the
chat session id, so a pending confirmation survives restarts.

A turn's one input is the admin's ``Answer``: the graph's input when nothing waits, the resume of
``await_confirmation`` when a preview does; the graph decides what it does (``agents.admin.confirmation``)."""

from __future__ import annotations

from typing import Literal

from langgraph.graph import END, START, StateGraph

from agents.admin import confirmation, nodes
from agents.admin.state import AdminContext, AdminState


def route_after_synthesize(state: AdminState) -> Literal["await_confirmation", "__end__"]:
    """A previewed write waits for the admin; anything else ends the turn."""
    return "await_confirmation" if state.get("pending") else "__end__"  # END is "__end__", typed str


def build_graph(checkpointer):
    graph = StateGraph(AdminState, context_schema=AdminContext)
    graph.add_node("recall", nodes.recall)
    graph.add_node("plan", nodes.plan)
    graph.add_node("execute_tools", nodes.execute_tools)
    graph.add_node("synthesize", nodes.synthesize)
    graph.add_node("await_confirmation", confirmation.await_confirmation)
    graph.add_node("execute_write", confirmation.execute_write)
    graph.add_node("explain", confirmation.explain)
    graph.add_conditional_edges(START, confirmation.route_at_start, ["recall", "explain"])
    graph.add_edge("recall", "plan")
    graph.add_conditional_edges("plan", confirmation.route_after_plan, ["execute_tools", "explain"])
    graph.add_edge("execute_tools", "synthesize")
    graph.add_conditional_edges("synthesize", route_after_synthesize, ["await_confirmation", END])
    graph.add_conditional_edges(
        "await_confirmation",
        confirmation.route_after_await,
        ["execute_write", "execute_tools", "synthesize", "recall", "explain"],
    )
    graph.add_edge("execute_write", "synthesize")
    graph.add_conditional_edges("explain", confirmation.route_after_explain, ["await_confirmation", END])
    return graph.compile(checkpointer=checkpointer)
