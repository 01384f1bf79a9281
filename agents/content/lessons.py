"""Offline lessons that teach (the module writer's twin): selected and arranged, not pasted.

Per lesson, from its own sections: a lead (the first statement), key points (every fact sentence and a few
more, each once in the module), definitions (each term once), a real sequence as numbered steps and other
lists as lists, a table of figures whose rows are whole facts, a worked example when the text has one; the
module's recap lists what each lesson gave. Sentences are the source's, whole and as written ("37signals"
stays one word). Each line cites its source with ``[n]``; the lesson's citations list says which chunk (and
section heading) ``n`` is. ``copy_ratio`` measures how much of a section's text came back verbatim.
"""

from __future__ import annotations

import re

from agents.content.facts import figures, rule_of, topic_of
from agents.content.sections import Section
from agents.content.text import (
    content_words,
    fact_sentences,
    fold,
    is_whole,
    item_lists,
    key_terms,
    normalized,
    sentences,
    words,
)
from agents.i18n import t

MAX_KEY_STATEMENTS = 4  # besides the fact sentences, which all stay
MAX_DEFINITIONS = 3
MAX_LIST_ITEMS = 8
MAX_STEPS = 8
MAX_RECAP_TOPICS, MAX_RECAP_FIGURES = 3, 4
_NOT_RECALLED = ("amount:count", "year")  # a bare number or a year may be a reference, not a figure to keep
_RULE = re.compile(
    r"\b(debe|deben|siempre|nunca|obligatori\w*|prohibid\w*|máximo|mínimo|plazo|no se puede|"
    r"must|always|never|required|mandatory|within|at least|at most|may not|cannot|only)\b",
    re.IGNORECASE,
)
_DEFINITION = re.compile(
    r"^(?P<term>[A-ZÁÉÍÓÚÑ][^,.;:]{2,60}?)\s+(?:es|son|significa|se define como|se entiende por|"
    r"is|are|means|refers to|is defined as)\s+(?P<body>.{15,})$"
)
_PASSIVE = re.compile(r"^(?:not\s+|no\s+)?\w+(?:ed|en|ado|ada|ados|adas|ido|ida|idos|idas)\b", re.IGNORECASE)
_EXAMPLE = re.compile(r"\b(por ejemplo|p\. ej\.|imagina|for example|for instance|e\.g\.)\b", re.IGNORECASE)
_SEQUENCE = re.compile(
    r"\b(pasos|procedimiento|sigue|siguientes pasos|en orden|steps|procedure|follow these|"
    r"in order|as follows)\b",
    re.IGNORECASE,
)
_NOT_A_TERM = re.compile(
    r"^(?:unless|if|when|while|although|because|where|there|it|this|these|that|which|what|"
    r"here|si|cuando|aunque|mientras|porque|donde|esto|este|esta|estos|estas|eso|ello|"
    r"aquí|hay)\b",
    re.IGNORECASE,
)
_CITE = re.compile(r"\s*\[\d+\]$")
_TERM_ITEM = re.compile(r"^([^:.;]{2,50}):\s+(.{10,})$")


class Citations:
    """The lesson's numbered sources: one number per (chunk, section heading)."""

    def __init__(self):
        self.entries: list[dict] = []

    def mark(self, section: Section, snippet: str | None = None) -> str:
        chunk_id = _chunk_of(section, snippet) if snippet else section.chunk_ids[0]
        for n, entry in enumerate(self.entries, 1):
            if entry["chunk_id"] == chunk_id and entry["section"] == section.heading:
                return f"[{n}]"
        self.entries.append(
            {"document": section.document_title, "section": section.heading, "page": section.page, "chunk_id": chunk_id}
        )
        return f"[{len(self.entries)}]"


def _chunk_of(section: Section, snippet: str) -> str:
    wanted = normalized(snippet)[:80]
    for chunk_id, text in zip(section.chunk_ids, section.texts):
        if wanted and wanted in normalized(text):
            return chunk_id
    return section.chunk_ids[0]


