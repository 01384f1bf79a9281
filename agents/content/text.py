"""Reading source text without a model: words, sentences, facts, procedures, key terms, Bloom levels (a source's
sections and their citations are in sections.py).

The offline twins (twins.py, exercises.py, review.py) build everything from these, so whatever they
produce can be traced back to a sentence of the source.
"""

from __future__ import annotations

import functools
import math
import re
from collections import Counter

from agents.content.facts import values as fact_values
from agents.offline import split_sentences
from core.text import STOPWORDS, fold

_WORD = re.compile(r"[A-Za-zÁÉÍÓÚÑÜáéíóúñüÀ-ÿ][\wÁÉÍÓÚÑÜáéíóúñüÀ-ÿ\-]+")
_ITEM = re.compile(r"^\s*(?:(\d{1,2})[.)]|[-*•·])\s+(.+?)\s*$")
_NUMBER = re.compile(r"\b\d+(?:[.,]\d+)?\b")
_BLOOM_VERBS = {
    "create": ("diseñar", "crear", "proponer", "elaborar", "design", "create", "propose", "devise", "plan"),
    "evaluate": (
        "evaluar",
        "valorar",
        "decidir",
        "justificar",
        "priorizar",
        "evaluate",
        "decide",
        "judge",
        "justify",
        "prioritise",
        "prioritize",
        "aprobar",
        "approve",
    ),
    "analyze": (
        "analizar",
        "comparar",
        "distinguir",
        "diagnosticar",
        "identificar",
        "revisar",
        "verificar",
        "comprobar",
        "analyse",
        "analyze",
        "compare",
        "distinguish",
        "diagnose",
        "identify",
        "check",
        "verify",
        "review",
        "inspect",
    ),
    "apply": (
        "aplicar",
        "realizar",
        "registrar",
        "entregar",
        "completar",
        "enviar",
        "solicitar",
        "gestionar",
        "atender",
        "usar",
        "utilizar",
        "preparar",
        "llamar",
        "pulsar",
        "abrir",
        "introducir",
        "rellenar",
        "apply",
        "perform",
        "record",
        "complete",
        "send",
        "submit",
        "request",
        "handle",
        "use",
        "prepare",
        "call",
        "press",
        "open",
        "enter",
        "fill",
        "process",
        "follow",
    ),
}
CUSTOMER_WORDS = (
    "cliente",
    "clientes",
    "customer",
    "customers",
    "client",
    "clients",
    "comprador",
    "shopper",
    "usuario",
    "visitante",
    "visitor",
    "consumidor",
    "consumer",
    "huésped",
    "guest",
)


def words(text: str) -> list[str]:
    return _WORD.findall(text)


@functools.lru_cache(maxsize=4096)
def _content_words(text: str) -> tuple[str, ...]:
    return tuple(w for w in words(text) if len(w) > 3 and fold(w) not in STOPWORDS)


def content_words(text: str) -> list[str]:
    return list(_content_words(text))


def snake(text: str, limit: int = 40) -> str:
    return re.sub(r"[^a-z0-9]+", "_", fold(text)).strip("_")[:limit] or "tema"


# "Código: POL-GAS-002 · Versión 5.0 · Responsable: …", "Document code: HR-ONB-001 · Version 2.0 · Owner: …"
_FIELD_SEPARATOR = re.compile(r"\s[·|•]\s")
_FIELD = re.compile(r"^\W*(?:[^\W\d][\w ./()&-]{0,30}:\s*\S|(?:v|version|versión|rev\.?|revision|revisión)\s?\d)", re.I)


def is_record_line(line: str) -> bool:
    """A document's record card (its code, version, owner, scope as fields separated by "·"): what a document
    is, never a statement to teach or ask about."""
    fields = _FIELD_SEPARATOR.split(line.strip())
    return len(fields) >= 3 and sum(bool(_FIELD.match(field)) for field in fields) >= 2


def _prose_runs(text: str) -> list[str]:
    """The text's paragraphs without its lists (an item's indented continuation lines belong to the item) and
    without a record card line."""
    runs, current, in_item = [], [], False
    for line in text.splitlines() + [""]:
        if is_record_line(line):
            line = ""
        if _ITEM.match(line):
            in_item = True
        elif in_item and line.strip() and line.startswith((" ", "\t")):
            continue
        elif line.strip():
            in_item = False
            current.append(line.strip())
            continue
        if current:
            runs.append(" ".join(current))
            current = []
    return runs


_DANGLING = re.compile(
    r"\b(?:with|to|the|a|an|of|for|and|or|but|include|includes|including|as|such as|from|by|"
    r"de|con|el|la|los|las|y|o|pero|para|por|en|del|al|que|como|incluye|incluyen|entre)$",
    re.IGNORECASE,
)


def is_whole(sentence: str) -> bool:
    """A sentence a reader takes as complete: it starts as a sentence starts and does not stop mid-clause
    ("Through WorkLife4You, you can get assistance with" introduces a list; it states nothing)."""
    text = sentence.strip().strip("*_")
    return (
        bool(text)
        and (text[0].isupper() or text[0].isdigit() or text[0] in '¿¡"“«([$€')
        and not _DANGLING.search(text.rstrip(" ."))
        and not text.endswith((",", ";", "…", "..."))
    )


