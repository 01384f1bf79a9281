"""Offline lessons that teach (the module writer's twin): selected and arranged, not pasted.

Per lesson, from its own sections: the key statements (a few, not the whole section), definitions,
procedure steps as numbered steps, figures and deadlines pulled out, a worked example when the text
has one, and a short summary. Each paragraph cites its source once with ``[n]``; the lesson's
citations list says which chunk (and section heading) ``n`` is. ``copy_ratio`` measures how much of a
section's text came back verbatim.
"""
from __future__ import annotations

import re

from agents.content.text import Section, content_words, fold, item_lists, key_terms, normalized, sentences, words
from agents.i18n import t

VERBATIM_SHARE = 0.45            # of a lesson's source sentences, kept whole (lead, key statements, example)
MAX_KEY_STATEMENTS = 4
MAX_LIST_ITEMS = 6
MAX_FIGURES = 4
MAX_STEPS = 8
_RULE = re.compile(r"\b(debe|deben|siempre|nunca|obligatori\w*|prohibid\w*|máximo|mínimo|plazo|no se puede|"
                   r"must|always|never|required|mandatory|within|at least|at most|may not|cannot|only)\b", re.I)
_FIGURE = re.compile(r"(?:(?<![\w(+\-/.])\d+(?:[.,:]\d+)?\s?(?:%|€|euros?|días?|horas?|minutos?|meses|mes|años?|semanas?|"
                     r"days?|hours?|minutes?|months?|years?|weeks?|working days|días hábiles|\$)?|\$\s?\d+(?:[.,]\d+)?)",
                     re.I)
_DEFINITION = re.compile(r"^(?P<term>[A-ZÁÉÍÓÚÑ][^,.;:]{2,60}?)\s+(?:es|son|significa|se define como|se entiende por|"
                         r"is|are|means|refers to|is defined as)\s+(?P<body>.{15,})$")
_PASSIVE = re.compile(r"^(?:not\s+|no\s+)?\w+(?:ed|en|ado|ada|ados|adas|ido|ida|idos|idas)\b", re.I)
_EXAMPLE = re.compile(r"\b(por ejemplo|p\. ej\.|imagina|for example|for instance|e\.g\.)\b", re.I)
_STEP_SPLIT = re.compile(r"(?<=[\w)])[.;](?=\s+[A-ZÁÉÍÓÚ¿¡(])|\s[—–]\s")
_NOT_A_TERM = re.compile(r"^(?:unless|if|when|while|although|because|where|there|it|this|these|that|which|what|"
                         r"here|si|cuando|aunque|mientras|porque|donde|esto|este|esta|estos|estas|eso|ello|"
                         r"aquí|hay)\b", re.I)
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
        self.entries.append({"document": section.document_title, "section": section.heading,
                             "page": section.page, "chunk_id": chunk_id})
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
    if not match or len(words(match.group("term"))) > 6 or _PASSIVE.match(match.group("body")) \
            or _NOT_A_TERM.match(match.group("term")):
        return None
    return match.group("term").strip(), match.group("body").rstrip(".").strip()


def _figure_window(sentence: str) -> tuple[str, str] | None:
    """(a figure, the words around it) so figures and deadlines can be read at a glance."""
    for match in _FIGURE.finditer(sentence):
        figure = match.group(0).strip()
        if not re.search(r"\d", figure) or re.search(r"[\w-]$", sentence[:match.start()]) \
                or re.match(r"[\d)\-/]", sentence[match.end():match.end() + 1]):
            continue          # "HR-21", "A4", "(877) 472-6716": part of a name or a phone number, not a figure
        before = sentence[:match.start()].split()[-6:]
        after = sentence[match.end():].split()[:6]
        cut_before = len(sentence[:match.start()].split()) > 6
        cut_after = len(sentence[match.end():].split()) > 6
        window = " ".join(before + [f"**{figure}**"] + after).rstrip(",;:.")
        return figure, ("…" if cut_before else "") + window + ("…" if cut_after else "")
    return None


def _core_step(step: str) -> str:
    """A step's instruction without its trailing detail, so steps read as steps."""
    step = _CITE.sub("", step).strip()
    head = _STEP_SPLIT.split(step, maxsplit=1)[0].strip()
    return head if len(words(head)) >= 3 and head != step else step


def _summary(heading: str, statements: list[str], language: str) -> str:
    """The recap: the lesson's single most important statement (its first part when it is long)."""
    if not statements:
        return t("content.lesson.summary_plain", language, heading=heading)
    top = statements[0]
    if len(top) > 200:
        head = re.split(r";\s|\s[—–]\s|(?<=[a-zá-ú])\.\s", top, maxsplit=1)[0].strip()
        top = head if len(words(head)) >= 5 else top
    return top if top.endswith((".", "!", "?", "…")) else top + "."


def _list_item(item: str) -> str:
    """A glossary-like item ("Term: what it is") reads as a definition; any other as a short point."""
    match = _TERM_ITEM.match(item)
    if match:
        return f"- **{match.group(1).strip()}**: {match.group(2).strip()}"
    return f"- {_core_step(item)}"


