"""The one place that builds chat models: any OpenAI-compatible server, or the offline engine.

With neither key nor base URL the product runs offline and every call goes to the caller's
deterministic twin. Three calls cover every agent:

- ``structured``: a JSON answer validated by a pydantic schema (closed enums enforced), recovered
  from malformed JSON when possible, the twin otherwise.
- ``stream``: text token by token (a ``TextStream``); the twin's text word by word without a model.
- ``with_tools``: one tool-calling turn; None (so the caller's twin decides) on any failure.

Transient failures (429, timeouts, connection drops, 5xx) are retried with exponential backoff that
honours Retry-After; client errors (400/401/403/404) never are. Streams retry only until the first
token: after that a failure ends the stream with what was said and outcome "truncated".
``capabilities()`` probes the server once per engine (agents.llm.probe) so agents can adapt.
"""

from __future__ import annotations

import functools
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import openai
from langchain_core.language_models import BaseChatModel, LanguageModelInput
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage
from langchain_core.runnables import Runnable
from langchain_core.utils.function_calling import convert_to_openai_tool
from pydantic import BaseModel, SecretStr, ValidationError

from agents.llm.parsing import as_messages, parse_json_text, schema_text, short_error, text_of, validates
from agents.llm.probe import SLOW_TOKENS_PER_SECOND, Capabilities, probe
from agents.llm.retries import retrying
from agents.llm.settings import Settings
from agents.llm.stream import TextStream
from agents.runtime.observability import count_tokens, log_call

M = TypeVar("M", bound=BaseModel)
SLOW_ANSWER_SECONDS = 20.0  # a slow model's answer is capped at what it writes in this time


@dataclass(frozen=True)
class Structured(Generic[M]):
    value: M
    engine: str  # "offline" when the twin produced it
    outcome: str = "ok"  # how: direct | fenced | repaired | fixed_by_model | twin:<why> | offline
    finish_reason: str | None = None  # the server's, for the model's last answer ("length": cut short)


