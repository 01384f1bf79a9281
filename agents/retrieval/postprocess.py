"""After ranking: near-duplicate removal, neighbouring-chunk expansion, prompt order, token budgets."""

from __future__ import annotations

import functools
import re
from collections.abc import Hashable, Iterable
from dataclasses import replace
from typing import Protocol, TypeVar

from agents.retrieval.hits import packed_spans
from storage import chunks as chunk_store


class _Text(Protocol):
    @property
    def content(self) -> str: ...


class _Placed(Protocol):
    @property
    def document_id(self) -> Hashable: ...

    @property
    def position(self) -> int: ...


T = TypeVar("T", bound=_Text)
P = TypeVar("P", bound=_Placed)
Item = TypeVar("Item")
DUPLICATE_JACCARD = 0.7
SHORT_HIT_TOKENS = 120  # a hit shorter than this gets its neighbours appended for context
_WORD = re.compile(r"\w+", re.UNICODE)

# 000 §3.1: the retrieved-context share of the window, scaled for larger models (cap 10x).
RETRIEVED_CONTEXT_TOKENS = 3000
MODEL_CONTEXT_LIMITS = {
    "gpt-4o": 128_000,
    "gpt-4o-mini": 128_000,
    "gpt-4.1": 128_000,
    "gpt-4.1-mini": 128_000,
    "claude-3.5-sonnet": 200_000,
    "deepseek-v3": 64_000,
    "deepseek-chat": 64_000,
}
DEFAULT_CONTEXT_LIMIT = 16_000


@functools.lru_cache(maxsize=4096)
def _words(text: str) -> frozenset[str]:
    """A chunk's words, kept: the same chunks come back turn after turn, each search compares ~80 of them."""
    return frozenset(_WORD.findall(text.lower()))


def _overlap(words: frozenset[str], other: frozenset[str]) -> float:
    """Jaccard: the union's size from the sizes, so only the intersection is built."""
    shared = len(words & other)
    return shared / (len(words) + len(other) - shared)


def deduplicate(
    hits: Iterable[T], threshold: float = DUPLICATE_JACCARD, limit: int | None = None, per_document: int | None = None
) -> list[T]:
    """Drop hits whose words overlap an earlier (better) hit's by more than ``threshold`` (Jaccard);
    stop once ``limit`` hits are kept. With ``per_document``, a document's hits past that many wait
    until every other document's hit is placed (they fill the list only when nothing else does), so
    one long document cannot push the next document's best chunk out of the first ``limit``."""
    kept: list[T] = []
    kept_words: list[frozenset[str]] = []
    deferred: list[T] = []
    per: dict = {}
    for hit in hits:
        if limit is not None and len(kept) >= limit:
            break
        words = _words(hit.content)
        if words and any(other and _overlap(words, other) > threshold for other in kept_words):
            continue
        document = getattr(hit, "document_id", None)
        if per_document is not None and per.get(document, 0) >= per_document:
            deferred.append(hit)
            continue
        per[document] = per.get(document, 0) + 1
        kept.append(hit)
        kept_words.append(words)
    return (kept + deferred)[:limit] if limit is not None else kept + deferred


def expand_neighbours(conn, org_id, hits: list, min_tokens: int = SHORT_HIT_TOKENS) -> list:
    """Append the following (else preceding) chunk of the same document to hits shorter than
    ``min_tokens``, unless that neighbour is itself a hit (it is already in the prompt)."""
    taken = {(hit.document_id, hit.position) for hit in hits}
    expanded = []
    for hit in hits:
        if (hit.token_count or len(hit.content) // 4) >= min_tokens:
            expanded.append(hit)
            continue
        wanted = [p for p in (hit.position + 1, hit.position - 1) if p >= 0 and (hit.document_id, p) not in taken]
        neighbours = chunk_store.neighbour_chunks(conn, org_id, hit.document_id, wanted) if wanted else {}
        text, tokens, spans = hit.content, hit.token_count, hit.sections()
        for position in wanted:
            if position in neighbours:
                extra, extra_tokens, heading, extra_spans = neighbours[position]
                added = packed_spans(extra_spans) or ((0, heading),)
                if position > hit.position:
                    text, spans = f"{text}\n\n{extra}", spans + _shifted(added, len(text) + 2)
                else:
                    text, spans = f"{extra}\n\n{text}", added + _shifted(spans, len(extra) + 2)
                tokens += extra_tokens
                taken.add((hit.document_id, position))
                break
        expanded.append(replace(hit, content=text, token_count=tokens, heading_spans=spans))
    return expanded


def _shifted(spans: tuple[tuple[int, str], ...], by: int) -> tuple[tuple[int, str], ...]:
    return tuple((offset + by, heading) for offset, heading in spans)


def document_order(hits: list[P]) -> list[P]:
    """Hits grouped by document, in reading order: how passages read best in a prompt."""
    first_seen: dict = {}
    for rank, hit in enumerate(hits):
        first_seen.setdefault(hit.document_id, rank)
    return sorted(hits, key=lambda hit: (first_seen[hit.document_id], hit.position))


def context_budget(model: str | None) -> int:
    """Tokens the retrieved context may take for ``model`` (000 §3.1)."""
    limit = MODEL_CONTEXT_LIMITS.get((model or "").split(":")[-1], DEFAULT_CONTEXT_LIMIT)
    if limit <= DEFAULT_CONTEXT_LIMIT:
        return RETRIEVED_CONTEXT_TOKENS
    return int(RETRIEVED_CONTEXT_TOKENS * min(10, limit / DEFAULT_CONTEXT_LIMIT))


def within_budget(items: list[Item], budget: int, size) -> list[Item]:
    """The leading items (input order: best first) whose ``size(item)`` tokens fit in ``budget``."""
    kept, used = [], 0
    for hit in items:
        tokens = size(hit)
        if used + tokens > budget:
            continue
        kept.append(hit)
        used += tokens
    return kept
