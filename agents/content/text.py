"""Reading source text without a model: sections, key terms, facts, procedures, Bloom levels, citations.

The offline twins (twins.py, exercises.py, review.py) build everything from these, so whatever they
produce can be traced back to a sentence of the source.
"""
from __future__ import annotations

import functools
import math
import re
from collections import Counter
from dataclasses import dataclass, field

from agents.offline import split_sentences
from agents.text import STOPWORDS, fold

_WORD = re.compile(r"[A-Za-zÁÉÍÓÚÑÜáéíóúñüÀ-ÿ][\wÁÉÍÓÚÑÜáéíóúñüÀ-ÿ\-]+")
_ITEM = re.compile(r"^\s*(?:(\d{1,2})[.)]|[-*•·])\s+(.+?)\s*$")
_NUMBER = re.compile(r"\b\d+(?:[.,]\d+)?\b")
_BLOOM_VERBS = {
    "create": ("diseñar", "crear", "proponer", "elaborar", "design", "create", "propose", "devise", "plan"),
    "evaluate": ("evaluar", "valorar", "decidir", "justificar", "priorizar", "evaluate", "decide", "judge",
                 "justify", "prioritise", "prioritize", "aprobar", "approve"),
    "analyze": ("analizar", "comparar", "distinguir", "diagnosticar", "identificar", "revisar", "verificar",
                "comprobar", "analyse", "analyze", "compare", "distinguish", "diagnose", "identify", "check",
                "verify", "review", "inspect"),
    "apply": ("aplicar", "realizar", "registrar", "entregar", "completar", "enviar", "solicitar", "gestionar",
              "atender", "usar", "utilizar", "preparar", "llamar", "pulsar", "abrir", "introducir", "rellenar",
              "apply", "perform", "record", "complete", "send", "submit", "request", "handle", "use", "prepare",
              "call", "press", "open", "enter", "fill", "process", "follow"),
}
CUSTOMER_WORDS = ("cliente", "clientes", "customer", "customers", "client", "clients", "comprador", "shopper",
                  "usuario", "visitante", "visitor", "consumidor", "consumer", "huésped", "guest")


def words(text: str) -> list[str]:
    return _WORD.findall(text)


@functools.lru_cache(maxsize=4096)
def _content_words(text: str) -> tuple[str, ...]:
    return tuple(w for w in words(text) if len(w) > 3 and fold(w) not in STOPWORDS)


def content_words(text: str) -> list[str]:
    return list(_content_words(text))


def snake(text: str, limit: int = 40) -> str:
    return re.sub(r"[^a-z0-9]+", "_", fold(text)).strip("_")[:limit] or "tema"


@dataclass
class Section:
    """Consecutive chunks of one document under one heading."""
    document_id: str
    document_title: str
    heading: str                 # the last part of the heading path
    path: str                    # "A > B > C"
    page: int | None
    chunk_ids: list[str] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)
    position: int = 0

    @property
    def level(self) -> int:
        return max(1, self.path.count(" > ") + 1) if self.path else 1

    @property
    def text(self) -> str:
        return "\n\n".join(self.texts)


def sections_from_chunks(chunks) -> list[Section]:
    """Chunks (storage.documents.Chunk, in document order) grouped into sections by heading."""
    sections: list[Section] = []
    for chunk in chunks:
        path = chunk.heading or ""
        current = sections[-1] if sections else None
        if current is None or current.document_id != str(chunk.document_id) or current.path != path:
            heading = path.split(" > ")[-1].strip() if path else chunk.document_title
            current = Section(str(chunk.document_id), chunk.document_title, heading, path, chunk.page_start,
                              position=len(sections))
            sections.append(current)
        current.chunk_ids.append(str(chunk.id))
        current.texts.append(chunk.content)
    return sections


def citation(section: Section | dict, language: str) -> str:
    """The citation marker of spec 004 §4.4: [Fuente: documento, sección, pág. N]."""
    doc = section.document_title if isinstance(section, Section) else section["document"]
    heading = section.heading if isinstance(section, Section) else section["section"]
    page = section.page if isinstance(section, Section) else section.get("page")
    if language == "en":
        return f"[Source: {doc}, {heading}" + (f", p. {page}]" if page else "]")
    return f"[Fuente: {doc}, {heading}" + (f", pág. {page}]" if page else "]")