class LLM:
    """One configured engine. ``get_llm()`` gives the process-wide one; tests wrap their own models."""

    def __init__(self, settings: Settings, chat_model: BaseChatModel | None = None):
        self.settings = settings
        self._fixed_model = chat_model
        self._models: dict[str, BaseChatModel] = {}
        self._lock = threading.Lock()
        self._json_mode = chat_model is None  # response_format is sent only to OpenAI-compatible servers
        self._capabilities: Capabilities | None = None
        self._probe_lock = threading.Lock()

    @classmethod
    def from_model(cls, chat_model: BaseChatModel, settings: Settings | None = None) -> LLM:
        """Wrap any chat model (a scripted test model, another provider) behind the same calls."""
        name = getattr(chat_model, "model_name", None) or getattr(chat_model, "model", None)
        settings = settings or Settings(
            model=str(name or type(chat_model).__name__), api_key="wrapped", backoff_seconds=0.01
        )
        return cls(settings, chat_model)

    @property
    def offline(self) -> bool:
        return self._fixed_model is None and self.settings.offline

    @property
    def engine(self) -> str:
        return "offline" if self.offline else f"openai:{self.settings.model}"

    def capabilities(self) -> Capabilities:
        """The server's measured capabilities, probed on first use and kept for the process."""
        with self._probe_lock:
            if self._capabilities is None:
                if self.offline:
                    self._capabilities = Capabilities(engine=self.engine, model=self.settings.model)
                elif self._fixed_model is not None or self.settings.probe_timeout <= 0:
                    self._capabilities = Capabilities.assumed(self.engine, self.settings.model)
                else:
                    self._capabilities = probe(self.settings, self.engine)
            return self._capabilities

    def answer_tokens(self, role: str, budget: int | None = None) -> int:
        """max_tokens for one answer: the caller's budget (or the role's); a slow model gets what it
        writes in SLOW_ANSWER_SECONDS at its probed speed, at most half the budget."""
        tokens = budget or self.settings.role(role).max_tokens
        caps = self.capabilities()
        if not caps.slow:
            return tokens
        in_time = int((caps.tokens_per_second or SLOW_TOKENS_PER_SECOND) * SLOW_ANSWER_SECONDS)
        return max(64, min(tokens // 2, in_time))

    def token_limit(self, max_tokens: int, extra_only: bool = False) -> dict:
        """Model kwargs that cap an answer at ``max_tokens`` on any server.

        langchain-openai sends OpenAI's newer ``max_completion_tokens``, which llama.cpp's server
        ignores (it then writes until its context is full); other servers also get ``max_tokens``.
        """
        extra = {"extra_body": {"max_tokens": max_tokens}} if self.settings.base_url else {}
        return extra if extra_only else {"max_tokens": max_tokens, **extra}

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
                    model=self.settings.model,
                    base_url=self.settings.base_url,
                    api_key=SecretStr(self.settings.api_key) if self.settings.api_key is not None else None,
                    timeout=config.timeout,
                    max_completion_tokens=config.max_tokens,  # the field max_tokens, by its alias
                    temperature=config.temperature,
                    max_retries=0,  # tenacity owns retries
                    stream_usage=True,
                    **self.token_limit(config.max_tokens, extra_only=True),
                )
            return self._models[role]

    def online_model(self, role: str) -> BaseChatModel:
        """``chat_model`` for a caller that has already checked the engine is not offline."""
        model = self.chat_model(role)
        if model is None:
            raise RuntimeError(f"no chat model for {role}: the engine is offline")
        return model

    def _invoke(
        self, model: Any, messages: list[BaseMessage], counter: list[int], within: float | None = None
    ) -> AIMessage:
        for attempt in retrying(self.settings, within):
            with attempt:
                counter[0] += 1
                return model.invoke(messages)
        raise AssertionError("unreachable")  # pragma: no cover

    def _usage(self, message: AIMessage, prompt: Sequence[BaseMessage]) -> tuple[int, int]:
        usage = getattr(message, "usage_metadata", None) or {}
        tokens_in = usage.get("input_tokens") or count_tokens(text_of(prompt), self.settings.model)
        tokens_out = usage.get("output_tokens") or count_tokens(str(message.text), self.settings.model)
        return tokens_in, tokens_out

    # -- structured output ---------------------------------------------------------------------
    def _json_call(
        self, role: str, messages: list[BaseMessage], counter: list[int], within: float | None = None
    ) -> AIMessage:
        model: Runnable[LanguageModelInput, AIMessage] = self.online_model(role)
        if within is not None:
            if within <= 0:
                raise TimeoutError("no time left for a model call")
            model = model.bind(timeout=within)
        if self._json_mode and self.capabilities().json_mode:
            try:
                return self._invoke(model.bind(response_format={"type": "json_object"}), messages, counter, within)
            except openai.BadRequestError as exc:
                if "response_format" not in str(exc):
                    raise
                self._json_mode = False  # this server has no JSON mode; the prompt asks for JSON anyway
        return self._invoke(model, messages, counter, within)

    def structured(
        self, role: str, messages: Any, schema: type[M], twin: Callable[[], M], *, timeout: float | None = None
    ) -> Structured[M]:
        """A ``schema`` instance from the model, or ``twin()`` when there is none or it can't be trusted.
        ``timeout`` bounds the whole answer (retries and a repair call included) in seconds."""
        started, counter, tokens = time.perf_counter(), [0], [0, 0]
        if self.offline:
            value = twin()
            log_call(
                role=role,
                model=self.settings.model,
                engine="offline",
                outcome="offline",
                latency_ms=(time.perf_counter() - started) * 1000,
                attempts=0,
            )
            return Structured(value, "offline", "offline")
        prompt = as_messages(messages)
        if "json" not in text_of(prompt).lower():  # JSON mode requires the word; the schema helps anyway
            prompt = [
                *prompt,
                SystemMessage(f"Reply with one JSON object matching this JSON schema: {schema_text(schema)}"),
            ]

        def finish(value: M, engine: str, outcome: str, **extra: Any) -> Structured[M]:
            log_call(
                role=role,
                model=self.settings.model,
                engine=engine,
                outcome=outcome,
                latency_ms=(time.perf_counter() - started) * 1000,
                tokens_in=tokens[0],
                tokens_out=tokens[1],
                attempts=counter[0],
                **extra,
            )
            return Structured(value, engine, outcome, finished[0])

        finished: list[str | None] = [None]

        def ask(request: list[BaseMessage]) -> str:
            within = None if timeout is None else timeout - (time.perf_counter() - started)
            reply = self._json_call(role, request, counter, within)
            if finished[0] != "length":  # a first answer cut short stays the reason, whatever the repair did
                finished[0] = (reply.response_metadata or {}).get("finish_reason")
            used_in, used_out = self._usage(reply, request)
            tokens[0] += used_in
            tokens[1] += used_out
            return str(reply.text)

        try:
            text = ask(prompt)
            if not text.strip():
                return finish(twin(), "offline", "twin:empty")
            data, how = parse_json_text(text)
            if data is None or (how == "repaired" and not validates(schema, data)):
                text = ask(
                    [
                        SystemMessage(
                            "You repair malformed JSON. Reply with only the corrected JSON object, nothing else."
                        ),
                        HumanMessage(f"JSON schema: {schema_text(schema)}\n\nBroken JSON:\n{text[:6000]}"),
                    ]
                )
                data, how = parse_json_text(text)
                how = "fixed_by_model" if data is not None else how
            if data is None:
                return finish(twin(), "offline", "twin:unparseable")
            return finish(schema.model_validate(data), self.engine, how)
        except ValidationError as exc:
            return finish(twin(), "offline", "twin:invalid", error=short_error(exc))
        except openai.LengthFinishReasonError as exc:  # JSON mode: the client refuses a cut answer
            finished[0] = "length"
            return finish(twin(), "offline", "twin:length", error=short_error(exc))
        except Exception as exc:  # provider failure after retries: the twin answers
            return finish(twin(), "offline", "twin:error", error=short_error(exc))

    # -- streaming -----------------------------------------------------------------------------
    def stream(
        self,
        role: str,
        messages: Any,
        twin: Callable[[], str],
        *,
        max_tokens: int | None = None,
        timeout: float | None = None,
        deadline_s: float | None = None,
    ) -> TextStream:
        """Tokens as they arrive; iterate it, then read ``.engine``, ``.text``, ``.tokens_in/out``."""
        return TextStream(
            self,
            role,
            None if self.offline else as_messages(messages),
            twin,
            max_tokens=max_tokens,
            timeout=timeout,
            deadline_s=deadline_s,
        )

    # -- tools ---------------------------------------------------------------------------------
    def with_tools(self, role: str, messages: Any, tools: Sequence[Any]) -> AIMessage | None:
        """One tool-calling turn. None offline, on failure, or when the model names an unknown tool."""
        if self.offline:
            return None
        if not self.capabilities().tool_calling:  # probed: its tool calls can't be trusted
            log_call(
                role=role,
                model=self.settings.model,
                engine="offline",
                outcome="twin:no_tool_calling",
                latency_ms=0.0,
                attempts=0,
            )
            return None
        started, counter = time.perf_counter(), [0]
        prompt = as_messages(messages)
        names = {convert_to_openai_tool(tool)["function"]["name"] for tool in tools}
        outcome, reply, extra = "ok", None, {}
        try:
            reply = self._invoke(self.online_model(role).bind_tools(list(tools)), prompt, counter)
            unknown = [call["name"] for call in reply.tool_calls if call["name"] not in names]
            if unknown or reply.invalid_tool_calls:
                outcome, extra = (
                    "twin:bad_tool_call",
                    {"unknown_tools": unknown, "invalid_calls": len(reply.invalid_tool_calls)},
                )
        except Exception as exc:
            outcome, extra = "twin:error", {"error": short_error(exc)}
        tokens_in, tokens_out = self._usage(reply, prompt) if reply is not None else (0, 0)
        log_call(
            role=role,
            model=self.settings.model,
            engine=self.engine if outcome == "ok" else "offline",
            outcome=outcome,
            latency_ms=(time.perf_counter() - started) * 1000,
            tokens_in=tokens_in,
            tokens_out=tokens_out,
            attempts=counter[0],
            **extra,
        )
        return reply if outcome == "ok" else None


@functools.cache
def get_llm() -> LLM:
    """The process-wide engine from the environment (tests call ``get_llm.cache_clear()``)."""
    return LLM(Settings.from_env())
