"""A model's answer as an iterator of text tokens, with the twin's words when the model can't answer."""

from __future__ import annotations

import itertools
import queue
import threading
import time
from collections.abc import Callable, Generator, Iterator
from typing import TYPE_CHECKING, Any, TypeVar

from langchain_core.language_models import LanguageModelInput
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.runnables import Runnable

from agents.llm.parsing import short_error, text_of
from agents.llm.retries import retrying
from agents.offline import stream_words
from agents.runtime.observability import count_tokens, log_call

if TYPE_CHECKING:
    from agents.llm.client import LLM

T = TypeVar("T")


class TextStream:
    """Iterate it once; afterwards read ``engine``, ``text``, ``tokens_in``, ``tokens_out``, ``outcome``
    ("ok" | "truncated" | "cancelled" | "timeout" | "rejected:<why>" | "twin:..." | "offline"),
    ``finish_reason`` (the server's: "stop", "length", …), ``ttft_ms``, ``latency_ms``, ``attempts``.

    ``max_tokens`` and ``timeout`` override the role's for this call; ``deadline_s`` bounds the whole
    answer in wall-clock seconds (a model streaming 1 token/s never trips a read timeout). A caller
    that judges the text unusable calls ``reject(why)``: the connection is released and the log says why.
    """

    def __init__(
        self,
        llm: LLM,
        role: str,
        messages: list[BaseMessage] | None,
        twin: Callable[[], str],
        *,
        max_tokens: int | None = None,
        timeout: float | None = None,
        deadline_s: float | None = None,
    ):
        self._llm, self._role, self._messages, self._twin = llm, role, messages, twin
        self._overrides = {
            **(llm.token_limit(max_tokens) if max_tokens else {}),
            **({"timeout": timeout} if timeout else {}),
        }
        self._deadline_s = deadline_s
        self.engine = "offline" if messages is None else llm.engine
        self.text = ""
        self.tokens_in = self.tokens_out = 0
        self.outcome = "pending"
        self.finish_reason: str | None = None
        self.ttft_ms: float | None = None
        self.latency_ms = 0.0
        self.attempts = 0
        self._iterator: Generator[str, None, None] | None = None
        self._rejected: str | None = None

    def __iter__(self) -> Iterator[str]:
        if self._iterator is not None:
            raise RuntimeError("a TextStream can be iterated only once")
        self._iterator = self._run()
        return self._iterator

    def reject(self, why: str) -> None:
        """The caller found the text unusable (a loop, the wrong language…): stop reading, log why."""
        self._rejected = why
        if self._iterator is not None:
            self._iterator.close()

    def _run(self) -> Generator[str, None, None]:
        started = time.perf_counter()
        extra: dict[str, Any] = {}
        try:
            if self._messages is None:
                self.outcome = "offline"
                yield from self._emit(self._twin(), started)
                return
            try:
                yield from self._from_model(started, self._messages)
            except Exception as exc:  # nothing streamed yet and no retry left: the twin answers
                self.outcome, self.engine = "twin:error", "offline"
                extra["error"] = short_error(exc)
                yield from self._emit(self._twin(), started)
                return
            if not self.text.strip() and self.outcome in ("ok", "timeout"):
                self.outcome, self.engine = f"twin:{'empty' if self.outcome == 'ok' else 'timeout'}", "offline"
                yield from self._emit(self._twin(), started)
        finally:
            if self._rejected:
                self.outcome = f"rejected:{self._rejected}"
            self.latency_ms = (time.perf_counter() - started) * 1000
            if self.engine == "offline":
                self.tokens_in, self.tokens_out = 0, count_tokens(self.text)
            log_call(
                role=self._role,
                model=self._llm.settings.model,
                engine=self.engine,
                outcome=self.outcome,
                latency_ms=self.latency_ms,
                tokens_in=self.tokens_in,
                tokens_out=self.tokens_out,
                attempts=self.attempts,
                ttft_ms=self.ttft_ms,
                finish_reason=self.finish_reason,
                **extra,
            )

    def _emit(self, text: str, started: float) -> Iterator[str]:
        self.text = ""
        for token in stream_words(text):
            if self.ttft_ms is None:
                self.ttft_ms = (time.perf_counter() - started) * 1000
            self.text += token
            yield token

    def _from_model(self, started: float, messages: list[BaseMessage]) -> Iterator[str]:
        model: Runnable[LanguageModelInput, AIMessage] = self._llm.online_model(self._role)
        if self._overrides:
            model = model.bind(**self._overrides)
        usage: dict[str, int] = {}
        chunks: Iterator[AIMessage] = iter(())
        head: list[AIMessage] = []
        deadline_at = started + self._deadline_s if self._deadline_s else None
        try:
            for attempt in retrying(self._llm.settings, self._deadline_s):
                with attempt:
                    self.attempts += 1
                    chunks, head = _until(model.stream(messages), deadline_at), []
                    for chunk in chunks:  # retrying is allowed until the first token arrives
                        head.append(chunk)
                        if str(chunk.text):
                            break
        except DeadlinePassed:  # no token before the deadline (a queued request): the twin answers
            getattr(chunks, "close", lambda: None)()
            self.outcome = "timeout"
            return
        self.outcome = "ok"
        try:
            for chunk in itertools.chain(head, chunks):
                if chunk.usage_metadata:
                    counted = chunk.usage_metadata
                    usage["input_tokens"] = usage.get("input_tokens", 0) + (counted.get("input_tokens") or 0)
                    usage["output_tokens"] = usage.get("output_tokens", 0) + (counted.get("output_tokens") or 0)
                self.finish_reason = (chunk.response_metadata or {}).get("finish_reason") or self.finish_reason
                token = str(chunk.text)
                if token:
                    if self.ttft_ms is None:
                        self.ttft_ms = (time.perf_counter() - started) * 1000
                    self.text += token
                    yield token
                if self._deadline_s and time.perf_counter() - started > self._deadline_s:
                    self.outcome = "timeout"
                    return
        except GeneratorExit:  # the reader stopped listening (a closed browser tab, a cancel, a reject)
            self.outcome = "cancelled"
            raise
        except DeadlinePassed:  # the server stalled mid-answer: keep what was said, the deadline holds
            self.outcome = "timeout"
        except Exception:  # mid-stream failure: keep what was said, say it was cut short
            self.outcome = "truncated"
        finally:
            getattr(chunks, "close", lambda: None)()  # release the HTTP connection now
            model_name = self._llm.settings.model
            self.tokens_in = usage.get("input_tokens") or count_tokens(text_of(messages), model_name)
            self.tokens_out = usage.get("output_tokens") or count_tokens(self.text, model_name)


