"""What a question is about, and how much of it a sentence says: the answer check's key terms (issue 29).

A question's key terms are its content words less the words that say how it is asked ("how many", "puedo",
"now"); a sentence covers a term by the same stem, by a word the glossary (core.glossary) gives for it in the
other language, or, for a term the glossary doesn't know, by a word the multilingual model puts at
EQUIVALENT_WORDS or nearer. Moved out of agents/tutor/answer_check.py (the 350-line limit); tuning in
seeds/eval/answers/TUNING.md.
"""

from __future__ import annotations

import re
import threading
from typing import TYPE_CHECKING

import numpy as np

from core import glossary
from core.text import content_words, fold

if TYPE_CHECKING:
    from agents.runtime.deps import Embedder

EQUIVALENT_WORDS = 0.93  # a word the glossary doesn't know pairs with a sentence's word this near (session 12)
STEM = glossary.STEM
# Words that say how a question is asked, not what it is about.
_ASKING_WORDS = """
many much long often soon quickly far time times amount kind sort tipo way need needs allowed able
cuanto cuanta cuantos cuantas tiempo plazo cantidad forma manera necesito puedo pueden tengo hay
company empresa acme employee employees empleado empleados staff personal alguien someone something algo
use using uses usar uso own propio propia get gets give given take dar tener estar esta within dentro
off libre libres dan hago now ahora approximately roughly aproximadamente
"""
# Words of conversation, not of documents: how an employee tells a situation ("a bloke reckons I should just…",
# "¿me lo pueden pasar acá nomás?"), never what a policy says; as key terms they kept a question's coverage under
# MIN_COVERAGE whatever the sentence said (session 19, TUNING.md)
_CONVERSATION_WORDS = """
actually really totally fully quite pretty basically literally exactly properly proper anyway anyways alright
okay sorted thing things stuff whatever somehow still already yet ever even maybe perhaps probably rather here
ago else reckon reckons wondering supposed meant happen happens bloke lad guy chap mate besides apart today
tonight yesterday aca alla ahi nomas todavia monton ratito rato cosa cosas verdad realmente exactamente ademas
hoy ayer anoche
"""
_ASKING = frozenset(fold(w) for w in (_ASKING_WORDS + _CONVERSATION_WORDS).split())


# "my new password", "soy nueva": the asker's situation, not the topic ("New York" is a name: kept)
_NEW = re.compile(r"\b(?i:new|nuev[oa]s?)\b(?!\s+[A-ZÁÉÍÓÚÑ])")


def key_terms(question: str, organisation: str = "") -> list[str]:
    """The question's words that say what it is about (folded, question words and fillers dropped); the words of
    the ``organisation``'s name are none: every document is about it ("¿Quién es el consejero delegado de Acme
    Retail?" is about a CEO, and the heading "1. Welcome to Acme Retail" says nothing of one)."""
    said, named = glossary.plain(_NEW.sub(" ", question)), set(content_words(fold(organisation)))  # "mala": "enfermo"
    return list(dict.fromkeys(w for w in content_words(said) if w not in _ASKING and w not in named))


_WORD_VECTORS_KEPT = 8192
_word_vectors: dict[object, dict[str, np.ndarray]] = {}  # per embedding function: a word's query vector
_word_lock = threading.Lock()


def _vectors(words: list[str], embedder: Embedder) -> np.ndarray:
    """The words' query vectors; the ones not kept yet are embedded in one batch (a new question's sentences
    bring ~10 words the glossary doesn't pair)."""
    with _word_lock:
        kept = _word_vectors.setdefault(embedder.embed_queries, {})
        known = {word: kept[word] for word in words if word in kept}
    missing = [word for word in dict.fromkeys(words) if word not in known]
    if missing:
        fresh = dict(zip(missing, embedder.embed_queries(missing)))
        known.update(fresh)
        with _word_lock:
            if len(kept) + len(fresh) > _WORD_VECTORS_KEPT:
                kept.clear()
            kept.update(fresh)
    return np.vstack([known[word] for word in words])


def coverage(terms: list[str], text: str, embedder: Embedder | None) -> float:
    """Share of ``terms`` the text holds: by stem, or by a word the glossary gives for it in the other
    language ("regalo" ~ "gift", "carretilla" ~ "forklift"); a term the glossary doesn't know, by a word
    the multilingual model puts at EQUIVALENT_WORDS or nearer (words only, with no ``embedder``)."""
    if not terms:
        return 1.0
    words = list(dict.fromkeys(content_words(text)))
    held = glossary.held(words)
    missing = [term for term in terms if not glossary.equivalents(term) & held]
    unknown = [term for term in missing if not glossary.knows(term)]
    covered = len(terms) - len(missing)
    if unknown and words and embedder is not None:
        covered += int(
            np.sum((_vectors(unknown, embedder) @ _vectors(words, embedder).T).max(axis=1) >= EQUIVALENT_WORDS)
        )
    return covered / len(terms)
