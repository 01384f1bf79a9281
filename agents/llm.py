"""The one place that builds chat models: any OpenAI-compatible server, or the offline engine.

Configuration comes from the environment (CONVENTIONS §3): OPENAI_API_KEY, OPENAI_BASE_URL,
LLM_MODEL. With neither key nor base URL the product runs offline and every call below goes to the
caller's deterministic twin. Three calls cover every agent:

- ``structured``: a JSON answer validated by a pydantic schema (closed enums enforced), recovered
  from malformed JSON when possible, the twin otherwise.
- ``stream``: text token by token; the twin's text streamed word by word when there is no model.
- ``with_tools``: one tool-calling turn; None (so the caller's twin decides) on any failure.

Transient failures (429, timeouts, connection drops, 5xx) are retried with exponential backoff that
honours Retry-After; client errors (400/401/403/404) never are. Streams retry only until the first
token: after that a failure ends the stream with what was said and outcome "truncated".
"""
from __future__ import annotations

import functools
import itertools
import json
import re
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Generic, TypeVar

import httpx
import json_repair
import openai
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, convert_to_messages
from langchain_core.utils.function_calling import convert_to_openai_tool
from pydantic import BaseModel, ValidationError
from tenacity import Retrying, retry_if_exception, stop_after_attempt

from agents.observability import count_tokens, log_call
from agents.offline import stream_words
from storage import config

__all__ = ["LLM", "RoleSettings", "Settings", "Structured", "TextStream", "count_tokens", "get_llm"]

M = TypeVar("M", bound=BaseModel)


@dataclass(frozen=True)
class RoleSettings:
    timeout: float
    max_tokens: int
    temperature: float


ROLE_DEFAULTS: dict[str, RoleSettings] = {
    "classifier": RoleSettings(timeout=20, max_tokens=300, temperature=0.0),
    "supervisor": RoleSettings(timeout=30, max_tokens=500, temperature=0.0),
    "generator": RoleSettings(timeout=90, max_tokens=2000, temperature=0.3),
    "reviewer": RoleSettings(timeout=60, max_tokens=1000, temperature=0.0),
    "summarizer": RoleSettings(timeout=45, max_tokens=600, temperature=0.2),
    "admin": RoleSettings(timeout=45, max_tokens=1000, temperature=0.0),
}


@dataclass(frozen=True)
class Settings:
    """Everything a model call needs; ``from_env`` reads CONVENTIONS §3 plus optional LLM_* knobs."""
    model: str = "gpt-4o-mini"
    base_url: str | None = None
    api_key: str | None = None
    roles: dict[str, RoleSettings] = field(default_factory=lambda: dict(ROLE_DEFAULTS))
    attempts: int = 3                 # tries per call, the first included
    backoff_seconds: float = 1.0      # first wait; doubles each retry
    backoff_max: float = 20.0
    retry_after_cap: float = 20.0     # a server asking for longer is not waited for that long

    @property
    def offline(self) -> bool:
        return not (self.api_key or self.base_url)

    def role(self, name: str) -> RoleSettings:
        return self.roles.get(name) or self.roles["generator"]

    @classmethod
    def from_env(cls) -> Settings:
        api_key = config.get("OPENAI_API_KEY")
        base_url = config.get("OPENAI_BASE_URL")
        roles = dict(ROLE_DEFAULTS)
        timeout = config.get("LLM_TIMEOUT")
        if timeout:  # slow local servers need more than the defaults
            roles = {name: replace(role, timeout=timeout) for name, role in roles.items()}
        return cls(
            model=config.get("LLM_MODEL"),
            base_url=base_url,
            # Local servers (Ollama, vLLM, llama.cpp) ignore the key, but the client insists on one.
            api_key=api_key or ("not-needed" if base_url else None),
            roles=roles,
            attempts=config.get("LLM_RETRY_ATTEMPTS"),
            backoff_seconds=config.get("LLM_BACKOFF_SECONDS"),
            retry_after_cap=config.get("LLM_RETRY_AFTER_CAP"),
        )


@dataclass(frozen=True)
class Structured(Generic[M]):
    value: M
    engine: str  # "offline" when the twin produced it


def _retryable(exc: BaseException) -> bool:
    if isinstance(exc, (openai.RateLimitError, openai.APIConnectionError, openai.InternalServerError)):
        return True  # APITimeoutError is an APIConnectionError
    if isinstance(exc, openai.APIStatusError):
        return exc.status_code >= 500 or exc.status_code in (408, 409)
    return isinstance(exc, (httpx.TimeoutException, httpx.TransportError, TimeoutError))


