"""Citation validation (003): every [n] must name a retrieved source; anything else is removed.

``validate`` cleans a finished text; ``CitationStream`` does the same on tokens as they stream, holding
back only a possible half-written marker, so an invented [7] never reaches the screen.
"""
from __future__ import annotations

import re

_MARKER = re.compile(r"(\s*)\[(\d{1,3}(?:\s*,\s*\d{1,3})*)\]")
_OPEN_TAIL = re.compile(r"(\s*\[[\d,\s]{0,12}|\s+)$")


def validate(text: str, valid: set[int]) -> tuple[str, list[int], list[int]]:
    """(clean text, cited indexes in order of first use, removed indexes)."""
    used: list[int] = []
    removed: list[int] = []

    def replace(match: re.Match) -> str:
        numbers = [int(n) for n in re.findall(r"\d+", match.group(2))]
        keep = [n for n in numbers if n in valid]
        removed.extend(n for n in numbers if n not in valid)
        used.extend(n for n in keep if n not in used)
        return match.group(1) + "".join(f"[{n}]" for n in keep) if keep else ""

    return _MARKER.sub(replace, text), used, removed


class CitationStream:
    def __init__(self, valid: set[int]):
        self.valid = valid
        self.removed: list[int] = []
        self._pending = ""

    def _clean(self, text: str) -> str:
        clean, _, removed = validate(text, self.valid)
        self.removed.extend(removed)
        return clean

    def feed(self, token: str) -> str:
        self._pending += token
        tail = _OPEN_TAIL.search(self._pending)
        cut = tail.start() if tail else len(self._pending)
        ready, self._pending = self._pending[:cut], self._pending[cut:]
        return self._clean(ready)

    def flush(self) -> str:
        rest, self._pending = self._pending, ""
        return self._clean(rest)
