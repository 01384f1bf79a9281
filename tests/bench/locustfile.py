"""Simulated employees for tests/bench/load.py (locust): each signs in through the chat's API behind HAProxy, then
asks the tutor one question after another, as Gradio's own page does: a queue join, then the event stream.

Besides locust's request figures, each turn reports "TTFT" (join to the first streamed answer text) and
"turn" (join to the completed event). Users are the demo employees, password skillnet-demo
(LOAD_EMAILS, comma-separated)."""

from __future__ import annotations

import itertools
import json
import os
import time
import uuid
import warnings

from locust import HttpUser, between, events, task

warnings.filterwarnings("ignore", message="Unverified HTTPS request")  # the test's self-signed certificate
QUESTIONS = [
    "How many days does a customer have to return a product?",
    "¿Cuál es el precio máximo por noche de hotel?",
    "What does the password standard require?",
    "¿Qué es el método ACRE para atender una consulta?",
    "Which personal protective equipment is mandatory in the warehouse?",
    "How long is the probation period?",
    "¿Cómo se presenta la nota de gastos?",
    "How do I report a phishing email?",
]
EMAILS = itertools.cycle(os.environ.get("LOAD_EMAILS", "james@acme.test,lucia@acme.test").split(","))
CHAT = "/chat"


def _text(message: dict) -> str:
    content = message.get("content")
    return (
        content
        if isinstance(content, str)
        else "".join(p.get("text", "") for p in content or [] if isinstance(p, dict))
    )


def _answer_text(chatbot) -> bool:
    """Whether a streamed chatbot value carries answer text beyond the "…" placeholder: Gradio sends the whole
    history first, then diffs (["replace"|"append", path, value])."""
    for item in chatbot if isinstance(chatbot, list) else []:
        if isinstance(item, dict) and item.get("role") == "assistant" and _text(item) not in ("", "…"):
            return True
        is_diff = isinstance(item, list) and len(item) == 3 and item[0] in ("replace", "append")
        if is_diff and (isinstance(item[2], str) and item[2] not in ("", "…") or _answer_text(item[2])):
            return True
    return False


def _error_answer(output: dict) -> bool:
    """The finished turn's last bubble is an error (respond's "⚠️ reason"); other events' outputs are no chat."""
    history = (output.get("data") or [None])[0]
    return (
        isinstance(history, list)
        and bool(history)
        and isinstance(history[-1], dict)
        and _text(history[-1]).startswith("⚠️")
    )


class Employee(HttpUser):
    wait_time = between(2, 5)  # reading the answer; also under the tutor's 30 turns a minute per person

    def on_start(self):
        self.client.verify, self.client.trust_env = False, False  # else REQUESTS_CA_BUNDLE overrides verify
        config = self.client.get(f"{CHAT}/config", name="config").json()
        self.fn = {d.get("api_name"): d.get("id", i) for i, d in enumerate(config["dependencies"])}
        self.session_hash = uuid.uuid4().hex
        self.questions = itertools.cycle(QUESTIONS)
        self._event("sign_in", [next(EMAILS), "skillnet-demo", None], "sign_in")

    @task
    def ask(self):
        started = time.perf_counter()
        first = self._event("chat", [next(self.questions), [], None, None, None], "turn")
        if first is not None:
            events.request.fire(
                request_type="SSE",
                name="TTFT",
                response_time=(first - started) * 1000,
                response_length=0,
                exception=None,
                context={},
            )
        self._event("turn_panels", [None], "turn_panels")

    def _event(self, api_name: str, data: list, label: str) -> float | None:
        """One Gradio event through the queue; fires ``label`` with its whole time; returns when the first answer
        text arrived (None if none did). A failure is reported, not raised."""
        started, first = time.perf_counter(), None
        exception: Exception | None = None
        try:
            join = self.client.post(
                f"{CHAT}/gradio_api/queue/join",
                name="queue/join",
                json={
                    "data": data,
                    "fn_index": self.fn[api_name],
                    "session_hash": self.session_hash,
                    "event_data": None,
                    "trigger_id": None,
                },
            )
            join.raise_for_status()
            stream = self.client.get(
                f"{CHAT}/gradio_api/queue/data",
                params={"session_hash": self.session_hash},
                stream=True,
                name="queue/data",
            )
            try:
                for line in stream.iter_lines():
                    if not line.startswith(b"data:"):
                        continue
                    message = json.loads(line[5:])
                    outputs = message.get("output", {}).get("data") or [None]
                    if message.get("msg") == "process_generating" and first is None and _answer_text(outputs[0]):
                        first = time.perf_counter()
                    if message.get("msg") == "process_completed":
                        if not message.get("success", True):
                            raise RuntimeError(f"{api_name}: {str(message.get('output'))[:200]}")
                        if _error_answer(message.get("output") or {}):
                            raise RuntimeError(f"{api_name}: an error answer")
                        break
                else:
                    raise RuntimeError(f"{api_name}: the event stream ended before the event completed")
            finally:
                stream.close()
        except Exception as exc:  # noqa: BLE001  (any failure is counted by locust as this request's)
            exception = exc
        events.request.fire(
            request_type="EVENT",
            name=label,
            response_time=(time.perf_counter() - started) * 1000,
            response_length=0,
            exception=exception,
            context={},
        )
        return first