class DeadlinePassed(Exception):
    """No chunk arrived before the answer's deadline (never retried: the time is spent)."""


def _until(chunks: Iterator[T], deadline_at: float | None) -> Iterator[T]:
    """The chunks as they arrive, but never past ``deadline_at``. A server that keeps the connection
    alive with pings (llama.cpp while the request waits behind another) never trips a read timeout, so
    the chunks are read on a helper thread and waited for with what is left of the deadline."""
    if deadline_at is None:
        yield from chunks
        return
    arrived: queue.Queue = queue.Queue()
    stop = threading.Event()

    def read() -> None:
        try:
            for chunk in chunks:
                arrived.put((chunk, None))
                if stop.is_set():
                    break
            arrived.put((None, StopIteration()))
        except Exception as exc:  # handed to the reader, who decides (retry, truncated)
            arrived.put((None, exc))
        finally:
            getattr(chunks, "close", lambda: None)()  # release the HTTP connection

    threading.Thread(target=read, name="llm-stream", daemon=True).start()
    try:
        while True:
            try:
                chunk, ended = arrived.get(timeout=max(0.0, deadline_at - time.perf_counter()))
            except queue.Empty:
                raise DeadlinePassed from None
            if isinstance(ended, StopIteration):
                return
            if ended is not None:
                raise ended
            yield chunk
    finally:
        stop.set()  # the reader thread drops the connection at its next chunk
