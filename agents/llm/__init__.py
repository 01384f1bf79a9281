"""Model calls, only through here: ``get_llm()`` and its three calls (see ``agents.llm.client``).

``python -m agents.llm check`` prints what the configured server can do (``agents.llm.probe``).
"""

from agents.llm.client import LLM, Structured, get_llm
from agents.llm.parsing import parse_json_text
from agents.llm.probe import Capabilities
from agents.llm.settings import RoleSettings, Settings
from agents.llm.stream import TextStream
from agents.runtime.observability import count_tokens


def engine_status(llm: LLM) -> dict:
    """The engine's probed capabilities as plain data (the admin overview's engine card)."""
    return llm.capabilities().as_dict()


__all__ = [
    "LLM",
    "Capabilities",
    "RoleSettings",
    "Settings",
    "Structured",
    "TextStream",
    "count_tokens",
    "engine_status",
    "get_llm",
    "parse_json_text",
]
