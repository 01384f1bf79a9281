"""What every exercise type (exercises.py) is built from: the module's facts (the fact sentences, the values by
kind, the sentences already asked about), the chunks a snippet cites, the exercise's shape, and its texts in the
source's language."""

from __future__ import annotations

import hashlib
import re

from agents.content.facts import (
    rule_of,
    stands_alone,
    value_pool,
)
from agents.content.sections import Section
from agents.content.text import fact_sentences, in_source
from agents.i18n import t


def phrase(key: str, language: str, **params: object) -> str:
    """One of the exercise texts (agents/i18n/messages/content_exercises.py) in the source's language."""
    return t(f"content.exercise.{key}", language, **params)


def chunks_of(section: Section, snippets: list[str]) -> list[str]:
    """Every chunk of the section holding one of the snippets (a list can run across two chunks)."""
    found = [
        chunk_id
        for chunk_id, text in zip(section.chunk_ids, section.texts)
        if any(in_source(snippet, text) for snippet in snippets)
    ]
    return found or section.chunk_ids[:1]


def chunk_of(section: Section, snippet: str) -> list[str]:
    for chunk_id, text in zip(section.chunk_ids, section.texts):
        if in_source(snippet, text):
            return [chunk_id]
    return section.chunk_ids[:1]


def stable_number(seed: str) -> int:
    return int(hashlib.sha1(seed.encode()).hexdigest()[:8], 16)


def exercise_dict(kind: str, bloom: str, prompt: str, content: dict, explanation: str, chunks: list[str]) -> dict:
    return {
        "type": kind,
        "bloom_level": bloom,
        "prompt": prompt,
        "content": content,
        "explanation": explanation,
        "source_chunk_ids": chunks,
    }


def masked(sentence: str, term: str) -> str | None:
    pattern = re.compile(rf"(?<![\wÀ-ÿ]){re.escape(term)}(?![\wÀ-ÿ])", re.IGNORECASE)
    return pattern.sub("___", sentence, count=1) if pattern.search(sentence) else None


class Facts:
    """The module's fact sentences (each with its section), the document's values by kind, and the sentences
    already asked about (no sentence serves two exercises of a module)."""

    def __init__(self, sections: list[Section], corpus: list[str]):
        self.sections = sections
        self.items = list(
            {
                s: sec
                for sec in sections
                for s in fact_sentences(sec.text)
                if stands_alone(s) and not re.search(r"[*`]", s)
            }.items()
        )
        self.pool = value_pool([s for text in corpus for s in fact_sentences(text)] + [s for s, _ in self.items])
        self.source = "\n".join(corpus)
        self.used: set[str] = set()

    def fresh(self) -> list[tuple[str, Section]]:
        """Sentences no exercise used yet; rules last, so recall leaves them to the practical cases."""
        return sorted(
            ((s, sec) for s, sec in self.items if s not in self.used), key=lambda pair: bool(rule_of(pair[0]))
        )
