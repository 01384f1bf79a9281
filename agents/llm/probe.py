"""What the configured model server can do, measured once: ``python -m agents.llm check``.

Agents adapt to the answer instead of assuming a well-behaved hosted model: no tool calling → the
admin plans with its twin; no JSON mode → prompt-only JSON; a slow model → smaller answer budgets and
earlier deadlines. Every step shares one wall-clock budget; a step that fails or runs out of time
reports False/None and the rest go on. Requests carry ``X-SkillNet-Probe`` so logs (and the test
fake server) can tell them from real traffic.
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import asdict, dataclass, field

import httpx

from agents.llm.parsing import parse_json_text
from agents.llm.settings import Settings

PROBE_HEADER = "X-SkillNet-Probe"
SLOW_TOKENS_PER_SECOND = 15.0  # below this a 300-token answer takes over 20 s
SLOW_TTFT_MS = 5000.0
_CONTEXT_KEYS = ("context_length", "max_model_len", "context_window", "n_ctx", "max_context_length", "n_ctx_train")
_OVERSIZED = 150_000  # "ok " is one token in common tokenizers
_COUNT_PROMPT = "Count from 1 to 30, numbers separated by spaces, nothing else."
_TOOL = {
    "type": "function",
    "function": {
        "name": "get_time",
        "description": "The current time in a timezone.",
        "parameters": {"type": "object", "properties": {"timezone": {"type": "string"}}, "required": ["timezone"]},
    },
}


@dataclass
class Capabilities:
    engine: str
    model: str
    reachable: bool = False
    streaming: bool = False
    usage: bool = False
    json_mode: bool = False
    tool_calling: bool = False
    context_tokens: int | None = None
    ttft_ms: float | None = None
    tokens_per_second: float | None = None
    probe_ms: float = 0.0
    errors: dict[str, str] = field(default_factory=dict)

    @property
    def slow(self) -> bool:
        return self.reachable and (
            (self.tokens_per_second or 0) < SLOW_TOKENS_PER_SECOND or (self.ttft_ms or 0) > SLOW_TTFT_MS
        )

    def as_dict(self) -> dict:
        return {**asdict(self), "slow": self.slow}

    @classmethod
    def assumed(cls, engine: str, model: str) -> Capabilities:
        """A wrapped chat model (tests, other providers): nothing to probe, every feature assumed."""
        return cls(
            engine=engine, model=model, reachable=True, streaming=True, usage=True, json_mode=True, tool_calling=True
        )


class _Budget:
    def __init__(self, seconds: float):
        self.ends = time.monotonic() + seconds

    def left(self) -> float:
        return max(0.0, self.ends - time.monotonic())


def probe(settings: Settings, engine: str) -> Capabilities:
    """Measure the server behind ``settings`` within ``settings.probe_timeout`` seconds."""
    started = time.perf_counter()
    caps = Capabilities(engine=engine, model=settings.model)
    if settings.offline:
        return caps
    budget = _Budget(settings.probe_timeout)
    headers = {PROBE_HEADER: "1", "Authorization": f"Bearer {settings.api_key or 'not-needed'}"}
    base = (settings.base_url or "https://api.openai.com/v1").rstrip("/")
    with httpx.Client(base_url=base, headers=headers) as client:
        for name, step in (
            ("models", _models),
            ("context", _context),
            ("streaming", _streaming),
            ("json_mode", _json_mode),
            ("tool_calling", _tool_calling),
        ):
            if budget.left() <= 0:
                caps.errors[name] = "probe budget spent"
                continue
            try:
                step(client, settings.model, caps, budget)
            except (httpx.HTTPError, ValueError, KeyError, TypeError, IndexError) as exc:
                caps.errors[name] = f"{type(exc).__name__}: {str(exc)[:160]}"
    caps.probe_ms = round((time.perf_counter() - started) * 1000, 1)
    return caps


def _post(client: httpx.Client, budget: _Budget, body: dict) -> httpx.Response:
    response = client.post("/chat/completions", json=body, timeout=budget.left())
    response.raise_for_status()
    return response


def _models(client: httpx.Client, model: str, caps: Capabilities, budget: _Budget) -> None:
    # a busy local server (one model, one request at a time) can take a while even for its model list
    response = client.get("/models", timeout=min(30.0, budget.left()))
    response.raise_for_status()
    caps.reachable = True
    entries = response.json().get("data") or []
    entry = next((e for e in entries if e.get("id") == model), entries[0] if len(entries) == 1 else {})
    for source in (entry, entry.get("meta") or {}):
        for key in _CONTEXT_KEYS:
            if isinstance(source.get(key), int) and not caps.context_tokens:
                caps.context_tokens = source[key]


def _context(client: httpx.Client, model: str, caps: Capabilities, budget: _Budget) -> None:
    """Servers that don't publish their window name it when refusing a prompt longer than any window.

    The prompt is refused before any of it is processed (llama.cpp, vLLM, OpenAI); a server that
    accepts it has a window of at least that size.
    """
    if caps.context_tokens or not caps.reachable:
        return
    props = client.get(client.base_url.join("/props"), timeout=min(5.0, budget.left()))  # llama.cpp
    if props.status_code == 200:
        n_ctx = (props.json().get("default_generation_settings") or {}).get("n_ctx")
        if isinstance(n_ctx, int):
            caps.context_tokens = n_ctx
            return
    body = {"model": model, "max_tokens": 1, "messages": [{"role": "user", "content": "ok " * _OVERSIZED}]}
    response = client.post("/chat/completions", json=body, timeout=min(20.0, budget.left()))
    if response.status_code < 400:
        caps.context_tokens = _OVERSIZED
        return
    numbers = [int(n) for n in re.findall(r"(?<![\d.])(\d{3,7})(?![\d.])", response.text)]
    windows = [n for n in numbers if 512 <= n < _OVERSIZED]
    caps.context_tokens = min(windows) if windows else None


def _streaming(client: httpx.Client, model: str, caps: Capabilities, budget: _Budget) -> None:
    body = {
        "model": model,
        "messages": [{"role": "user", "content": _COUNT_PROMPT}],
        "max_tokens": 48,
        "temperature": 0,
        "stream": True,
        "stream_options": {"include_usage": True},
    }
    started = time.perf_counter()
    first: float | None = None
    last = 0.0  # set with first
    pieces = tokens = 0
    with client.stream("POST", "/chat/completions", json=body, timeout=budget.left()) as response:
        response.raise_for_status()
        caps.reachable = True
        for line in response.iter_lines():
            if budget.left() <= 0:
                break
            if not line.startswith("data:") or line.strip() == "data: [DONE]":
                continue
            chunk = json.loads(line[5:])
            if chunk.get("usage") and chunk["usage"].get("completion_tokens"):
                caps.usage = True
                tokens = chunk["usage"]["completion_tokens"]
            for choice in chunk.get("choices") or []:
                if (choice.get("delta") or {}).get("content"):
                    pieces += 1
                    last = time.perf_counter()
                    first = first or last
    caps.streaming = pieces >= 2
    if first is not None:
        caps.ttft_ms = round((first - started) * 1000, 1)
        produced = tokens if caps.usage else pieces
        if last > first and produced > 1:
            caps.tokens_per_second = round((produced - 1) / (last - first), 1)


def _json_mode(client: httpx.Client, model: str, caps: Capabilities, budget: _Budget) -> None:
    body = {
        "model": model,
        "max_tokens": 40,
        "temperature": 0,
        "response_format": {"type": "json_object"},
        "messages": [{"role": "user", "content": 'Reply with the JSON object {"ok": true} and nothing else.'}],
    }
    response = client.post("/chat/completions", json=body, timeout=budget.left())
    if response.status_code == 400:  # the server refuses response_format
        return
    response.raise_for_status()
    content = response.json()["choices"][0]["message"].get("content") or ""
    value, how = parse_json_text(content)
    caps.json_mode = value is not None and how == "direct"


def _tool_calling(client: httpx.Client, model: str, caps: Capabilities, budget: _Budget) -> None:
    body = {
        "model": model,
        "max_tokens": 60,
        "temperature": 0,
        "tools": [_TOOL],
        "tool_choice": "auto",
        "messages": [{"role": "user", "content": "What time is it in UTC? Use the get_time tool."}],
    }
    message = _post(client, budget, body).json()["choices"][0]["message"]
    calls = message.get("tool_calls") or []
    if len(calls) == 1 and calls[0]["function"]["name"] == "get_time":
        arguments = json.loads(calls[0]["function"].get("arguments") or "{}")
        caps.tool_calling = isinstance(arguments, dict) and isinstance(arguments.get("timezone"), str)