def citation_entry(section: Section, chunk_id: str | None = None) -> dict:
    return {"document": section.document_title, "section": section.heading, "page": section.page,
            "chunk_id": chunk_id or section.chunk_ids[0]}


def sentences(text: str) -> list[str]:
    """Prose sentences (list items excluded: they are steps, not statements)."""
    prose = "\n".join(line for line in text.splitlines() if not _ITEM.match(line))
    return [s for s in split_sentences(prose) if len(s) >= 25 and not s.endswith((":", "?"))]


def fact_sentences(text: str) -> list[str]:
    """Declarative sentences worth asking about: specific (a number, a rule word) and not too long."""
    rule = re.compile(r"\b(debe|deben|siempre|nunca|obligatori|máximo|mínimo|plazo|must|always|never|"
                      r"required|within|at least|at most|no se|not)\b", re.I)
    found = [s for s in sentences(text) if 30 <= len(s) <= 260 and (_NUMBER.search(s) or rule.search(s))]
    return found or [s for s in sentences(text) if 30 <= len(s) <= 260]


def procedures(text: str) -> list[list[str]]:
    """Lists of three or more items, numbered lists first (they are procedures)."""
    lists: list[tuple[bool, list[str]]] = []
    current: list[str] = []
    numbered = False
    for line in text.splitlines() + [""]:
        match = _ITEM.match(line)
        if match:
            if not current:
                numbered = match.group(1) is not None
            current.append(match.group(2).strip())
        elif line.strip() and current and not line.startswith((" ", "\t")):
            lists.append((numbered, current))
            current = []
        elif not line.strip() and current:
            lists.append((numbered, current))
            current = []
    found = [(n, items) for n, items in lists if len(items) >= 3]
    found.sort(key=lambda pair: not pair[0])
    return [items for _, items in found]


def is_customer_facing(text: str) -> bool:
    folded = fold(text)
    return any(re.search(rf"\b{word}\b", folded) for word in map(fold, CUSTOMER_WORDS))


def key_terms(text: str, corpus: list[str], k: int = 8) -> list[str]:
    """The text's most distinctive content words (tf-idf against the other sections), in their source form."""
    counts = Counter(w.lower() for w in content_words(text))
    if not counts:
        return []
    doc_freq, n = _document_frequencies(tuple(corpus)), max(1, len(corpus))
    scored = sorted(counts, key=lambda w: (-counts[w] * math.log(1 + n / (1 + doc_freq[w])), w))
    forms = {w.lower(): w for w in content_words(text)}
    return [forms[w] for w in scored[:k]]


@functools.lru_cache(maxsize=64)
def _document_frequencies(corpus: tuple[str, ...]) -> Counter:
    doc_freq = Counter()
    for other in corpus:
        doc_freq.update({w.lower() for w in content_words(other)})
    return doc_freq


def bloom_level(text: str, content_type: str = "theory") -> str:
    """Bloom level from the verbs in the text and what kind of content it is."""
    folded = fold(text)
    has_steps = bool(procedures(text))
    for level in ("create", "evaluate", "analyze", "apply"):
        if any(re.search(rf"\b{fold(verb)}", folded) for verb in _BLOOM_VERBS[level]):
            if level == "apply" or has_steps or content_type in ("exercise", "example"):
                return level
    if has_steps or content_type == "exercise":
        return "apply"
    return "understand" if content_type in ("theory", "example") else "remember"


def overlap(a: str, b: str) -> float:
    """Share of ``a``'s content words found in ``b`` (accent-folded, 5-letter stems)."""
    stems_a = {fold(w)[:5] for w in content_words(a)}
    stems_b = {fold(w)[:5] for w in content_words(b)}
    return len(stems_a & stems_b) / len(stems_a) if stems_a else 0.0


@functools.lru_cache(maxsize=1024)
def normalized(text: str) -> str:
    return re.sub(r"\s+", " ", fold(text)).strip()


def in_source(snippet: str, source: str) -> bool:
    """Whether ``snippet`` appears in the source (case, accents and spacing ignored)."""
    return bool(snippet.strip()) and normalized(snippet).strip(" .") in normalized(source)
