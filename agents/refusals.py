"""One line, in the reader's language, for input refused before any processing (storage.inputs)."""
from __future__ import annotations

from agents.i18n import t
from storage.inputs import InputRefused


def refusal(exc: InputRefused, lang: str | None) -> str:
    return t(f"safety.{exc.code}", lang, **exc.params)


def rate_limited(seconds: int, lang: str | None) -> str:
    return t("safety.rate_limited", lang, seconds=seconds)
