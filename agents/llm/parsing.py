"""Reading what a model sent: JSON out of prose, messages in any accepted shape, short error lines."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

import json_repair
from langchain_core.messages import BaseMessage, HumanMessage, convert_to_messages
from pydantic import BaseModel, ValidationError

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


def as_messages(messages: Any) -> list[BaseMessage]:
    if isinstance(messages, str):
        return [HumanMessage(messages)]
    if hasattr(messages, "to_messages"):
        return messages.to_messages()
    return convert_to_messages(messages)


def text_of(messages: Sequence[BaseMessage]) -> str:
    return "\n".join(str(message.text) for message in messages)


def short_error(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {str(exc).splitlines()[0][:200] if str(exc) else ''}"


def schema_text(schema: type[BaseModel]) -> str:
    return json.dumps(schema.model_json_schema(), ensure_ascii=False)


def validates(schema: type[BaseModel], data: Any) -> bool:
    try:
        schema.model_validate(data)
    except ValidationError:
        return False
    return True
