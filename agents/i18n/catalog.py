"""All messages, merged from the area files; an id defined twice is an error at import."""

from __future__ import annotations

import importlib
import pkgutil

from agents.i18n import messages as _areas


def _load() -> dict[str, dict[str, str]]:
    merged: dict[str, dict[str, str]] = {}
    for info in pkgutil.iter_modules(_areas.__path__):
        module = importlib.import_module(f"{_areas.__name__}.{info.name}")
        for key, entry in module.MESSAGES.items():
            if key in merged:
                raise ValueError(f"message id {key!r} is defined twice (second time in {info.name}.py)")
            merged[key] = entry
    return merged


MESSAGES = _load()