def _retry_after(exc: BaseException | None) -> float | None:
    response = getattr(exc, "response", None)
    headers = getattr(response, "headers", None)
    if not headers:
        return None
    try:
        if headers.get("retry-after-ms"):
            return float(headers["retry-after-ms"]) / 1000
        if headers.get("retry-after"):
            return float(headers["retry-after"])
    except ValueError:  # an HTTP date: fall back to our own backoff
        return None
    return None


_THINKING = re.compile(r"<think>.*?</think>", re.DOTALL)
_FENCED = re.compile(r"```(?:json|JSON)?\s*\n?(.*?)```", re.DOTALL)


def parse_json_text(text: str) -> tuple[Any, str]:
    """(object, how) from a model's reply: direct parse, a fenced block, then json-repair; (None, why)."""
    text = _THINKING.sub("", text)  # reasoning models (qwen3, deepseek-r1) think aloud first
    candidates = [("direct", text.strip())] + [("fenced", block.strip()) for block in _FENCED.findall(text)]
    for how, candidate in candidates:
        try:
            value = json.loads(candidate)
        except ValueError:
            continue
        if isinstance(value, dict):
            return value, how
    try:
        value = json_repair.repair_json(text, return_objects=True)
    except Exception:  # json-repair gives up on some inputs by raising
        value = None
    return (value, "repaired") if isinstance(value, dict) and value else (None, "unparseable")


def _as_messages(messages: Any) -> list[BaseMessage]:
    if isinstance(messages, str):
        return [HumanMessage(messages)]
    if hasattr(messages, "to_messages"):
        return messages.to_messages()
    return convert_to_messages(messages)


def _text_of(messages: Sequence[BaseMessage]) -> str:
    return "\n".join(str(message.text) for message in messages)


