"""The audit log as a person reads it: what an entry touched by name, and its states as short lines
("status: open → resolved · note: Done"), labels and values in the reader's language. The raw ids and
JSON stay in the CSV (pages/audit_log.py); this is only what the table shows."""

from __future__ import annotations

import re
from datetime import date, datetime

from agents.i18n import (
    code_label,
    format_date,
    format_datetime,
    format_number,
    format_percent,
    has,
    t,
)

_UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")
# State keys whose values are enum codes, and the code kind each holds.
_CODES = {
    "status": "status",
    "level": "level",
    "source": "skill_source",
    "role": "user_role",
    "visibility": "audit_visibility",
    "method": "audit_method",
    "decision": "review_decision",
    "output_type": "output_type",
}
# State keys whose values are codes the catalogue words under another prefix (a generation job's status).
_PREFIXED = {"job_status": "content.status"}
_PERCENT = {"desired_retention", "progress"}
_LONGEST = 60  # characters of one value (a ticket note) shown in the table
_MOST = 6  # pairs shown per state


def entity_label(entity_id: str | None, name: str | None, lang: str) -> str:
    """The thing's name as it is now; a short id (and that it is gone) when nothing of that id is left."""
    if name:
        return name
    if not entity_id:
        return ""
    parts = entity_id.split(":")
    if not all(_UUID.match(p) for p in parts):
        return entity_id  # an email or a topic already reads as itself
    return t("ops.audit_gone", lang, id=":".join(p[:8] for p in parts) + "…")


def _value(key: str, value: object, people: dict, lang: str) -> str | None:
    """One value as a person reads it; None for what says nothing to a reader (an id nobody is named by)."""
    if isinstance(value, bool):
        return code_label("yes_no", str(value).lower(), lang)
    if isinstance(value, str) and _UUID.match(value):
        return people.get(value)
    if key in _CODES and isinstance(value, str):
        return code_label(_CODES[key], value, lang)
    if key in _PREFIXED and isinstance(value, str) and has(f"{_PREFIXED[key]}.{value}"):
        return t(f"{_PREFIXED[key]}.{value}", lang)
    if key in _PERCENT and isinstance(value, (int, float)):
        return format_percent(value, lang)
    if isinstance(value, (int, float)):
        return format_number(value, lang, decimals=0 if float(value).is_integer() else 2)
    if isinstance(value, (list, dict)):
        return format_number(len(value), lang)
    if isinstance(value, str) and value:
        when = _iso(value)
        if when is not None:
            return format_datetime(when, lang) if isinstance(when, datetime) else format_date(when, lang)
        return value if len(value) <= _LONGEST else value[: _LONGEST - 1] + "…"
    return None


def _iso(text: str) -> date | datetime | None:
    if not re.match(r"^\d{4}-\d{2}-\d{2}", text):
        return None
    try:
        return date.fromisoformat(text) if len(text) == 10 else datetime.fromisoformat(text)
    except ValueError:
        return None


def _label(key: str, lang: str) -> str:
    for name in (f"audit.key.{key}", f"col.{key}"):
        if has(name):
            return t(name, lang).lower() if name.startswith("col.") else t(name, lang)
    return key.replace("_", " ")


def _ordered(state: dict) -> list[tuple]:
    """Codes (status, level…) first: jsonb keeps keys shortest first, so 'note' came before 'status'."""
    return sorted(state.items(), key=lambda item: item[0] not in _CODES)


def _pairs(state: dict, people: dict, lang: str) -> list[str]:
    pairs = []
    for key, value in _ordered(state):
        text = _value(key, value, people, lang)
        if text:
            pairs.append(f"{_label(key, lang)}: {text}")
    return pairs


def _join(pairs: list[str]) -> str:
    return " · ".join(pairs[:_MOST]) + (" · …" if len(pairs) > _MOST else "")


def before_summary(before: object, people: dict | None, lang: str) -> str:
    """The state before, as "label: value" pairs."""
    if not isinstance(before, dict):
        return ""
    return _join(_pairs(before, people or {}, lang))


def after_summary(before: object, after: object, people: dict | None, lang: str) -> str:
    """The state after: a value that changed reads "label: old → new", one that stayed is left out, a new
    one reads "label: value"."""
    if not isinstance(after, dict):
        return ""
    people, before = people or {}, before if isinstance(before, dict) else {}
    pairs = []
    for key, value in _ordered(after):
        new = _value(key, value, people, lang)
        if key in before:
            if before[key] == value:
                continue
            old = _value(key, before[key], people, lang)
            text = f"{old or '—'} → {new or '—'}"
        elif new is None:
            continue
        else:
            text = new
        pairs.append(f"{_label(key, lang)}: {text}")
    return _join(pairs)
