"""When a model call is tried again: which failures are worth a retry (rate limits, connection errors, 5xx,
timeouts), how long to wait (the server's Retry-After, capped, else exponential backoff), and when to stop (the
configured attempts, or the caller's time spent)."""

from __future__ import annotations

import httpx
import openai
from tenacity import RetryCallState, Retrying, retry_if_exception, stop_after_attempt, stop_after_delay
from tenacity.stop import stop_base

from agents.llm.settings import Settings


def retryable(exc: BaseException) -> bool:
    if isinstance(exc, (openai.RateLimitError, openai.APIConnectionError, openai.InternalServerError)):
        return True  # APITimeoutError is an APIConnectionError
    if isinstance(exc, openai.APIStatusError):
        return exc.status_code >= 500 or exc.status_code in (408, 409)
    return isinstance(exc, (httpx.TimeoutException, httpx.TransportError, TimeoutError))


def retry_after(exc: BaseException | None) -> float | None:
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


def retrying(settings: Settings, within: float | None = None) -> Retrying:
    """The retry loop for one model call (``for attempt in retrying(...): with attempt: ...``)."""

    def wait(retry_state: RetryCallState) -> float:
        asked = retry_after(retry_state.outcome.exception() if retry_state.outcome else None)
        if asked is not None:
            return min(asked, settings.retry_after_cap)
        exponential = settings.backoff_seconds * 2 ** (retry_state.attempt_number - 1)
        return min(settings.backoff_max, exponential)

    stop: stop_base = stop_after_attempt(settings.attempts)
    if within:  # no retry starts once the caller's time is spent
        stop = stop | stop_after_delay(within)
    return Retrying(stop=stop, wait=wait, retry=retry_if_exception(retryable), reraise=True)