def _score(sentence: str, terms: set[str]) -> float:
    """How much a sentence is worth keeping: rules, figures and the section's distinctive terms."""
    score = 2.0 * bool(_RULE.search(sentence)) + 1.5 * bool(re.search(r"\d", sentence))
    score += sum(fold(w) in terms for w in content_words(sentence)) * 0.5
    return score - 0.004 * max(0, len(sentence) - 180)


def _definition(sentence: str) -> tuple[str, str] | None:
    match = _DEFINITION.match(sentence)
    if (
        not match
        or len(words(match.group("term"))) > 5
        or " - " in match.group("term")
        or not _DEFINING_BODY.match(match.group("body"))
        or _PASSIVE.match(match.group("body"))
        or _NOT_A_TERM.match(match.group("term"))
        or match.group("term").lower() in _PRONOUNS
    ):
        return None
    return match.group("term").strip(), match.group("body").rstrip(".").strip()


_DEFINING_BODY = re.compile(r"(?:a|an|the|one of|any|un|una|el|la|los|las|uno de|una de|cualquier)\s", re.IGNORECASE)
_PRONOUNS = {"you", "we", "they", "he", "she", "i", "usted", "ustedes", "nosotros", "ellos", "ellas", "tú", "yo"}


def sentence_key(sentence: str) -> str:
    """What makes two sentences the same one for a reader: words, accents and case aside."""
    return normalized(re.sub(r"[*_`\[\]()]", "", _CITE.sub("", sentence))).strip(" .!")


def _bold_term(sentence: str, term: str) -> str:
    return sentence.replace(term, f"**{term}**", 1) if term in sentence and "**" not in sentence else sentence


def write_lesson(
    title: str, sections: list[Section], corpus: list[str], language: str, seen: set[str] | None = None
) -> tuple[str, list[dict]]:
    """(Markdown, citations) for one lesson built from its own sections: whole source sentences only, each at
    most once in the module (``seen`` holds the keys of those its earlier lessons used)."""
    seen = set() if seen is None else seen
    cites = Citations()
    blocks: list[str] = []
    folded_terms = {fold(w) for w in key_terms("\n\n".join(s.text for s in sections), corpus, 6)}
    candidates = []
    for sec in sections:
        for sentence in sentences(sec.text):  # a chunk can end mid-sentence: only finished ones are shown
            if sentence_key(sentence) not in seen and re.search(r"[.!?…:;\"”»)]$", sentence.rstrip("*_ ")):
                seen.add(sentence_key(sentence))
                candidates.append((sec, sentence))
    facts = {s for sec in sections for s in fact_sentences(sec.text)}
    lead = next((pair for pair in candidates if not _EXAMPLE.search(pair[1])), None)
    rest = [pair for pair in candidates if pair != lead]
    definitions: list[tuple[tuple[Section, str], str]] = []
    terms_used = {k for k in seen if k.startswith("term:")}
    for pair in rest:
        found = _definition(pair[1])
        if found and f"term:{fold(found[0])}" not in terms_used and len(definitions) < MAX_DEFINITIONS:
            terms_used.add(f"term:{fold(found[0])}")
            definitions.append((pair, found[0]))
    seen.update(terms_used)
    rest = [pair for pair in rest if pair not in [d for d, _ in definitions]]
    examples = [pair for pair in rest if _EXAMPLE.search(pair[1])][:1]
    rest = [pair for pair in rest if pair not in examples]
    figures = [(pair, shown) for pair in rest if pair[1] in facts and (shown := _figures_of(pair[1]))]
    rest = [pair for pair in rest if pair not in [f for f, _ in figures]]
    # every fact sentence stays (coverage); other sentences fill the key points up to the cap
    ranked = sorted(rest, key=lambda pair: (pair[1] not in facts, -_score(pair[1], folded_terms)))
    kept = ranked[: max(MAX_KEY_STATEMENTS, sum(pair[1] in facts for pair in rest))]
    key_points = [pair for pair in rest if pair in kept]
    for pair in [p for p in rest if p not in kept]:
        seen.discard(sentence_key(pair[1]))  # not shown: a later lesson or an exercise may use it

    if lead:
        blocks.append(f"{lead[1]} {cites.mark(*lead)}")
    if key_points:
        blocks.append(
            _cited_list(t("content.lesson.key_points", language), [(sec, s, s) for sec, s in key_points], cites)
        )
    if definitions:
        blocks.append(
            _cited_list(
                t("content.lesson.definitions", language),
                [(sec, s, _bold_term(s, term)) for (sec, s), term in definitions],
                cites,
            )
        )
    for sec in sections:
        blocks += _lists(sec, cites, language)
    if figures:
        blocks.append(
            _cited_list(
                t("content.lesson.figures", language),
                [(sec, s, f"**{found}** — {s}") for (sec, s), found in figures],
                cites,
            )
        )
    if examples:
        ((sec, sentence),) = examples
        blocks.append(f"#### {t('content.lesson.example', language)}\n\n> {sentence} {cites.mark(sec, sentence)}")
    if not cites.entries and sections:  # nothing to select from (a table, a title page): its text, cited
        blocks.insert(0, f"{sections[0].texts[0].strip()} {cites.mark(sections[0])}")
    return "\n\n".join(blocks), cites.entries


