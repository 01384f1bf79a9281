"""Localized templates and word-by-word streaming, so the offline path reaches the UI like a model's."""

from __future__ import annotations

import re
from collections.abc import Iterator


def localized(texts: dict[str, str], lang: str) -> str:
    """``texts[lang]``, else English, else Spanish, else any: templates need not cover every language."""
    for candidate in (lang, "en", "es"):
        if texts.get(candidate):
            return texts[candidate]
    return next(iter(texts.values()), "")


def stream_words(text: str) -> Iterator[str]:
    """Word-plus-trailing-space tokens, like a model's stream; joined they give ``text`` back exactly."""
    yield from re.findall(r"\s*\S+\s*", text or "") or ([text] if text else [])