# "Jump to Step 3: What to …" is a link's text; "*Source: … leave.md)." half of an italic line the sentence cut left
_NAVIGATION = re.compile(r"^(?:Jump|Skip|Go back|Back|Return) to\b|^(?:Ir|Volver|Saltar) a\b", re.IGNORECASE)
_LONE_STAR, _HALF_ITALIC = re.compile(r"(?<![*\\])\*(?!\*)"), re.compile(r"^\*(?!\*)|(?<![*\\])\*$")


def sentences(text: str) -> list[str]:
    """Whole prose sentences, paragraph by paragraph (list items excluded: they are steps, not statements)."""
    return [
        _HALF_ITALIC.sub("", s, count=1) if len(_LONE_STAR.findall(s)) % 2 else s
        for run in _prose_runs(text)
        for s in split_sentences(run)
        if len(s) >= 25 and not s.endswith((":", "?")) and is_whole(s) and not _NAVIGATION.match(s)
    ]


_RULE_WORD = re.compile(
    r"\b(debe|deben|siempre|nunca|obligatori\w*|máximo|mínimo|plazo|must|always|never|"
    r"required|requires?|within|at least|at most|no se|not|cannot|can't|only|solo|sólo|"
    r"need to|needs to|have to|has to|tiene que|tienen que|if|si|unless|salvo)\b",
    re.IGNORECASE,
)


def fact_sentences(text: str) -> list[str]:
    """Sentences that state a fact a learner must keep: a figure, a date, a deadline, an obligation, a rule."""
    found = [s for s in sentences(text) if len(s) <= 320 and (fact_values(s) or _RULE_WORD.search(s))]
    return found or [s for s in sentences(text) if 30 <= len(s) <= 320]


def item_lists(text: str) -> list[tuple[bool, str, list[str]]]:
    """(numbered, the line introducing it, items) of every list of three or more items. Blank lines between
    items don't end a list (DOCX and PDF put one after each item); indented lines continue an item."""
    found, lines, i = [], text.splitlines(), 0
    while i < len(lines):
        first = _ITEM.match(lines[i])
        if not first:
            i += 1
            continue
        before = [j for j in range(i - 1, -1, -1) if lines[j].strip()][:1]
        start = before[0] if before else i
        while before and start > 0 and lines[start - 1].strip() and not _ITEM.match(lines[start - 1]):
            start -= 1  # a hard-wrapped paragraph introduces the list as a whole
        intro = " ".join(lines[j].strip() for j in range(start, before[0] + 1)) if before else ""
        numbered, items = first.group(1) is not None, []
        while i < len(lines):
            item = _ITEM.match(lines[i])
            if item:
                items.append(item.group(2).strip())
            elif lines[i].strip() and lines[i].startswith((" ", "\t")) and items:
                items[-1] += " " + lines[i].strip()
            elif lines[i].strip():
                break
            i += 1
        if len(items) >= 3:
            intro = re.split(r"(?<=[.!?])\s+", intro)[-1] if intro.endswith(":") else ""
            found.append((numbered, intro, items))
    return found


def procedures(text: str) -> list[list[str]]:
    """Lists of three or more items, numbered lists first (they are procedures)."""
    return [items for numbered, _, items in sorted(item_lists(text), key=lambda found: not found[0])]


def numbered_procedures(text: str) -> list[list[str]]:
    """Numbered lists only: the sequences a text really gives (what step ordering may ask about)."""
    return [items for numbered, _, items in item_lists(text) if numbered]


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
def _document_frequencies(corpus: tuple[str, ...]) -> Counter[str]:
    doc_freq: Counter[str] = Counter()
    for other in corpus:
        doc_freq.update({w.lower() for w in content_words(other)})
    return doc_freq


_AMOUNT = re.compile(r"([€$]\s?)?\d[\d.,]*\s*(%|[€$]|[^\W\d_]{1,12})?\.?")
_UNIT_KINDS = {
    "time": (
        "seg",
        "sec",
        "min",
        "hora",
        "hour",
        "h",
        "dia",
        "day",
        "sema",
        "week",
        "mes",
        "mont",
        "ano",
        "year",
        "jorn",
    ),
    "money": ("€", "$", "euro", "dola", "doll", "usd", "eur", "cent"),
}


def option_kind(option: str) -> str:
    """What kind of answer an option is, so a quiz's distractors can be of the answer's kind: an amount and
    its unit (time, money, percent, or the unit word), an acronym, a statement (a clause), or a term."""
    text = option.strip()
    amount = _AMOUNT.fullmatch(text)
    if amount:
        unit = "€" if amount.group(1) else fold(amount.group(2) or "")
        if unit == "%":
            return "amount:percent"
        kind = next(
            (
                k
                for k, prefixes in _UNIT_KINDS.items()
                if any(unit == p or (len(p) > 1 and unit.startswith(p)) for p in prefixes)
            ),
            unit[:4],
        )
        return f"amount:{kind}"
    if re.fullmatch(r"[A-Z][A-Z0-9]{1,5}s?", text):
        return "acronym"
    return "statement" if len(words(text)) >= 6 else "term"


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
