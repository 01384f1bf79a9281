"""The trajectory eval: YAML scenarios (spec 001 "Eval scenario format") driven through the real graph.

Scripted supervisor decisions reach the graph through the model seam (a scripted chat model, or the
fake OpenAI server in tests); tools answer from ``mock_tool_results``; ``user_script`` answers each
pause. Without a script the deterministic supervisor decides, as in the offline product.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import yaml
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command

from agents.helpdesk.graph import build_graph, new_state
from agents.helpdesk.guards import Settings
from agents.helpdesk.state import HelpdeskContext
from agents.helpdesk.tools import Toolbox, ToolError
from agents.helpdesk.turns import turn_from_result
from agents.llm import LLM
from agents.runtime.deps import process_embedder

SCENARIOS_DIR = Path(__file__).parent / "scenarios"
SUPERVISOR_MARK = "You are the supervisor of an internal"
TOOL_NAMES = ("retry_kb", "web_search", "search_existing_issues", "file_ticket")


class ScriptedChatModel(BaseChatModel):
    """Answers supervisor prompts with the next scripted decision; every other role gets an error (twin)."""

    decisions: list[str]
    position: int = 0

    @property
    def _llm_type(self) -> str:
        return "scripted-helpdesk"

    def _generate(self, messages, stop=None, run_manager=None, **kwargs) -> ChatResult:
        system = str(messages[0].content) if messages else ""
        if SUPERVISOR_MARK not in system or self.position >= len(self.decisions):
            raise ValueError("scripted model: no answer for this call")
        decision = self.decisions[self.position]
        self.position += 1
        return ChatResult(generations=[ChatGeneration(message=AIMessage(decision_text(decision)))])


def decision_text(decision: str) -> str:
    """A scripted decision as the model would send it; raw text (invalid-output scenarios) passes as is."""
    if decision.lstrip().startswith(("{", "not ")):
        return decision
    return f'{{"next_action": "{decision}", "reason": "scripted"}}'


def load_scenarios(folder: Path = SCENARIOS_DIR) -> list[dict]:
    return [yaml.safe_load(path.read_text(encoding="utf-8")) for path in sorted(folder.glob("*.yaml"))]


def _mock_tool(spec) -> Callable:
    def call(*args):
        if isinstance(spec, dict) and spec.get("timeout"):
            raise ToolError("mock timeout", reason="timeout")
        if isinstance(spec, dict) and spec.get("error"):
            raise ToolError(str(spec["error"]), retryable=bool(spec.get("retryable")))
        return [dict(item) for item in (spec or [])]

    return call


def _toolbox(results: dict, filed: list[dict]) -> Toolbox:
    def file_ticket(draft: dict, key: str) -> dict:
        spec = results.get("file_ticket")
        if isinstance(spec, dict) and (spec.get("error") or spec.get("timeout")):
            _mock_tool(spec)()
        filed.append({**draft, "key": key})
        return {
            "id": "",
            "number": 1000 + len(filed),
            "title": draft["title"],
            "status": "open",
            "url": "",
            "created": True,
        }

    available = {"retry_kb", "search_existing_issues", "file_ticket"} | (
        {"web_search"} if "web_search" in results else set()
    )
    return Toolbox(
        retry_kb=_mock_tool(results.get("retry_kb")),
        web_search=_mock_tool(results.get("web_search")),
        search_existing_issues=_mock_tool(results.get("search_existing_issues")),
        file_ticket=file_ticket,
        available=available,
    )


def _settings(overrides: dict | None) -> Settings:
    overrides = dict(overrides or {})
    flags = {**Settings().tool_flags, **overrides.pop("tools", {})}
    return replace(Settings(), tool_flags=flags, **overrides)


def run_scenario(scenario: dict, engine: LLM, llm_factory: Callable[[list[str] | None], Any] | None = None) -> dict:
    """Run one scenario; ``llm_factory(decisions)`` builds the engine (default: the scripted decisions,
    or ``engine``, the caller's model, when the scenario scripts none)."""
    given, expect = scenario.get("given", {}), scenario.get("expect", {})
    decisions = (given.get("mock_provider_script") or {}).get("supervisor_decisions")
    if llm_factory is not None:
        llm = llm_factory(decisions)
    else:
        llm = LLM.from_model(ScriptedChatModel(decisions=decisions)) if decisions else engine
    filed: list[dict] = []
    clock_now = [1_000_000.0]
    step = float(given.get("clock_step_seconds", 0))

    def clock() -> float:
        clock_now[0] += step
        return clock_now[0]

    ctx = HelpdeskContext(
        llm=llm,
        tools=_toolbox(given.get("mock_tool_results") or {}, filed),
        embedder=process_embedder(),  # the scenarios open no database
        settings=_settings(given.get("settings")),
        clock=clock,
    )
    graph = build_graph(InMemorySaver())
    session_id = f"eval-{scenario['id']}-{uuid.uuid4().hex[:6]}"
    config: RunnableConfig = {"configurable": {"thread_id": session_id}}
    conversation = given.get("conversation") or []
    question = next(t["content"] for t in conversation if t["role"] == "user")
    started = time.perf_counter()
    result = graph.invoke(
        new_state(
            session_id=session_id,
            question=question,
            conversation=conversation,
            language=given.get("language", "en"),
            now=clock(),
        ),
        config,
        context=ctx,
    )
    answers = list(given.get("user_script") or [])
    while result.get("__interrupt__") and answers:
        if given.get("settings_after_pause"):
            ctx.settings = _settings({**(given.get("settings") or {}), **given["settings_after_pause"]})
        result = graph.invoke(Command(resume=answers.pop(0)), config, context=ctx)
    turn = turn_from_result(session_id, result, given.get("language", "en"))
    failures = check(expect, result, turn, filed)
    return {
        "id": scenario["id"],
        "passed": not failures,
        "failures": failures,
        "kind": turn.kind,
        "actions": turn.actions,
        "tools_invoked": list(dict.fromkeys(result.get("tools_invoked", []))),
        "ms": round((time.perf_counter() - started) * 1000, 1),
        "trace": [{k: v for k, v in s.items() if k != "ms"} for s in result.get("trace", [])],
        "filed": filed,
    }


def check(expect: dict, result: dict, turn, filed: list[dict]) -> list[str]:
    failures = []

    def want(name: str, actual, expected) -> None:
        if actual != expected:
            failures.append(f"{name}: expected {expected!r}, got {actual!r}")

    draft = result.get("draft") or {}
    kind = {"resolved": "resolved"}.get(turn.kind, turn.kind)
    for name, actual in (
        ("final_kind", kind),
        ("outcome", result.get("outcome")),
        ("abort_reason", result.get("abort_reason")),
        ("questions_asked", len(result.get("questions_asked", []))),
        ("duplicate_candidates_count", len(result.get("duplicate_candidates", []))),
        ("tickets_filed", len(filed)),
        ("proposals", len(result.get("proposed_solutions", []))),
        ("actions", turn.actions),
        ("tools_invoked", list(dict.fromkeys(result.get("tools_invoked", [])))),
        ("file_error", result.get("file_error")),
        ("draft_severity", draft.get("severity")),
        ("draft_category", draft.get("category")),
    ):
        if name in expect:
            want(name, actual, expect[name])
    if "actions_prefix" in expect:
        want("actions_prefix", turn.actions[: len(expect["actions_prefix"])], expect["actions_prefix"])
    if "max_turns_taken" in expect and result.get("turns_taken", 0) > expect["max_turns_taken"]:
        failures.append(f"turns_taken {result.get('turns_taken')} > {expect['max_turns_taken']}")
    texts = {
        "draft_title": draft.get("title", ""),
        "draft_body": draft.get("body", ""),
        "filed": " ".join(f"{t['title']} {t['body']}" for t in filed),
        "messages": " ".join(p.get("text", "") for p in result.get("proposed_solutions", [])) + " " + turn.message,
    }
    for field_name, text in texts.items():
        for needle in _as_list(expect.get(f"{field_name}_contains")):
            if needle.lower() not in text.lower():
                failures.append(f"{field_name} should contain {needle!r}")
        for needle in _as_list(expect.get(f"{field_name}_not_contains")):
            if needle.lower() in text.lower():
                failures.append(f"{field_name} should not contain {needle!r}")
    return failures


def _as_list(value) -> list[str]:
    return [] if value is None else [value] if isinstance(value, str) else list(value)


def run_all(engine: LLM, llm_factory=None, folder: Path = SCENARIOS_DIR) -> dict:
    results = [run_scenario(s, engine, llm_factory) for s in load_scenarios(folder)]
    failed = [r for r in results if not r["passed"]]
    return {
        "scenarios": len(results),
        "passed": len(results) - len(failed),
        "failed": len(failed),
        "failures": [
            {"id": r["id"], "failures": r["failures"], "actions": r["actions"], "trace": r["trace"]} for r in failed
        ],
        "results": results,
    }