def _short_error(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {str(exc).splitlines()[0][:200] if str(exc) else ''}"


class LLM:
    """One configured engine. ``get_llm()`` gives the process-wide one; tests wrap their own models."""

    def __init__(self, settings: Settings, chat_model: BaseChatModel | None = None):
        self.settings = settings
        self._fixed_model = chat_model
        self._models: dict[str, BaseChatModel] = {}
        self._lock = threading.Lock()
        self._json_mode = chat_model is None  # response_format is sent only to OpenAI-compatible servers

    @classmethod
    def from_model(cls, chat_model: BaseChatModel, settings: Settings | None = None) -> LLM:
        """Wrap any chat model (a scripted test model, another provider) behind the same calls."""
        name = getattr(chat_model, "model_name", None) or getattr(chat_model, "model", None)
        settings = settings or Settings(model=str(name or type(chat_model).__name__), api_key="wrapped",
                                        backoff_seconds=0.01)
        return cls(settings, chat_model)

    @property
    def offline(self) -> bool:
        return self._fixed_model is None and self.settings.offline

    @property
    def engine(self) -> str:
        return "offline" if self.offline else f"openai:{self.settings.model}"

    def chat_model(self, role: str) -> BaseChatModel | None:
        """The LangChain model for ``role`` (its timeout, max tokens, temperature); None offline."""
        if self._fixed_model is not None:
            return self._fixed_model
        if self.offline:
            return None
        with self._lock:
            if role not in self._models:
                from langchain_openai import ChatOpenAI

                config = self.settings.role(role)
                self._models[role] = ChatOpenAI(
                    model=self.settings.model, base_url=self.settings.base_url,
                    api_key=self.settings.api_key, timeout=config.timeout, max_tokens=config.max_tokens,
                    temperature=config.temperature, max_retries=0,  # tenacity owns retries
                    stream_usage=True,
                )
            return self._models[role]

    # -- retries -------------------------------------------------------------------------------
    def _wait(self, retry_state) -> float:
        asked = _retry_after(retry_state.outcome.exception() if retry_state.outcome else None)
        if asked is not None:
            return min(asked, self.settings.retry_after_cap)
        exponential = self.settings.backoff_seconds * 2 ** (retry_state.attempt_number - 1)
        return min(self.settings.backoff_max, exponential)

    def _retrying(self) -> Retrying:
        return Retrying(stop=stop_after_attempt(self.settings.attempts), wait=self._wait,
                        retry=retry_if_exception(_retryable), reraise=True)

    def _invoke(self, model: Any, messages: list[BaseMessage], counter: list[int]) -> AIMessage:
        for attempt in self._retrying():
            with attempt:
                counter[0] += 1
                return model.invoke(messages)
        raise AssertionError("unreachable")  # pragma: no cover

    def _usage(self, message: AIMessage, prompt: Sequence[BaseMessage]) -> tuple[int, int]:
        usage = getattr(message, "usage_metadata", None) or {}
        tokens_in = usage.get("input_tokens") or count_tokens(_text_of(prompt), self.settings.model)
        tokens_out = usage.get("output_tokens") or count_tokens(str(message.text), self.settings.model)
        return tokens_in, tokens_out

    # -- structured output ---------------------------------------------------------------------
    def _json_call(self, role: str, messages: list[BaseMessage], counter: list[int]) -> AIMessage:
        model = self.chat_model(role)
        if self._json_mode:
            try:
                return self._invoke(model.bind(response_format={"type": "json_object"}), messages, counter)
            except openai.BadRequestError as exc:
                if "response_format" not in str(exc):
                    raise
                self._json_mode = False  # this server has no JSON mode; the prompt asks for JSON anyway
        return self._invoke(model, messages, counter)

    def structured(self, role: str, messages: Any, schema: type[M], twin: Callable[[], M]) -> Structured[M]:
        """A ``schema`` instance from the model, or ``twin()`` when there is none or it can't be trusted."""
        started, counter, tokens = time.perf_counter(), [0], [0, 0]
        if self.offline:
            value = twin()
            log_call(role=role, model=self.settings.model, engine="offline", outcome="offline",
                     latency_ms=(time.perf_counter() - started) * 1000, attempts=0)
            return Structured(value, "offline")
        prompt = _as_messages(messages)
        if "json" not in _text_of(prompt).lower():  # JSON mode requires the word; the schema helps anyway
            prompt = [*prompt, SystemMessage(f"Reply with one JSON object matching this JSON schema: "
                                             f"{_schema(schema)}")]

        def finish(value: M, engine: str, outcome: str, **extra) -> Structured[M]:
            log_call(role=role, model=self.settings.model, engine=engine, outcome=outcome,
                     latency_ms=(time.perf_counter() - started) * 1000, tokens_in=tokens[0],
                     tokens_out=tokens[1], attempts=counter[0], **extra)
            return Structured(value, engine)

        def ask(request: list[BaseMessage]) -> str:
            reply = self._json_call(role, request, counter)
            used_in, used_out = self._usage(reply, request)
            tokens[0] += used_in
            tokens[1] += used_out
            return str(reply.text)

        try:
            text = ask(prompt)
            if not text.strip():
                return finish(twin(), "offline", "twin:empty")
            data, how = parse_json_text(text)
            if data is None or (how == "repaired" and not _validates(schema, data)):
                text = ask([SystemMessage("You repair malformed JSON. Reply with only the corrected JSON "
                                          "object, nothing else."),
                            HumanMessage(f"JSON schema: {_schema(schema)}\n\nBroken JSON:\n{text[:6000]}")])
                data, how = parse_json_text(text)
                how = "fixed_by_model" if data is not None else how
            if data is None:
                return finish(twin(), "offline", "twin:unparseable")
            return finish(schema.model_validate(data), self.engine, how)
        except ValidationError as exc:
            return finish(twin(), "offline", "twin:invalid", error=_short_error(exc))
        except Exception as exc:  # provider failure after retries: the twin answers
            return finish(twin(), "offline", "twin:error", error=_short_error(exc))

    # -- streaming -----------------------------------------------------------------------------
    def stream(self, role: str, messages: Any, twin: Callable[[], str]) -> TextStream:
        """Tokens as they arrive; iterate it, then read ``.engine``, ``.text``, ``.tokens_in/out``."""
        return TextStream(self, role, None if self.offline else _as_messages(messages), twin)

    # -- tools ---------------------------------------------------------------------------------
    def with_tools(self, role: str, messages: Any, tools: Sequence[Any]) -> AIMessage | None:
        """One tool-calling turn. None offline, on failure, or when the model names an unknown tool."""
        if self.offline:
            return None
        started, counter = time.perf_counter(), [0]
        prompt = _as_messages(messages)
        names = {convert_to_openai_tool(tool)["function"]["name"] for tool in tools}
        outcome, reply, extra = "ok", None, {}
        try:
            reply = self._invoke(self.chat_model(role).bind_tools(list(tools)), prompt, counter)
            unknown = [call["name"] for call in reply.tool_calls if call["name"] not in names]
            if unknown or reply.invalid_tool_calls:
                outcome, extra = "twin:bad_tool_call", {"unknown_tools": unknown,
                                                        "invalid_calls": len(reply.invalid_tool_calls)}
        except Exception as exc:
            outcome, extra = "twin:error", {"error": _short_error(exc)}
        tokens_in, tokens_out = self._usage(reply, prompt) if reply is not None else (0, 0)
        log_call(role=role, model=self.settings.model, engine=self.engine if outcome == "ok" else "offline",
                 outcome=outcome, latency_ms=(time.perf_counter() - started) * 1000,
                 tokens_in=tokens_in, tokens_out=tokens_out, attempts=counter[0], **extra)
        return reply if outcome == "ok" else None


def _schema(schema: type[BaseModel]) -> str:
    return json.dumps(schema.model_json_schema(), ensure_ascii=False)


def _validates(schema: type[BaseModel], data: Any) -> bool:
    try:
        schema.model_validate(data)
    except ValidationError:
        return False
    return True


class TextStream:
    """A model's answer as an iterator of text tokens; the twin's words when the model can't answer.

    After iteration: ``engine``, ``text``, ``tokens_in``, ``tokens_out``, ``outcome``
    ("ok" | "truncated" | "cancelled" | "twin:..." | "offline"), ``ttft_ms``, ``latency_ms``, ``attempts``.
    """

    def __init__(self, llm: LLM, role: str, messages: list[BaseMessage] | None, twin: Callable[[], str]):
        self._llm, self._role, self._messages, self._twin = llm, role, messages, twin
        self.engine = "offline" if messages is None else llm.engine
        self.text = ""
        self.tokens_in = self.tokens_out = 0
        self.outcome = "pending"
        self.ttft_ms: float | None = None
        self.latency_ms = 0.0
        self.attempts = 0
        self._started_iterating = False

    def __iter__(self) -> Iterator[str]:
        if self._started_iterating:
            raise RuntimeError("a TextStream can be iterated only once")
        self._started_iterating = True
        return self._run()

    def _run(self) -> Iterator[str]:
        started = time.perf_counter()
        extra: dict[str, Any] = {}
        try:
            if self._messages is None:
                self.outcome = "offline"
                yield from self._emit(self._twin(), started)
                return
            try:
                yield from self._from_model(started)
            except Exception as exc:  # nothing streamed yet and no retry left: the twin answers
                self.outcome, self.engine = "twin:error", "offline"
                extra["error"] = _short_error(exc)
                yield from self._emit(self._twin(), started)
                return
            if not self.text.strip():
                self.outcome, self.engine = "twin:empty", "offline"
                yield from self._emit(self._twin(), started)
        finally:
            self.latency_ms = (time.perf_counter() - started) * 1000
            if self.engine == "offline":
                self.tokens_in, self.tokens_out = 0, count_tokens(self.text)
            log_call(role=self._role, model=self._llm.settings.model, engine=self.engine,
                     outcome=self.outcome, latency_ms=self.latency_ms, tokens_in=self.tokens_in,
                     tokens_out=self.tokens_out, attempts=self.attempts, ttft_ms=self.ttft_ms, **extra)

    def _emit(self, text: str, started: float) -> Iterator[str]:
        self.text = ""
        for token in stream_words(text):
            if self.ttft_ms is None:
                self.ttft_ms = (time.perf_counter() - started) * 1000
            self.text += token
            yield token

    def _from_model(self, started: float) -> Iterator[str]:
        model = self._llm.chat_model(self._role)
        usage: dict[str, int] = {}
        chunks, head = iter(()), []
        for attempt in self._llm._retrying():
            with attempt:
                self.attempts += 1
                chunks, head = model.stream(self._messages), []
                for chunk in chunks:  # retrying is allowed until the first token arrives
                    head.append(chunk)
                    if str(chunk.text):
                        break
        self.outcome = "ok"
        try:
            for chunk in itertools.chain(head, chunks):
                for key in ("input_tokens", "output_tokens"):
                    usage[key] = usage.get(key, 0) + ((chunk.usage_metadata or {}).get(key) or 0)
                token = str(chunk.text)
                if token:
                    if self.ttft_ms is None:
                        self.ttft_ms = (time.perf_counter() - started) * 1000
                    self.text += token
                    yield token
        except GeneratorExit:  # the reader stopped listening (a closed browser tab, a cancel)
            self.outcome = "cancelled"
            raise
        except Exception:  # mid-stream failure: keep what was said, say it was cut short
            self.outcome = "truncated"
        finally:
            getattr(chunks, "close", lambda: None)()  # release the HTTP connection now
            model_name = self._llm.settings.model
            self.tokens_in = usage.get("input_tokens") or count_tokens(_text_of(self._messages), model_name)
            self.tokens_out = usage.get("output_tokens") or count_tokens(self.text, model_name)


@functools.cache
def get_llm() -> LLM:
    """The process-wide engine from the environment (tests call ``get_llm.cache_clear()``)."""
    return LLM(Settings.from_env())