def _cited_list(heading: str, rows: list[tuple[Section, str, str]], cites: Citations) -> str:
    """A headed list of (section, source sentence, line shown); lines citing the same chunk run together and
    their run ends with the citation, so each paragraph cites once."""
    runs: list[tuple[str, list[str]]] = []
    for sec, sentence, line in rows:
        mark = cites.mark(sec, sentence)
        if runs and runs[-1][0] == mark:
            runs[-1][1].append(f"- {line}")
        else:
            runs.append((mark, [f"- {line}"]))
    return f"#### {heading}\n\n" + "\n\n".join("\n".join(lines) + f" {mark}" for mark, lines in runs)


def _figures_of(sentence: str) -> str:
    return ", ".join(dict.fromkeys(v.text for v in figures(sentence)))


def _lists(sec: Section, cites: Citations, language: str) -> list[str]:
    """The section's lists as the source gives them: a real sequence as numbered steps, any other list under
    the sentence that introduces it (or the section's heading)."""
    blocks = []
    for n, (numbered, lead, items) in enumerate(item_lists(sec.text)[:2]):
        if n and not lead:  # a second list of the section shows only when the text introduces it
            continue
        steps = numbered or bool(_SEQUENCE.search(lead))
        shown = items[: MAX_STEPS if steps else MAX_LIST_ITEMS]
        intro = lead.rstrip(":") if lead and is_whole(lead) else sec.heading
        if steps:
            heading = t("content.lesson.steps", language, what=intro)
            lines = [f"{i}. {item}" for i, item in enumerate(shown, 1)]
        else:
            heading, lines = intro, [_list_item(item) for item in shown]
        lines[-1] += f" {cites.mark(sec, items[0])}"
        blocks.append(f"#### {heading}\n\n" + "\n".join(lines))
    return blocks


def _list_item(item: str) -> str:
    """A glossary-like item ("Term: what it is") reads as a definition; any other as it is written."""
    match = _TERM_ITEM.match(item)
    return f"- **{match.group(1).strip()}**: {match.group(2).strip()}" if match else f"- {item}"


def _listed(items: list[str], language: str) -> str:
    *first, last = items
    return t("content.text.and_list", language, parts=", ".join(first), last=last) if first else last


