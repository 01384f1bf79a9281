"""A real HTTP server speaking OpenAI's chat completions, scripted per test.

The product's own client (langchain-openai -> openai -> httpx) talks to it exactly as to a real
server: JSON and SSE streaming responses, tool calls (streamed as deltas too), JSON mode, usage, and
faults (429 with Retry-After, 5xx, a response slower than the client's timeout, a stream cut short),
and the misbehaviour real small models show (a repetition loop, prose where a tool call was asked,
the wrong language, no citations, 1 token/s, an answer cut by ``max_tokens`` with finish_reason
``length``). Like a real server it stops at the request's ``max_tokens``.

    def test_something(fake_openai):
        fake_openai.reply("Hola, ¿en qué te ayudo?")              # next call's answer
        fake_openai.tool_call("list_courses", {"status": "active"})
        fake_openai.fault(429, retry_after=0.2)                   # then one rate limit ...
        fake_openai.responder = lambda request: Reply(text="...")  # ... and the default afterwards
        fake_openai.repetition_loop("Las vacaciones son importantes.")  # misbehaviour
        fake_openai.capabilities["tool_calling"] = False           # what the capability probe finds
        ...
        assert len(fake_openai.requests) == 2                      # attempts, prompts, tools sent

Queued replies are served first-in first-out; when the queue is empty ``responder(request)`` answers
(by default an echo of the last user message, or ``{}`` in JSON mode). The capability probe's
requests (header ``X-SkillNet-Probe``) are answered from ``capabilities`` and kept in
``probe_requests``: they never take a queued reply.
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
import time
import uuid
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest


@dataclass
class Reply:
    """One scripted response: text or tool calls, or a fault (``status`` >= 400)."""

    text: str | None = None
    tool_calls: list[dict] = field(default_factory=list)  # {"name", "arguments": dict | str, "id"?}
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    body: str | None = None  # raw response body (error payloads, garbage)
    delay: float = 0.0  # seconds before anything is sent (timeouts)
    queued: float = 0.0  # seconds a stream waits in the server's queue, sending keep-alive pings
    token_delay: float | None = None  # seconds between streamed tokens (None: the server's default)
    break_after: int | None = None  # streamed tokens before the connection is cut mid-message
    finish_reason: str | None = None  # None: "tool_calls", "length" (past max_tokens) or "stop"


def last_user_text(request: dict) -> str:
    for message in reversed(request.get("messages", [])):
        if message.get("role") == "user":
            content = message.get("content")
            if isinstance(content, list):
                return " ".join(part.get("text", "") for part in content if isinstance(part, dict))
            return content or ""
    return ""


def echo_responder(request: dict) -> Reply:
    if (request.get("response_format") or {}).get("type") in ("json_object", "json_schema"):
        return Reply(text="{}")
    return Reply(text=f"Echo: {last_user_text(request)}")


def _tokens(text: str) -> list[str]:
    return re.findall(r"\s*\S+\s*", text) or [text]


def _usage(request: dict, completion: str) -> dict:
    prompt = sum(len(str(m.get("content") or "").split()) + 3 for m in request.get("messages", []))
    completion_tokens = max(1, len(completion.split()))
    return {"prompt_tokens": prompt, "completion_tokens": completion_tokens, "total_tokens": prompt + completion_tokens}


def _tool_call_payload(call: dict, index: int) -> dict:
    arguments = call.get("arguments", {})
    return {
        "index": index,
        "id": call.get("id") or f"call_{uuid.uuid4().hex[:12]}",
        "type": "function",
        "function": {
            "name": call["name"],
            "arguments": arguments if isinstance(arguments, str) else json.dumps(arguments),
        },
    }


# What the capability probe finds by default: a well-behaved hosted model.
CAPABLE = {"json_mode": True, "tool_calling": True, "usage": True, "context_tokens": 128_000, "probe_token_delay": 0.0}


class FakeOpenAI:
    def __init__(self, model: str = "gpt-4o-mini"):
        self.model = model
        self.token_delay = 0.0
        self.queue: deque[Reply] = deque()
        self.embedding_faults: deque[int] = deque()
        self._embedding_gate: threading.Event | None = None
        self._embedding_pass = 0
        self.requests: list[dict] = []
        self.probe_requests: list[dict] = []
        self.capabilities: dict[str, Any] = dict(CAPABLE)
        self.responder: Callable[[dict], Reply | str] = echo_responder
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None

    # -- scripting -----------------------------------------------------------------------------
    def push(self, *replies: Reply) -> FakeOpenAI:
        self.queue.extend(replies)
        return self

    def reply(self, text: str, **options) -> FakeOpenAI:
        return self.push(Reply(text=text, **options))

    def json(self, value: Any, **options) -> FakeOpenAI:
        return self.push(Reply(text=json.dumps(value, ensure_ascii=False), **options))

    def tool_call(self, name: str, arguments: dict | str | None = None, **options) -> FakeOpenAI:
        return self.push(Reply(tool_calls=[{"name": name, "arguments": arguments or {}}], **options))

    def fault(self, status: int, *, retry_after: float | None = None, times: int = 1) -> FakeOpenAI:
        headers = {"Retry-After": f"{retry_after:g}"} if retry_after is not None else {}
        body = json.dumps({"error": {"message": f"scripted fault {status}", "type": "fake", "code": status}})
        return self.push(*(Reply(status=status, headers=headers, body=body) for _ in range(times)))

    def queued(self, seconds: float, text: str = "too late") -> FakeOpenAI:
        """A stream held in the server's queue (llama.cpp behind another request): headers at once, then
        only keep-alive comments for ``seconds`` before the first token; a read timeout never fires."""
        return self.push(Reply(text=text, queued=seconds))

    def slow(self, seconds: float, text: str = "too late", times: int = 1) -> FakeOpenAI:
        return self.push(*(Reply(text=text, delay=seconds) for _ in range(times)))

    def embedding_fault(self, status: int, *, times: int = 1) -> FakeOpenAI:
        """The next ``times`` embedding requests fail with ``status``."""
        with self._lock:
            self.embedding_faults.extend([status] * times)
        return self

    def hold_embeddings(self, *, after: int = 0) -> FakeOpenAI:
        """Passage-embedding requests after the next ``after`` wait until ``release_embeddings`` (queries pass)."""
        with self._lock:
            self._embedding_pass, self._embedding_gate = after, threading.Event()
        return self

    def release_embeddings(self) -> None:
        with self._lock:
            if self._embedding_gate is not None:
                self._embedding_gate.set()
            self._embedding_gate = None

    def _wait_at_embedding_gate(self, request: dict) -> None:
        if request.get("input_type") == "query":
            return
        with self._lock:
            gate = self._embedding_gate
            if gate is not None and self._embedding_pass > 0:
                self._embedding_pass, gate = self._embedding_pass - 1, None
        if gate is not None:
            gate.wait(120)

    def _next_embedding_fault(self) -> int | None:
        with self._lock:
            return self.embedding_faults.popleft() if self.embedding_faults else None

    @property
    def embedding_requests(self) -> list[dict]:
        return [r for r in self.requests if r.get("_path", "").endswith("/embeddings")]

    # -- misbehaviour (what a small local model does) -------------------------------------------
    def repetition_loop(self, sentence: str, repeats: int = 60, **options) -> FakeOpenAI:
        """The same sentence over and over, until max_tokens cuts it."""
        return self.reply(" ".join([sentence] * repeats), **options)

    def prose_instead_of_tool(self, text: str = "The AI assistant.", **options) -> FakeOpenAI:
        """Plain text where a tool call was asked for."""
        return self.reply(text, **options)

    def slow_tokens(self, text: str, tokens_per_second: float = 1.0, **options) -> FakeOpenAI:
        return self.reply(text, token_delay=1.0 / tokens_per_second, **options)

    def truncated(self, text: str, **options) -> FakeOpenAI:
        """An answer that stopped at the token limit (finish_reason ``length``)."""
        return self.reply(text, finish_reason="length", **options)

    def reset(self) -> None:
        with self._lock:
            self.embedding_faults.clear()
            if self._embedding_gate is not None:
                self._embedding_gate.set()
            self._embedding_gate = None
            self.queue.clear()
            self.requests.clear()
            self.probe_requests.clear()
        self.responder = echo_responder
        self.token_delay = 0.0
        self.capabilities = dict(CAPABLE)

    @property
    def chat_requests(self) -> list[dict]:
        return [r for r in self.requests if r.get("_path", "").endswith("/chat/completions")]

    # -- serving -------------------------------------------------------------------------------
    @property
    def base_url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}/v1"

    def start(self) -> FakeOpenAI:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):  # keep pytest output clean
                pass

            def do_GET(self):
                if self.path.rstrip("/").endswith("/models"):
                    self._send_json(
                        200,
                        {
                            "object": "list",
                            "data": [
                                {
                                    "id": fake.model,
                                    "object": "model",
                                    "created": 0,
                                    "owned_by": "fake",
                                    "context_length": fake.capabilities["context_tokens"],
                                }
                            ],
                        },
                    )
                else:
                    self._send_json(404, {"error": {"message": "not found"}})

            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                try:
                    request = json.loads(self.rfile.read(length) or b"{}")
                except ValueError:
                    return self._send_json(400, {"error": {"message": "invalid JSON body"}})
                request["_path"] = self.path
                if self.headers.get("X-SkillNet-Probe"):
                    with fake._lock:
                        fake.probe_requests.append(request)
                    return fake._chat(self, request, fake._probe_reply(request))
                with fake._lock:
                    fake.requests.append(request)
                try:
                    if self.path.endswith("/embeddings"):
                        fake._wait_at_embedding_gate(request)
                        fault = fake._next_embedding_fault()
                        if fault is not None:
                            return self._send_json(fault, {"error": {"message": f"scripted fault {fault}"}})
                        return self._send_json(200, fake._embeddings(request))
                    if self.path.endswith("/chat/completions"):
                        return fake._chat(self, request)
                    self._send_json(404, {"error": {"message": "not found"}})
                except (BrokenPipeError, ConnectionResetError):  # the client gave up (timeouts)
                    pass

            def _send_json(self, status: int, payload: dict, headers: dict | None = None, raw: str | None = None):
                data = (raw if raw is not None else json.dumps(payload)).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for key, value in (headers or {}).items():
                    self.send_header(key, value)
                self.end_headers()
                self.wfile.write(data)

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        if self._server:
            self._server.shutdown()
            self._server.server_close()

    def _next_reply(self, request: dict) -> Reply:
        with self._lock:
            if self.queue:
                return self.queue.popleft()
        reply = self.responder(request)
        return Reply(text=reply) if isinstance(reply, str) else reply

    def _embeddings(self, request: dict) -> dict:
        inputs = request.get("input")
        inputs = [inputs] if isinstance(inputs, str) else list(inputs or [])
        dims = int(request.get("dimensions") or 384)
        data = []
        for i, text in enumerate(inputs):
            seed = hashlib.sha256(str(text).encode()).digest()
            raw = [((seed[k % 32] ^ (k * 37 % 251)) / 255.0) - 0.5 for k in range(dims)]
            norm = sum(v * v for v in raw) ** 0.5 or 1.0
            data.append({"object": "embedding", "index": i, "embedding": [v / norm for v in raw]})
        return {
            "object": "list",
            "data": data,
            "model": request.get("model", "fake-embedding"),
            "usage": {"prompt_tokens": len(inputs), "total_tokens": len(inputs)},
        }

    def _probe_reply(self, request: dict) -> Reply:
        caps = self.capabilities
        if request.get("response_format"):
            if not caps["json_mode"]:
                return Reply(status=400, body=json.dumps({"error": {"message": "response_format unsupported"}}))
            return Reply(text='{"ok": true}')
        if request.get("tools"):
            if caps["tool_calling"]:
                return Reply(
                    tool_calls=[{"name": request["tools"][0]["function"]["name"], "arguments": {"timezone": "UTC"}}]
                )
            return Reply(text="It is noon.")
        return Reply(text=" ".join(str(n) for n in range(1, 31)), token_delay=caps["probe_token_delay"])

    def _chat(self, handler: BaseHTTPRequestHandler, request: dict, reply: Reply | None = None) -> None:
        reply = reply or self._next_reply(request)
        if reply.delay:
            time.sleep(reply.delay)
        if reply.status >= 400 or reply.body is not None:
            return handler._send_json(reply.status, {}, reply.headers, raw=reply.body or "{}")
        model = request.get("model") or self.model
        text, finish = reply.text or "", reply.finish_reason
        limit = request.get("max_tokens") or request.get("max_completion_tokens")
        if limit and len(_tokens(text)) > limit:  # a real server stops at max_tokens
            text, finish = "".join(_tokens(text)[:limit]), "length"
        usage = _usage(request, text) if self.capabilities["usage"] else None
        common = {"id": f"chatcmpl-{uuid.uuid4().hex[:10]}", "created": int(time.time()), "model": model}
        calls = [_tool_call_payload(call, i) for i, call in enumerate(reply.tool_calls)]
        finish = finish or ("tool_calls" if calls else "stop")
        if not request.get("stream"):
            message = {"role": "assistant", "content": text if (text or not calls) else None}
            if calls:
                message["tool_calls"] = [{k: v for k, v in call.items() if k != "index"} for call in calls]
            return handler._send_json(
                200,
                {
                    **common,
                    "object": "chat.completion",
                    "choices": [{"index": 0, "message": message, "finish_reason": finish, "logprobs": None}],
                    **({"usage": usage} if usage else {}),
                },
            )

        handler.send_response(200)
        handler.send_header("Content-Type", "text/event-stream")
        handler.send_header("Transfer-Encoding", "chunked")
        handler.send_header("Connection", "close")
        handler.end_headers()
        handler.close_connection = True

        def send(payload: dict | str) -> None:
            line = f"data: {payload if isinstance(payload, str) else json.dumps(payload)}\n\n".encode()
            handler.wfile.write(f"{len(line):x}\r\n".encode() + line + b"\r\n")
            handler.wfile.flush()

        def delta(content: dict, finish_reason: str | None = None) -> dict:
            return {
                **common,
                "object": "chat.completion.chunk",
                "choices": [{"index": 0, "delta": content, "finish_reason": finish_reason}],
            }

        waiting_until = time.monotonic() + reply.queued
        while time.monotonic() < waiting_until:
            ping = b": ping\n\n"
            handler.wfile.write(f"{len(ping):x}\r\n".encode() + ping + b"\r\n")
            handler.wfile.flush()
            time.sleep(0.2)
        pause = self.token_delay if reply.token_delay is None else reply.token_delay
        send(delta({"role": "assistant", "content": ""}))
        for count, token in enumerate(_tokens(text) if text else []):
            if reply.break_after is not None and count >= reply.break_after:
                return  # cut mid-message: no terminating chunk, the client sees a broken body
            if pause:
                time.sleep(pause)
            send(delta({"content": token}))
        for call in calls:
            arguments = call["function"]["arguments"]
            opening = {**call, "function": {"name": call["function"]["name"], "arguments": ""}}
            send(delta({"tool_calls": [opening]}))
            for start in range(0, len(arguments), 8):  # arguments arrive in pieces, as from OpenAI
                send(
                    delta(
                        {
                            "tool_calls": [
                                {"index": call["index"], "function": {"arguments": arguments[start : start + 8]}}
                            ]
                        }
                    )
                )
        send(delta({}, finish))
        if usage and (request.get("stream_options") or {}).get("include_usage"):
            send({**common, "object": "chat.completion.chunk", "choices": [], "usage": usage})
        send("[DONE]")
        handler.wfile.write(b"0\r\n\r\n")
        handler.wfile.flush()


@pytest.fixture(scope="session")
def fake_openai_server():
    server = FakeOpenAI().start()
    yield server
    server.stop()


@pytest.fixture
def fake_openai(fake_openai_server, monkeypatch):
    """The fake server, reset, with the product's environment pointing at it (tiny retry waits)."""
    from agents.llm import get_llm

    fake_openai_server.reset()
    monkeypatch.setenv("OPENAI_BASE_URL", fake_openai_server.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-fake-test")
    monkeypatch.setenv("LLM_MODEL", fake_openai_server.model)
    monkeypatch.setenv("LLM_BACKOFF_SECONDS", "0.01")
    monkeypatch.setenv("LLM_RETRY_AFTER_CAP", "2")
    get_llm.cache_clear()
    yield fake_openai_server
    get_llm.cache_clear()  # monkeypatch restores the environment right after this
