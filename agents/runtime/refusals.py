"""One line, in the reader's language, for input refused before any processing (core.inputs)."""

from __future__ import annotations

from agents.i18n import t
from agents.ingestion.pipeline import IngestError
from core.inputs import InputRefused


def refusal(exc: InputRefused, lang: str | None) -> str:
    return t(f"safety.{exc.code}", lang, **exc.params)


def rate_limited(seconds: int, lang: str | None) -> str:
    return t("safety.rate_limited", lang, seconds=seconds)


def ingest_refusal(exc: IngestError, name: str, lang: str | None) -> str:
    """A document's refusal in the reader's language where the catalogue words it, else the English line."""
    return t(f"safety.doc_{exc.code}", lang, name=name, **exc.params) if exc.code else f"{name}: {exc}"