def module_recap(lessons: list[tuple[str, list[Section]]], language: str) -> str:
    """The module's recap as questions to answer before the practice, never the lessons' sentences again: under
    each lesson's title, what it says about its rules' subjects and what its figures stand for ("¿A qué se refieren
    14 días y 6 horas?")."""
    lines = []
    for title, sections in lessons:
        facts = [f for f in fact_sentences("\n\n".join(s.text for s in sections)) if not _EXAMPLE.search(f)]
        topics = [topic for f in facts if (rule := rule_of(f)) and (topic := topic_of(rule.condition))]
        once: dict[str, str] = {}  # "80 hours" and "80 hour" once
        for value in (v for f in facts for v in figures(f) if v.kind not in _NOT_RECALLED and "-" not in v.text):
            once.setdefault(fold(value.text).rstrip("s"), value.text)
        topics = list(dict.fromkeys(topic for topic in topics if not re.search(r"\d", topic)))[:MAX_RECAP_TOPICS]
        shown = list(once.values())[:MAX_RECAP_FIGURES]
        asks = [t("content.lesson.recap_topics", language, topics=_listed(topics, language))] if topics else []
        if shown:
            asks.append(t("content.lesson.recap_figures", language, count=len(shown), figures=_listed(shown, language)))
        lines.append(f"- **{title}** — {' '.join(asks) or t('content.lesson.recap_plain', language)}")
    intro = t("content.lesson.recap_intro", language)
    return f"#### {t('content.lesson.recap', language)}\n\n{intro}\n\n" + "\n".join(lines) + "\n"


# -- how much was copied ---------------------------------------------------------------------------


def copy_ratio(sections: list[Section], lesson_texts: list[str]) -> float:
    """Share of the sections' prose sentences found verbatim in the lessons (0–1). List items are not
    counted: a procedure is taught as its steps."""
    plain = "\n".join(_CITE.sub("", line) for text in lesson_texts for line in text.splitlines())
    lessons = normalized(re.sub(r"[*_>#]", "", plain))
    units = [normalized(re.sub(r"[*_]", "", u)).strip(" .") for s in sections for u in sentences(s.text)]
    units = [u for u in units if u]
    return round(sum(u in lessons for u in units) / len(units), 3) if units else 0.0


# -- a model's lesson, cited the same way -------------------------------------------------------------

_REF = re.compile(r"\[(c\d+)\]")
_LABEL = re.compile(r"\s*\[(?:Fuentes?|Sources?):[^\]]*\]")
_HTML = re.compile(r"</?[A-Za-z][^<>\n]{0,300}>")


def number_citations(
    markdown: str, chunk_ids: list[str], back: dict[str, str], by_chunk: dict[str, Section]
) -> tuple[str, list[dict]]:
    """A model's lesson with ``[c3]`` references (or free-text source labels) cited like the twin's: one
    ``[n]`` per paragraph, numbered in order, each a chunk with its section heading; no raw HTML."""
    cites = Citations()
    fallback = next((c for c in chunk_ids if c in by_chunk), None)
    paragraphs = []
    for paragraph in re.split(r"\n\s*\n", _HTML.sub("", markdown).strip()):
        refs = [back[r] for r in _REF.findall(paragraph) if back.get(r) in by_chunk]
        labelled = bool(_LABEL.search(paragraph))
        text = _LABEL.sub("", _REF.sub("", paragraph)).rstrip()
        chunk = refs[0] if refs else (fallback if labelled else None)
        if chunk and text:
            section = by_chunk[chunk]
            cites.entries.append(
                {
                    "document": section.document_title,
                    "section": section.heading,
                    "page": section.page,
                    "chunk_id": chunk,
                }
            ) if not any(e["chunk_id"] == chunk for e in cites.entries) else None
            n = next(i for i, e in enumerate(cites.entries, 1) if e["chunk_id"] == chunk)
            text = f"{text} [{n}]"
        if text:
            paragraphs.append(text)
    if not cites.entries and fallback and paragraphs:
        section = by_chunk[fallback]
        cites.entries.append(
            {"document": section.document_title, "section": section.heading, "page": section.page, "chunk_id": fallback}
        )
        paragraphs[0] += " [1]"
    return "\n\n".join(paragraphs), cites.entries
