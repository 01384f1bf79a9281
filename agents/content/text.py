"""Reading source text without a model: sections, key terms, facts, procedures, Bloom levels, citations.

The offline twins (twins.py, exercises.py, review.py) build everything from these, so whatever they
produce can be traced back to a sentence of the source.
"""

from __future__ import annotations

import functools
import html
import math
import re
from collections import Counter
from dataclasses import dataclass, field

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


@dataclass
class Section:
    """One heading's text in one document, with the chunks it lies in (``texts[i]`` is its part of
    ``chunk_ids[i]``: a chunk can hold several small sections)."""

    document_id: str
    document_title: str
    heading: str  # the last part of the heading path
    path: str  # "A > B > C"
    page: int | None
    chunk_ids: list[str] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)
    position: int = 0

    @property
    def key(self) -> str:
        return f"{self.document_id}:{self.position}"

    @property
    def level(self) -> int:
        return max(1, self.path.count(" > ") + 1) if self.path else 1

    @property
    def parts(self) -> list[str]:
        return [p.strip() for p in self.path.split(" > ")] if self.path else []

    @property
    def text(self) -> str:
        return "\n\n".join(self.texts)


_TAG = re.compile(r"</?[A-Za-z][^<>\n]{0,300}>|<!--.*?-->", re.DOTALL)
_MD_LINK = re.compile(r"!?\[([^\]\n]+)\]\([^)\s]*\)")
_LIQUID = re.compile(r"\{%.*?%\}|\{\{.*?\}\}", re.DOTALL)


_INLINE_BULLET = re.compile(r"(?:^|\s)[•▪]\s+")
# a PDF's running footer ("Acme Retail · POL-SEC-001 · Page 6/8") read into the text
_PAGE_FOOTER = re.compile(
    r"\s*(?:[^\s·.!?:][^·\n.!?:]{0,40}\s·\s){1,3}(?:Page|Página|Pág\.?|p\.)\s?\d+\s?(?:/|de|of)\s?\d+\b", re.IGNORECASE
)
_INLINE_NUMBER = re.compile(r"(?<=[.:;])\s+(\d{1,2})\)\s+(?=[A-ZÁÉÍÓÚ¿¡])|(?<=:)\s+(1)\.\s+(?=[A-ZÁÉÍÓÚ¿¡])")


def clean_text(text: str) -> str:
    """Source text without markup a lesson must not show: HTML tags, template tags, link targets; bullets a
    PDF ran together on one line become list lines again."""
    text = _PAGE_FOOTER.sub("", _LIQUID.sub("", _TAG.sub("", text)))
    text = _INLINE_BULLET.sub("\n- ", html.unescape(_MD_LINK.sub(r"\1", text)))
    text = _INLINE_NUMBER.sub(lambda m: f"\n{m.group(1) or m.group(2)}) ", text)
    return text.strip()


def _chunk_parts(chunk, spans: list | None) -> list[tuple[str, str, int | None]]:
    """(heading path, text, page) of each heading's part of the chunk, in order."""
    if not spans:
        return [(chunk.heading or "", chunk.content, chunk.page_start)]
    starts = [int(span[0]) for span in spans] + [len(chunk.content) + 2]
    return [
        (span[1] or "", chunk.content[start:end].strip(), span[2] if span[2] is not None else chunk.page_start)
        for span, start, end in zip(spans, starts, starts[1:])
    ]


def sections_from_chunks(chunks, spans_by_chunk: dict | None = None) -> list[Section]:
    """Chunks (storage.documents.Chunk, in document order) regrouped into the document's sections, using
    the heading spans ingestion recorded (older chunks: one section per chunk heading)."""
    sections: list[Section] = []
    for chunk in chunks:
        for path, raw, page in _chunk_parts(chunk, (spans_by_chunk or {}).get(chunk.id)):
            text = clean_text(raw)
            if not text:
                continue
            current = sections[-1] if sections else None
            if current is None or current.document_id != str(chunk.document_id) or current.path != path:
                heading = path.split(" > ")[-1].strip() if path else chunk.document_title
                current = Section(
                    str(chunk.document_id), chunk.document_title, heading, path, page, position=len(sections)
                )
                sections.append(current)
            current.chunk_ids.append(str(chunk.id))
            current.texts.append(text)
    return nest_numbered(sections)


_HEADING_NUMBER = re.compile(r"^(\d+(?:\.\d+)*)(?:[.)]|\s)")


def nest_numbered(sections: list[Section]) -> list[Section]:
    """Headings numbered "3.1", "3.2" written at the same level as "3." (common in Word and PDF policies)
    become its children, as their numbers say, with whatever lies under them."""
    moved: dict[tuple, list[str]] = {}  # an original path -> the path it became
    numbered: dict[tuple, tuple[list[str], list[str]]] = {}  # (document, number) -> (source parent, new path)
    for section in sections:
        parts = section.parts
        prefix = max(
            (k for k in moved if k[0] == section.document_id and tuple(parts[: len(k) - 1]) == k[1:]),
            key=len,
            default=None,
        )
        if prefix is not None:
            parts = moved[prefix] + parts[len(prefix) - 1 :]
        number = _HEADING_NUMBER.match(parts[-1]) if parts else None
        if number:
            digits = number.group(1)
            parent = numbered.get((section.document_id, digits.rsplit(".", 1)[0])) if "." in digits else None
            if parent is not None and parent[0] == section.parts[:-1]:  # a sibling of its parent number: nest it
                moved[(section.document_id, *section.parts)] = parent[1] + parts[-1:]
                parts = parent[1] + parts[-1:]
            numbered[(section.document_id, digits)] = (section.parts[:-1], parts)
        section.path = " > ".join(parts)
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
    return {
        "document": section.document_title,
        "section": section.heading,
        "page": section.page,
        "chunk_id": chunk_id or section.chunk_ids[0],
    }


def _prose_runs(text: str) -> list[str]:
    """The text's paragraphs without its lists (an item's indented continuation lines belong to the item)."""
    runs, current, in_item = [], [], False
    for line in text.splitlines() + [""]:
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
    r"\b(?:with|to|the|a|an|of|for|and|or|include|includes|including|as|such as|from|by|"
    r"de|con|el|la|los|las|y|o|para|por|en|del|al|que|como|incluye|incluyen|entre)$",
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
        and not text.endswith((",", ";", "…"))
    )


def sentences(text: str) -> list[str]:
    """Whole prose sentences, paragraph by paragraph (list items excluded: they are steps, not statements)."""
    return [
        s
        for run in _prose_runs(text)
        for s in split_sentences(run)
        if len(s) >= 25 and not s.endswith((":", "?")) and is_whole(s)
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
