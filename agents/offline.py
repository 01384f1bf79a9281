"""The offline engine's toolkit, shared by every agent's deterministic twin.

Real logic over the user's words and the retrieved text — sentence splitting, extractive answers
with citation markers, exemplar matching by embedding, language detection, localized templates —
streamed word by word so the UI path is the same as a model's.
"""

from __future__ import annotations

import functools
import re
import threading
from collections.abc import Iterator

import numpy as np

from agents.ingestion.pipeline import language_identifier
from core.text import STOPWORDS, fold

MAX_CANDIDATES = 20  # sentences embedded per answer: embedding is the slow part (~0.1 s a sentence)

# Short or ambiguous messages ("hola", "hi") defeat statistical detection; these words decide them.
_LEXICON = {
    "es": {
        "hola",
        "gracias",
        "buenas",
        "buenos",
        "días",
        "dias",
        "tardes",
        "noches",
        "qué",
        "que",
        "cómo",
        "como",
        "cuál",
        "cual",
        "cuándo",
        "cuando",
        "dónde",
        "donde",
        "por",
        "para",
        "quiero",
        "necesito",
        "ayuda",
        "sí",
        "vale",
        "adiós",
        "adios",
        "el",
        "los",
        "las",
        "una",
        "es",
        "mi",
        "tengo",
        "puedo",
        "favor",
        "curso",
        "cursos",
        "vacaciones",
        "contraseña",
        "perdón",
        "hasta",
        "luego",
        "con",
        "del",
    },
    "en": {
        "hi",
        "hello",
        "hey",
        "thanks",
        "thank",
        "you",
        "yes",
        "please",
        "the",
        "what",
        "how",
        "when",
        "where",
        "which",
        "why",
        "is",
        "are",
        "my",
        "i",
        "want",
        "need",
        "help",
        "bye",
        "goodbye",
        "good",
        "morning",
        "evening",
        "can",
        "do",
        "does",
        "course",
        "courses",
        "password",
        "holiday",
        "sorry",
        "of",
        "and",
        "to",
        "with",
    },
    "vi": {"chào", "xin", "cảm", "ơn", "không", "tôi", "bạn", "là", "có", "gì", "học"},
}
_VIETNAMESE = re.compile(r"[ăơưđạảấầẩẫậắằẳẵặẹẻẽếềểễệỉịọỏốồổỗộớờởỡợụủứừửữựỳỵỷỹ]", re.IGNORECASE)
_WORD = re.compile(r"[^\W\d_]+", re.UNICODE)


@functools.lru_cache(maxsize=4096)  # a tutor turn asks of its message five times (intent, searches, checks)
def detect_language(text: str, default: str = "es") -> str:
    """The language to reply in: "es", "en", "vi", "pt", "fr", "de" or "it"; ``default`` if unsure."""
    text = (text or "").strip()
    words = [word.lower() for word in _WORD.findall(text)]
    if not words:
        return default
    if _VIETNAMESE.search(text):
        return "vi"
    if "¿" in text or "¡" in text or "ñ" in text.lower():
        return "es"
    votes = {lang: sum(word in lexicon for word in words) for lang, lexicon in _LEXICON.items()}
    best = max(votes, key=votes.__getitem__)
    decided_by_words = votes[best] > 0 and list(votes.values()).count(votes[best]) == 1
    if decided_by_words and len(words) <= 3:
        return best
    if len(words) <= 3:  # too short for a 7-way guess: only a clear Spanish/English lead counts
        ranks = dict(language_identifier().rank(text))
        spanish, english = ranks.get("es", 0.0), ranks.get("en", 0.0)
        if max(spanish, english) >= 2.5 * min(spanish, english) and max(spanish, english) > 0.2:
            return "es" if spanish > english else "en"
        return default
    lang, confidence = language_identifier().classify(text)
    if confidence >= 0.6:
        return lang
    return best if decided_by_words else default


# -- sentences -----------------------------------------------------------------------------------
_ABBREVIATIONS = {
    "sr",
    "sra",
    "srta",
    "dr",
    "dra",
    "ud",
    "uds",
    "etc",
    "ej",
    "p",
    "pág",
    "págs",
    "núm",
    "art",
    "arts",
    "aprox",
    "cap",
    "dto",
    "tel",
    "vs",
    "mr",
    "mrs",
    "ms",
    "prof",
    "st",
    "no",
    "nº",
    "fig",
    "approx",
    "inc",
    "ltd",
    "co",
    "corp",
    "dept",
    "e.g",
    "i.e",
    "cf",
    "al",
    "vol",
    "ed",
    "jr",
    "sa",
    "s.a",
    "av",
}
_LIST_MARKER = re.compile(r"^\s*(?:[-*•·‣▪]|\(?\d{1,3}[.)]|\(?[a-zA-Z][.)])\s+")
_HEADING = re.compile(r"^\s*#{1,6}\s+")
_BOUNDARY = re.compile(r"(?<=[.!?…])[\"'”’»)\]]*\s+(?=[¿¡\"'“‘«(\[]?[A-ZÁÉÍÓÚÑÜÀÈÌÒÙÂÊÎÔÛÇĐ0-9])")


