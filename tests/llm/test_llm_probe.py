"""The capability probe against the real HTTP fake server, and how the seam adapts to what it finds."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from langchain_core.tools import tool
from pydantic import BaseModel

from agents.llm import get_llm


class Choice(BaseModel):
    intent: str


@tool
def list_courses(status: str) -> str:
    """List the organisation's courses with the given status."""
    return status


def test_probe_reports_a_capable_server(fake_openai):
    caps = get_llm().capabilities()
    assert caps.reachable and caps.streaming and caps.usage and caps.json_mode and caps.tool_calling
    assert caps.context_tokens == 128_000 and caps.ttft_ms is not None and not caps.slow
    assert fake_openai.chat_requests == []  # probe traffic never takes a scripted reply
    assert len(fake_openai.probe_requests) == 3  # stream, JSON mode, tool call (models is a GET)
    get_llm().capabilities()
    assert len(fake_openai.probe_requests) == 3  # once per process


def test_no_tool_calling_means_no_tool_request(fake_openai):
    fake_openai.capabilities["tool_calling"] = False
    assert get_llm().with_tools("admin", "list active courses", [list_courses]) is None
    assert fake_openai.chat_requests == []  # the caller's twin plans; nothing was asked


def test_no_json_mode_means_prompt_only_json(fake_openai):
    fake_openai.capabilities["json_mode"] = False
    fake_openai.json({"intent": "question"})
    result = get_llm().structured(
        "classifier", "Classify: hello (reply in JSON)", Choice, twin=lambda: Choice(intent="twin")
    )
    assert result.value.intent == "question"
    assert "response_format" not in fake_openai.chat_requests[-1]


def test_a_slow_model_gets_smaller_budgets(fake_openai):
    fake_openai.capabilities["probe_token_delay"] = 0.1  # 10 tokens/s
    llm = get_llm()
    assert llm.capabilities().slow and llm.capabilities().tokens_per_second < 15
    in_20_seconds = int(llm.capabilities().tokens_per_second * 20)  # SLOW_ANSWER_SECONDS
    assert llm.answer_tokens("generator", 2000) == max(64, min(1000, in_20_seconds)) < 2000


def test_check_cli_prints_the_probe_as_json(fake_openai):
    done = subprocess.run(
        [sys.executable, "-m", "agents.llm", "check", "--json"],
        capture_output=True,
        text=True,
        timeout=120,
        env=dict(os.environ),
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["model"] == "gpt-4o-mini" and report["tool_calling"] is True and report["slow"] is False


def test_check_cli_says_why_an_unreachable_server_fails(monkeypatch):
    env = {**os.environ, "OPENAI_BASE_URL": "http://127.0.0.1:9/v1", "LLM_PROBE_TIMEOUT": "3"}
    done = subprocess.run(
        [sys.executable, "-m", "agents.llm", "check", "--json"], capture_output=True, text=True, timeout=120, env=env
    )
    assert done.returncode == 1 and json.loads(done.stdout)["reachable"] is False
    assert done.stderr.startswith("error: model server not reachable")
