"""The helpdesk graph: supervisor loop, tools, specialists, the human gate and the four outcomes.

    START → supervisor ─┬→ search_duplicates | retry_kb | web_search | classifier ─→ supervisor
                        ├→ clarifier | proposer | link_existing | writer ─→ await_user (interrupt)
                        └→ finish (abort)
    await_user ─→ supervisor | file_ticket ("File it" only) | finish (solved, linked, abort)
    file_ticket ─→ finish (filed) | await_user (failed: re-confirm or abort)

Tests compile ``build_graph()`` with their own checkpointer; the service uses the PostgresSaver.
"""

from __future__ import annotations

from typing import Literal

from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph

from agents.helpdesk import nodes, specialists, supervisor, tool_nodes
from agents.helpdesk.state import HelpdeskContext, HelpdeskState

HelpdeskGraph = CompiledStateGraph[HelpdeskState, HelpdeskContext, HelpdeskState, HelpdeskState]

AfterSupervisor = Literal[
    "search_duplicates",
    "retry_kb",
    "web_search",
    "classifier",
    "clarifier",
    "proposer",
    "link_existing",
    "writer",
    "finish",
]

_AFTER_SUPERVISOR: dict[str, AfterSupervisor] = {
    "search_duplicates": "search_duplicates",
    "retry_kb": "retry_kb",
    "web_search": "web_search",
    "classify": "classifier",
    "ask_user": "clarifier",
    "propose_solution": "proposer",
    "link_existing": "link_existing",
    "write_draft": "writer",
    "await_user_confirm": "writer",
    "file_new": "writer",
    "resolved_by_agent": "finish",
    "abort": "finish",
}


def route_after_supervisor(
    state: HelpdeskState,
) -> AfterSupervisor:
    return _AFTER_SUPERVISOR[state["next_action"]]


def route_after_await_user(state: HelpdeskState) -> Literal["supervisor", "file_ticket", "finish", "await_user"]:
    if state.get("outcome"):
        return "finish"
    if state.get("confirmed"):
        return "file_ticket"
    if state.get("awaiting_user"):
        return "await_user"
    return "supervisor"


def route_after_file_ticket(state: HelpdeskState) -> Literal["finish", "await_user"]:
    return "finish" if state.get("outcome") else "await_user"


def build_graph(checkpointer=None) -> HelpdeskGraph:
    builder = StateGraph(HelpdeskState, context_schema=HelpdeskContext)
    builder.add_node("supervisor", supervisor.supervisor)
    for action in ("search_duplicates", "retry_kb", "web_search"):
        builder.add_node(action, tool_nodes.make_tool_node(action))
        builder.add_edge(action, "supervisor")
    builder.add_node("classifier", specialists.classifier)
    builder.add_edge("classifier", "supervisor")
    for specialist in ("clarifier", "proposer", "link_existing", "writer"):
        builder.add_node(specialist, getattr(specialists, specialist))
        builder.add_edge(specialist, "await_user")
    builder.add_node("await_user", nodes.await_user)
    builder.add_node("file_ticket", tool_nodes.file_ticket)
    builder.add_node("finish", nodes.finish)
    builder.add_edge(START, "supervisor")
    builder.add_conditional_edges("supervisor", route_after_supervisor)
    builder.add_conditional_edges("await_user", route_after_await_user)
    builder.add_conditional_edges("file_ticket", route_after_file_ticket)
    builder.add_edge("finish", END)
    return builder.compile(checkpointer=checkpointer)


def new_state(
    *,
    session_id: str,
    question: str,
    conversation: list[dict] | None = None,
    language: str = "es",
    user_id: str = "",
    org_id: str = "",
    chat_session_id: str = "",
    now: float,
) -> HelpdeskState:
    """The first state of a session: the conversation snapshot redacted before any model or tool sees it."""
    from agents.helpdesk.guards import redact
    from agents.helpdesk.state import STATE_VERSION, ConversationTurn

    question = redact(question.strip())
    turns: list[ConversationTurn] = [
        {"role": "user" if t["role"] == "user" else "assistant", "content": redact(t["content"])}
        for t in (conversation or [])
        if t.get("role") in ("user", "assistant") and t.get("content")
    ]
    if not any(t["role"] == "user" for t in turns):
        turns.insert(0, {"role": "user", "content": question})
    return {
        "state_version": STATE_VERSION,
        "session_id": session_id,
        "chat_session_id": chat_session_id,
        "user_id": user_id,
        "org_id": org_id,
        "language": language,
        "original_question": question,
        "conversation": turns,
        "turns_taken": 0,
        "questions_asked": [],
        "user_replies": [],
        "facts": {},
        "kb_retry_attempts": 0,
        "web_search_attempts": 0,
        "duplicate_search_attempts": 0,
        "kb_retry_results": [],
        "web_search_results": [],
        "duplicate_candidates": [],
        "rejected_duplicates": [],
        "proposed_solutions": [],
        "rejected_solutions": [],
        "solution_accepted": False,
        "classification": None,
        "draft": None,
        "awaiting_user": None,
        "outcome": None,
        "abort_reason": None,
        "ticket": None,
        "linked_ticket": None,
        "confirmed": False,
        "tokens_used": 0,
        "started_at": now,
        "run_started_at": now,
        "agent_seconds": 0.0,
        "tool_cache": {},
    }