def _blocks(text: str) -> Iterator[str]:
    """Paragraphs, list items, headings and table rows as separate blocks; wrapped lines joined back.

    A Markdown table row becomes one statement that names its columns ("País: España, Máximo: 120 EUR.").
    """
    current: list[str] = []
    header: list[str] | None = None
    for line in text.splitlines():
        is_row = line.strip().startswith("|")
        if not line.strip() or is_row or _LIST_MARKER.match(line) or _HEADING.match(line):
            if current:
                yield " ".join(current)
            current = []
        if not is_row:
            header = None
        if is_row:
            cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
            if not any(cell.strip("-: ") for cell in cells):
                continue  # the |---| rule under the header
            if header is None:
                header = cells
            elif len(header) == len(cells):
                yield ", ".join(f"{name}: {cell}" if name else cell for name, cell in zip(header, cells)) + "."
            else:
                yield ", ".join(cells) + "."
        elif _HEADING.match(line):  # a heading never runs into the next line
            yield _HEADING.sub("", line).strip()
        elif line.strip():
            current.append(_LIST_MARKER.sub("", line).strip())
    if current:
        yield " ".join(current)


def split_sentences(text: str) -> list[str]:
    """Sentences in order; aware of es/en abbreviations, decimals, initials and list items."""
    sentences: list[str] = []
    for block in _blocks(text or ""):
        pieces = _BOUNDARY.split(re.sub(r"\s+", " ", block))
        merged: list[str] = []
        for piece in pieces:
            previous = merged[-1] if merged else ""
            last_word = previous.rstrip(".").rsplit(" ", 1)[-1].lower().lstrip("(¿¡\"'")
            if (
                merged
                and previous.endswith(".")
                and (last_word in _ABBREVIATIONS or len(last_word) == 1 and last_word.isalpha())
            ):
                merged[-1] = f"{previous} {piece}"
            else:
                merged.append(piece)
        sentences.extend(sentence.strip() for sentence in merged if sentence.strip())
    return sentences


# -- extractive answers --------------------------------------------------------------------------
def _terms(text: str) -> set[str]:
    """Content words, accent-folded and cut to a 5-letter stem (vacaciones ~ vacación, policy ~ policies)."""
    return {fold(word)[:5] for word in _WORD.findall(text) if fold(word) not in STOPWORDS and len(word) > 1}


_vector_cache: dict[str, np.ndarray] = {}
_vector_lock = threading.Lock()


def sentence_vectors(sentences: list[str]) -> np.ndarray:
    """Passage embeddings by text, computed in one batch for the ones not seen before."""
    from agents.ingestion.embeddings import embed_passages

    with _vector_lock:
        missing = list(dict.fromkeys(s for s in sentences if s not in _vector_cache))
    if missing:
        vectors = embed_passages(missing)
        with _vector_lock:
            if len(_vector_cache) > 20_000:
                _vector_cache.clear()
            _vector_cache.update(zip(missing, vectors))
    return np.vstack([_vector_cache[s] for s in sentences])


_STATEMENT_WORDS = 6  # an unpunctuated line with fewer words is a heading or a page footer, not an answer


_TITLE_BLOCK = re.compile(r"·.*·")  # "Document code: HR-ONB-001 · Version 2.0 · Owner: People & Culture · …"
# a line in italics, whichever sentence of it: "*Source: Contributor Covenant 2.1. Licence CC BY 4.0.*"
_SOURCE_LINE = re.compile(r"^\s*\*[^*\s]|[^*\s]\*\s*$")


