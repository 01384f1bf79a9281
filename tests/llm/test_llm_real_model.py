"""Against a real model server (SKILLNET_REAL_MODEL_URL; the tests skip when none answers there): the
capability probe through the CLI, and one tutor turn through the output gate, as a person would run them.

    python tests/bench/real_model.py   # or any llama.cpp / Ollama / vLLM server
    SKILLNET_REAL_MODEL_URL=http://127.0.0.1:8081/v1 python -m pytest -m real_model tests/llm -q
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from agents.tutor.gate import _words, repeated_phrase
from tests.conftest import real_model_server

pytestmark = pytest.mark.real_model
FALLBACKS = {"loop", "length", "language", "no_citation", "timeout", "error", "empty"}


@pytest.fixture(scope="module")
def model_env():
    url, model = real_model_server()
    # a small local server answers one request at a time: on a shared machine the probe waits its turn
    return {
        **os.environ,
        "OPENAI_BASE_URL": url,
        "LLM_MODEL": model,
        "OPENAI_API_KEY": "not-needed",
        "LLM_PROBE_TIMEOUT": "300",
    }


def test_the_probe_reports_the_real_server(model_env):
    out = subprocess.run(
        [sys.executable, "-m", "agents.llm", "check", "--json"],
        capture_output=True,
        text=True,
        env=model_env,
        timeout=600,
    )
    assert out.returncode == 0, out.stderr
    probe = json.loads(out.stdout)
    assert probe["reachable"] and probe["model"] == model_env["LLM_MODEL"]
    assert probe["streaming"] and probe["ttft_ms"] > 0, probe and probe["tokens_per_second"] > 0
    assert probe["context_tokens"] and probe["context_tokens"] >= 512
    assert isinstance(probe["tool_calling"], bool) and isinstance(probe["json_mode"], bool)


def test_one_tutor_turn_through_the_gate_stores_no_loop_and_cites(seeded_db_url, model_env):
    question = "¿Cuántos días hay para devolver un portátil o una tablet abiertos?"
    out = subprocess.run(
        [sys.executable, "-m", "agents.tutor", "ask", question, "--user", "lucia@acme.test", "--json"],
        capture_output=True,
        text=True,
        env={**model_env, "DATABASE_URL": seeded_db_url},
        timeout=900,
    )
    assert out.returncode == 0, out.stderr
    events = [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]
    names = [e["event"] for e in events]
    done = events[-1]["data"]
    assert names[-1] == "done" and done["engine"] in (f"openai:{model_env['LLM_MODEL']}", "offline"), names
    if done["engine"] == "offline":  # the model's answer was rejected: the reason is named, the twin answered
        assert done.get("fallback") in FALLBACKS, done
    shown = "".join(
        e["data"]["content"]
        for e in events[names.index("fallback") + 1 if "fallback" in names else 0 :]
        if e["event"] == "token"
    )
    assert shown and not repeated_phrase(_words(shown))
    citations = next(e["data"]["citations"] for e in events if e["event"] == "citations")
    assert citations and any(f"[{c['index']}]" in shown for c in citations), (shown, citations)
