"""The content pipeline graph (spec 004 §2): nodes, routers and wiring.

prepare_context -> extract_themes -> design_structure -> [admin_review_structure] -> generate_modules
(one Send per module, at most 3 at once) -> generate_manual -> review_quality -> (refine_content)* ->
[admin_review_final] -> publish. The two bracketed nodes pause on ``interrupt()`` until an admin
decides; any node's error routes to handle_error.
"""

from __future__ import annotations

import copy
from typing import Literal

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer
from langgraph.graph import END, START, StateGraph
from langgraph.types import Send

from agents.content.context import MAX_REFINEMENT_CYCLES, ContentContext
from agents.content.nodes import (
    admin_review_structure,
    design_structure,
    extract_themes,
    generate_manual,
    generate_modules,
    handle_error,
    module_task,
    prepare_context,
)
from agents.content.publish import publish
from agents.content.review_nodes import admin_review_final, refine_content, regenerate_module, review_quality
from agents.content.sections import Section
from agents.content.sources import Sources
from agents.content.state import GenerationState

# the classes the state holds beyond LangGraph's safe types: a checkpoint names them, and reading one back
# builds them only when they are registered (LangGraph warns "Deserializing unregistered type … will be
# blocked in a future version" for the others, and blocks them under LANGGRAPH_STRICT_MSGPACK)
CHECKPOINT_TYPES = [(kind.__module__, kind.__name__) for kind in (Sources, Section)]


def route_after_prepare_context(state: GenerationState) -> Literal["extract_themes", "handle_error"]:
    return "handle_error" if state.get("error") else "extract_themes"


def route_after_extract_themes(state: GenerationState) -> Literal["design_structure", "handle_error"]:
    return "handle_error" if state.get("error") else "design_structure"


def route_after_design_structure(state: GenerationState) -> Literal["admin_review_structure", "handle_error"]:
    return "handle_error" if state.get("error") else "admin_review_structure"


def route_after_structure_review(state: GenerationState):
    """approve/edit -> one generate_modules task per module; redesign -> design_structure; reject -> end
    (spec 004 §2.3)."""
    if state.get("error"):
        return "handle_error"
    review = state.get("admin_review_structure")
    if review is None or review["decision"] == "reject" or not state["course_outline"]["modules"]:
        return END
    if review["decision"] == "redesign":
        return "design_structure"
    if state.get("output_type") == "manual_only":
        return "generate_manual"
    return [Send("generate_modules", module_task(state, i)) for i in range(len(state["course_outline"]["modules"]))]


def route_after_generate_manual(state: GenerationState) -> Literal["review_quality", "handle_error"]:
    return "handle_error" if state.get("error") else "review_quality"


def route_after_quality_review(
    state: GenerationState,
) -> Literal["admin_review_final", "refine_content", "handle_error"]:
    """Spec 004 §2.3: pass, refine (critical/major issues, budget left) or fail."""
    report = state.get("review_report")
    if state.get("error") or report is None:
        return "handle_error"
    if report["passed"] or state.get("refinement_count", 0) >= MAX_REFINEMENT_CYCLES:
        return "admin_review_final"
    if any(i["severity"] == "critical" for i in report["issues"]):
        return "refine_content"
    if all(i["severity"] == "minor" for i in report["issues"]):
        return "admin_review_final"
    return "refine_content"


def route_after_refine_content(state: GenerationState) -> Literal["review_quality", "handle_error"]:
    return "handle_error" if state.get("error") else "review_quality"


AfterFinalReview = Literal[
    "publish", "refine_content", "admin_review_final", "regenerate_module", "handle_error", "__end__"
]
_AFTER_FINAL_REVIEW: dict[str, AfterFinalReview] = {
    "approve": "publish",
    "edit": "refine_content",
    "refine": "refine_content",
    "patch": "admin_review_final",
    "regenerate_exercise": "admin_review_final",
    "regenerate": "regenerate_module",
}


def route_after_final_review(state: GenerationState) -> AfterFinalReview:
    if state.get("error"):
        return "handle_error"
    review = state.get("admin_review_final")
    decision = review["decision"] if review else "reject"
    return _AFTER_FINAL_REVIEW.get(decision, "__end__")  # END is "__end__", typed str


def route_after_regenerate_module(state: GenerationState) -> Literal["admin_review_final", "handle_error"]:
    return "handle_error" if state.get("error") else "admin_review_final"


def route_after_publish(state: GenerationState) -> Literal["handle_error", "__end__"]:
    return "handle_error" if state.get("error") else "__end__"


def build_graph(checkpointer=None):
    """The compiled pipeline; tests and the worker pass their checkpointer (PostgresSaver in production)."""
    graph = StateGraph(GenerationState, context_schema=ContentContext)
    for node in (
        prepare_context,
        extract_themes,
        design_structure,
        admin_review_structure,
        generate_modules,
        generate_manual,
        review_quality,
        refine_content,
        admin_review_final,
        regenerate_module,
        publish,
        handle_error,
    ):
        graph.add_node(node.__name__, node)
    graph.add_edge(START, "prepare_context")
    graph.add_conditional_edges("prepare_context", route_after_prepare_context)
    graph.add_conditional_edges("extract_themes", route_after_extract_themes)
    graph.add_conditional_edges("design_structure", route_after_design_structure)
    graph.add_conditional_edges(
        "admin_review_structure",
        route_after_structure_review,
        ["design_structure", "generate_modules", "generate_manual", "handle_error", END],
    )
    graph.add_edge("generate_modules", "generate_manual")
    graph.add_conditional_edges("generate_manual", route_after_generate_manual)
    graph.add_conditional_edges("review_quality", route_after_quality_review)
    graph.add_conditional_edges("refine_content", route_after_refine_content)
    graph.add_conditional_edges("admin_review_final", route_after_final_review)
    graph.add_conditional_edges("regenerate_module", route_after_regenerate_module)
    graph.add_conditional_edges("publish", route_after_publish)
    graph.add_edge("handle_error", END)
    return graph.compile(checkpointer=registered(checkpointer))


def registered(checkpointer):
    """The checkpointer reading back the state's own classes by name, as LangGraph asks: a serializer whose
    ``allowed_msgpack_modules`` lists them (what LangGraph allows of itself stays allowed), on a shallow
    copy as ``BaseCheckpointSaver.with_allowlist`` makes one. A studio's resume keeps its Sources."""
    if not isinstance(checkpointer, BaseCheckpointSaver):
        return checkpointer
    clone = copy.copy(checkpointer)
    clone.serde = JsonPlusSerializer(allowed_msgpack_modules=CHECKPOINT_TYPES)
    return clone