def write_lesson(title: str, sections: list[Section], corpus: list[str], language: str) -> tuple[str, list[dict]]:
    """(Markdown, citations) for one lesson built from its own sections."""
    cites = Citations()
    blocks: list[str] = []
    terms = key_terms("\n\n".join(s.text for s in sections), corpus, 6)
    folded_terms = {fold(w) for w in terms}
    candidates = [(sec, sentence) for sec in sections for sentence in sentences(sec.text)]
    allowed = max(1, int(VERBATIM_SHARE * len(candidates)))     # sentences kept whole, all parts together
    lead_at = next((i for i, (_, s) in enumerate(candidates) if not _EXAMPLE.search(s)), None)
    intro = candidates[lead_at] if lead_at is not None else None
    example_at = [i for i, (_, s) in enumerate(candidates) if i != lead_at and _EXAMPLE.search(s)][:1]
    if (1 if intro else 0) + len(example_at) > allowed:
        example_at = []
    examples = [candidates[i] for i in example_at]
    definition_at = [i for i, (_, s) in enumerate(candidates)
                     if i != lead_at and i not in example_at and _definition(s)][:2]
    definitions = [(candidates[i][0], candidates[i][1], _definition(candidates[i][1])) for i in definition_at]
    free = [i for i in range(len(candidates)) if i != lead_at and i not in example_at and i not in definition_at]
    budget = min(MAX_KEY_STATEMENTS, allowed - (1 if intro else 0) - len(examples))
    chosen = sorted(sorted(free, key=lambda i: -_score(candidates[i][1], folded_terms))[:max(0, budget)])
    key_statements = [candidates[i] for i in chosen]
    kept = [s for _, s in key_statements]

    if intro:
        blocks.append(f"{_lead(intro[1])} {cites.mark(*intro)}")
    if key_statements:
        lines = [f"- {s}" for s in kept]
        lines[-1] += f" {cites.mark(*key_statements[0])}"
        blocks.append(f"#### {t('content.lesson.key_points', language)}\n\n" + "\n".join(lines))
    if definitions:
        lines = [f"- **{term}**: {body}" for _, _, (term, body) in definitions]
        lines[-1] += f" {cites.mark(definitions[0][0], definitions[0][1])}"
        blocks.append(f"#### {t('content.lesson.definitions', language)}\n\n" + "\n".join(lines))
    for sec in sections:
        for n, (numbered, lead, items) in enumerate(item_lists(sec.text)[:2]):
            if n and not lead:        # a second list of the section shows only when the text introduces it
                continue
            shown = items[:MAX_STEPS if numbered else MAX_LIST_ITEMS]
            if numbered:
                heading = t("content.lesson.steps", language, what=lead.rstrip(":") or sec.heading)
                lines = [f"{i}. {_core_step(item)}" for i, item in enumerate(shown, 1)]
            else:
                heading = lead.rstrip(":") or sec.heading
                lines = [_list_item(item) for item in shown]
            lines[-1] += f" {cites.mark(sec, items[0])}"
            blocks.append(f"#### {heading}\n\n" + "\n".join(lines))
    figures = []
    for sec, sentence in candidates:
        found = _figure_window(sentence)
        if found and sentence not in kept and all(found[0] != f for f, _, _, _ in figures):
            figures.append((found[0], found[1], sec, sentence))
    if figures:
        lines = [f"- {window}" for _, window, _, _ in figures[:MAX_FIGURES]]
        lines[-1] += f" {cites.mark(figures[0][2], figures[0][3])}"
        blocks.append(f"#### {t('content.lesson.figures', language)}\n\n" + "\n".join(lines))
    if examples:
        sec, sentence = examples[0]
        blocks.append(f"#### {t('content.lesson.example', language)}\n\n> {sentence} {cites.mark(sec, sentence)}")
    ranked_kept = sorted(key_statements + [(sec, s) for sec, s, _ in definitions],
                         key=lambda pair: -_score(pair[1], folded_terms))
    if not cites.entries and sections:      # nothing to select from (a table, a title page): its opening, cited
        opening = " ".join(sections[0].texts[0].split()[:60])
        blocks.insert(0, f"{opening}{'…' if len(sections[0].texts[0].split()) > 60 else ''} "
                         f"{cites.mark(sections[0])}")
    blocks.append(f"**{t('content.lesson.summary', language)}** "
                  f"{_summary(title, [s for _, s in ranked_kept] or ([intro[1]] if intro else []), language)}")
    return "\n\n".join(blocks), cites.entries


def _lead(sentence: str) -> str:
    """The lesson opens with the section's first statement, cut to its main clause when it is long."""
    if len(sentence) <= 160:
        return sentence
    head = re.split(r"[,;:]\s", sentence, maxsplit=1)[0]
    return head.rstrip(".") + "…" if len(words(head)) >= 5 else sentence


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


def number_citations(markdown: str, chunk_ids: list[str], back: dict[str, str],
                     by_chunk: dict[str, Section]) -> tuple[str, list[dict]]:
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
            cites.entries.append({"document": section.document_title, "section": section.heading,
                                  "page": section.page, "chunk_id": chunk}) \
                if not any(e["chunk_id"] == chunk for e in cites.entries) else None
            n = next(i for i, e in enumerate(cites.entries, 1) if e["chunk_id"] == chunk)
            text = f"{text} [{n}]"
        if text:
            paragraphs.append(text)
    if not cites.entries and fallback and paragraphs:
        section = by_chunk[fallback]
        cites.entries.append({"document": section.document_title, "section": section.heading,
                              "page": section.page, "chunk_id": fallback})
        paragraphs[0] += " [1]"
    return "\n\n".join(paragraphs), cites.entries