def answer_candidates(passages: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """(number, sentence) in document order, statements only: headings, page footers
    ("Acme Retail · POL-SEC-001 · Page 3/8"), a document's title block and its source line are not answers."""

    def statement(sentence: str) -> bool:
        if _TITLE_BLOCK.search(sentence) or _SOURCE_LINE.search(sentence):
            return False
        if sentence[-1:] in ".!?;":
            return len(sentence.split()) >= 3
        return len(sentence) >= 25 and len(_WORD.findall(sentence)) >= _STATEMENT_WORDS

    return [
        (number, sentence) for number, text in passages for sentence in split_sentences(text) if statement(sentence)
    ]


def cite_chosen(candidates: list[tuple[int, str]], chosen: list[int], max_chars: int) -> str:
    """The chosen candidates in the given order, each run of one passage's sentences followed by its [n]."""
    parts: list[str] = []
    for k, i in enumerate(chosen):
        number, sentence = candidates[i]
        if len(chosen) == 1 and len(sentence) > max_chars:
            sentence = sentence[:max_chars].rsplit(" ", 1)[0] + "…"
        parts.append(sentence)
        if k + 1 == len(chosen) or candidates[chosen[k + 1]][0] != number:
            parts[-1] += f" [{number}]"
    return " ".join(parts)


def extractive_answer(
    question: str,
    passages: list[tuple[int, str]],
    max_chars: int = 900,
    *,
    margin: float = 0.06,
    max_sentences: int | None = None,
) -> str:
    """The passages' sentences that best answer ``question``, in document order, each run of
    sentences followed by the [n] marker of the passage it came from; "" when there is nothing.
    A sentence is kept when it scores within ``margin`` of the best (at most ``max_sentences``)."""
    from agents.ingestion.embeddings import embed_query

    candidates = answer_candidates(passages)
    if not candidates:
        return ""
    asked = _terms(question)
    overlap = [len(asked & _terms(sentence)) / (len(asked) or 1) for _, sentence in candidates]
    shortlist = sorted(range(len(candidates)), key=lambda i: (-overlap[i], i))[:MAX_CANDIDATES]
    vectors = sentence_vectors([candidates[i][1] for i in shortlist])
    similarity = vectors @ embed_query(question)
    score = {i: float(similarity[k]) + 0.1 * overlap[i] for k, i in enumerate(shortlist)}
    ranked = sorted(shortlist, key=lambda i: -score[i])
    best = score[ranked[0]]
    chosen: list[int] = []
    used = 0
    for i in ranked:
        sentence = candidates[i][1]
        if chosen and (
            score[i] < best - margin
            or used + len(sentence) + 5 > max_chars
            or (max_sentences is not None and len(chosen) >= max_sentences)
        ):
            continue
        chosen.append(i)
        used += len(sentence) + 5
    return cite_chosen(candidates, sorted(chosen), max_chars)


# -- intents and tools ---------------------------------------------------------------------------
EXEMPLAR_SETS_KEPT = 512  # fixed sets (intents, tools) plus the exercise prompts the guardrail compares with


@functools.lru_cache(maxsize=EXEMPLAR_SETS_KEPT)
def _exemplar_vectors(key: tuple[tuple[str, tuple[str, ...]], ...]) -> tuple[list[str], np.ndarray]:
    from agents.ingestion.embeddings import embed_query

    labels = [label for label, examples in key for _ in examples]
    vectors = np.vstack([embed_query(example) for _, examples in key for example in examples])
    return labels, vectors


@functools.lru_cache(maxsize=EXEMPLAR_SETS_KEPT)
def _exemplar_phrases(key: tuple[tuple[str, tuple[str, ...]], ...]) -> list[tuple[str, re.Pattern]]:
    """Each exemplar folded into a whole-word pattern, in order (built once: every tutor turn asks)."""
    phrases = [
        (label, " ".join(fold(word) for word in _WORD.findall(example)))
        for label, examples in key
        for example in examples
    ]
    return [(label, re.compile(rf"\b{re.escape(phrase)}\b")) for label, phrase in phrases if phrase]


def match_exemplars(text: str, exemplars: dict[str, list[str]]) -> tuple[str, float]:
    """The label whose exemplar sentences are most similar to ``text`` and that similarity (cosine).

    An exemplar contained word for word in the text scores 1.0 (a command typed as taught).
    """
    key = tuple((label, tuple(examples)) for label, examples in exemplars.items() if examples)
    if not key or not (text or "").strip():
        return "", 0.0
    folded = " ".join(fold(word) for word in _WORD.findall(text))
    for label, phrase in _exemplar_phrases(key):
        if phrase.search(folded):
            return label, 1.0
    from agents.ingestion.embeddings import embed_query

    labels, vectors = _exemplar_vectors(key)
    similarity = vectors @ embed_query(text)
    best = int(np.argmax(similarity))
    return labels[best], float(similarity[best])


def closest_labels(text: str, exemplars: dict[str, list[str]], k: int = 3) -> list[str]:
    """The ``k`` labels whose exemplars are most similar to ``text``, best first (embeddings only:
    for "nothing matched by name, what comes closest")."""
    key = tuple((label, tuple(examples)) for label, examples in exemplars.items() if examples)
    if not key or not (text or "").strip():
        return []
    from agents.ingestion.embeddings import embed_query

    labels, vectors = _exemplar_vectors(key)
    best: dict[str, float] = {}
    for label, score in zip(labels, (vectors @ embed_query(text)).tolist()):
        best[label] = max(score, best.get(label, -1.0))
    return sorted(best, key=best.__getitem__, reverse=True)[:k]


# -- phrasing and streaming ----------------------------------------------------------------------
def localized(texts: dict[str, str], lang: str) -> str:
    """``texts[lang]``, else English, else Spanish, else any: templates need not cover every language."""
    for candidate in (lang, "en", "es"):
        if texts.get(candidate):
            return texts[candidate]
    return next(iter(texts.values()), "")


def stream_words(text: str) -> Iterator[str]:
    """Word-plus-trailing-space tokens, like a model's stream; joined they give ``text`` back exactly."""
    yield from re.findall(r"\s*\S+\s*", text or "") or ([text] if text else [])
