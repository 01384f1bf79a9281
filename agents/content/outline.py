"""The course outline from the document's own structure (the offline twin of the structure designer).

Headings become modules and lessons: the shallowest heading level that splits a document into at least
three parts gives its units; a unit much larger than the others is split at its next level; units are
merged into modules of one to three by size; each lesson is one unit (or one sub-section of a long
unit). Titles are the headings' own words. Documents without headings are cut into page blocks.
"""

from __future__ import annotations

import math
import re
import statistics
from collections import Counter
from dataclasses import replace

from agents.content.sections import Section
from agents.content.state import APPLIED_LEVELS
from agents.content.text import bloom_level, fold, is_record_line, key_terms, procedures, sentences, snake
from agents.i18n import t

MAX_MODULES = 8
MAX_CONTENT_LESSONS = 4
LONG_UNIT_CHARS = 3_500  # a unit this long and with sub-headings becomes several lessons
MODULE_CHARS = 10_000  # a long document gets more modules than half its units
BLOCK_CHARS = 2_500  # the size of a page block when a document has no headings
_WEB_ADDRESS = re.compile(r"https?://|\bwww\.", re.IGNORECASE)
# a heading's own number ("6. ", "4.2 ", "3) "): the course numbers its modules itself
_HEADING_NUMBER = re.compile(r"^\s*(?:\d+(?:\.\d+)*[.)]|\d+(?:\.\d+)+)\s+(?=\w)")


def unnumbered(title: str) -> str:
    """A module's title without its heading's number: module 1 reads "1. The 30-60-90 day plan", not
    "1. 6. The 30-60-90 day plan"."""
    number = _HEADING_NUMBER.match(title)
    rest = title[number.end() :] if number else ""
    return rest if rest[:1].isupper() else title  # "1.5 hours of training" keeps its number


class Unit:
    """Consecutive sections under one heading of the chosen level; ``title`` is that heading."""

    def __init__(self, title: str, sections: list[Section], level: int):
        self.title, self.sections, self.level = title, sections, level

    @property
    def size(self) -> int:
        return sum(len(s.text) for s in self.sections)


def _groups_at(sections: list[Section], level: int) -> list[Unit]:
    """Sections grouped by their heading at ``level``; text above that level (an introduction under the
    document title) and a title page holding only the document's record card join the group that follows."""
    units: list[Unit] = []
    pending: list[Section] = []
    for section in sections:
        if len(section.parts) < level or all(
            is_record_line(line) for line in section.text.splitlines() if line.strip()
        ):
            pending.append(section)
            continue
        key = section.parts[:level]
        if units and not pending and units[-1].sections[-1].parts[:level] == key:
            units[-1].sections.append(section)
        else:
            units.append(Unit(key[level - 1], pending + [section], level))
            pending = []
    if pending:
        if units:
            units[-1].sections.extend(pending)
        else:
            units.append(Unit(pending[0].heading, pending, level))
    return units


def _page_blocks(sections: list[Section]) -> list[Unit]:
    """A document with no usable headings: blocks of about BLOCK_CHARS, named by their key terms."""
    corpus = [s.text for s in sections]
    blocks: list[list[Section]] = [[]]
    for section in sections:
        for chunk_id, text in zip(section.chunk_ids, section.texts):
            if blocks[-1] and sum(len(s.text) for s in blocks[-1]) + len(text) > BLOCK_CHARS:
                blocks.append([])
            blocks[-1].append(replace(section, chunk_ids=[chunk_id], texts=[text]))
    units = []
    for block in blocks:
        terms = key_terms("\n".join(s.text for s in block), corpus, 3)
        title = ", ".join(terms).capitalize() if terms else block[0].heading
        units.append(Unit(title, block, 1))
    return units


def _split_large(units: list[Unit]) -> list[Unit]:
    """A unit much larger than the others, with sub-headings, is replaced by its sub-sections."""
    if len(units) < 2:
        return units
    limit = max(2 * statistics.median(u.size for u in units), 8_000)
    out = []
    for unit in units:
        deeper = _groups_at(unit.sections, unit.level + 1) if unit.size > limit else [unit]
        out += deeper if len(deeper) > 1 else [unit]
    return out


def document_units(sections: list[Section]) -> list[Unit]:
    """Per document (in the order given), its units at the shallowest level with at least three."""
    by_document: dict[str, list[Section]] = {}
    for section in sections:
        by_document.setdefault(section.document_id, []).append(section)
    units: list[Unit] = []
    for doc_sections in by_document.values():
        depth = max(1, max(len(s.parts) for s in doc_sections))
        chosen = None
        for level in range(1, depth + 1):
            candidate = _groups_at(doc_sections, level)
            if len(candidate) >= 3:
                chosen = candidate
                break
        chosen = chosen or _groups_at(doc_sections, depth)
        if len(chosen) < 3 and sum(len(s.text) for s in doc_sections) > 2 * BLOCK_CHARS:
            chosen = _page_blocks(doc_sections)
        units += _split_large(chosen)
    return units


def _merge_into_modules(units: list[Unit]) -> list[list[Unit]]:
    """Adjacent small units merge (smallest pair first, same document) until the course has about half as
    many modules as units: three at least, MAX_MODULES at most, one to three units each when possible."""
    count, total = len(units), sum(u.size for u in units)
    # about two units a module, and no module of much more than MODULE_CHARS when the units allow it
    target = (
        count if count <= 3 else min(count, MAX_MODULES, max(3, math.ceil(count / 2), math.ceil(total / MODULE_CHARS)))
    )
    per_module = max(3, math.ceil(count / MAX_MODULES))
    groups = [[u] for u in units]
    while len(groups) > target:
        pairs = [
            (sum(u.size for u in a + b), i)
            for i, (a, b) in enumerate(zip(groups, groups[1:]))
            if len(a) + len(b) <= per_module and a[0].sections[0].document_id == b[0].sections[0].document_id
        ]
        if not pairs:
            break
        _, i = min(pairs)
        groups[i : i + 2] = [groups[i] + groups[i + 1]]
    for i in reversed(range(len(groups))):  # a document's credits and links: a lesson, never a module of its own
        if len(groups) > 1 and _credits_only(groups[i]):
            j = i - 1 if i > 0 else 1
            if groups[j][0].sections[0].document_id == groups[i][0].sections[0].document_id:
                groups[min(i, j)] = groups[min(i, j)] + groups[max(i, j)]
                del groups[max(i, j)]
    return groups


def _credits_only(group: list[Unit]) -> bool:
    """Every sentence of the units points to a web address (an attribution, a list of links): nothing to
    practise, so a module of it would have no exercise (the covenant's "Atribución")."""
    said = [sentence for unit in group for section in unit.sections for sentence in sentences(section.text)]
    return bool(said) and all(_WEB_ADDRESS.search(sentence) for sentence in said)


def group_title(units: list[Unit]) -> str:
    """One title for units taught together, in the source's words: the heading they share when there is one
    (not the document's own title), else the heading of the largest of them."""
    parents = {tuple(s.parts[: u.level - 1]) for u in units for s in u.sections[-1:]}
    if len(units) > 1 and len(parents) == 1:
        parent = next(iter(parents))
        if len(parent) > 1:  # parent[0] is the document's title heading when it has one
            return parent[-1]
    return max(units, key=lambda u: u.size).title


def _distinct_titles(titles: list[str], groups: list[list[Unit]], language: str) -> list[str]:
    """Titles that tell the modules apart: a heading several modules share ("Types of leave" over four of them)
    is followed by each one's own parts ("Types of leave: Award leave and Sick leave")."""
    shared = Counter(fold(title) for title in titles)
    distinct = []
    for title, group in zip(titles, groups):
        parts = [unnumbered(unit.title) for unit in group if fold(unit.title) != fold(title)]
        if shared[fold(title)] > 1 and parts:
            *first, last = parts
            own = t("content.text.and_list", language, parts=", ".join(first), last=last) if first else last
            title = f"{title}: {own}"
        distinct.append(title)
    return distinct


def _lessons(units: list[Unit], language: str) -> list[dict]:
    """One lesson per unit, or per sub-section of a long unit; then the module's recap, where its exercises are."""
    pieces: list[Unit] = []
    for unit in units:
        deeper = _groups_at(unit.sections, unit.level + 1) if unit.size > LONG_UNIT_CHARS else [unit]
        pieces += deeper if len(deeper) > 1 else [unit]
    while len(pieces) > MAX_CONTENT_LESSONS:  # the smallest neighbours share a lesson
        sizes = [a.size + b.size for a, b in zip(pieces, pieces[1:])]
        i = sizes.index(min(sizes))
        pieces[i : i + 2] = [
            Unit(group_title(pieces[i : i + 2]), pieces[i].sections + pieces[i + 1].sections, pieces[i].level)
        ]
    lessons = [
        {"title": piece.title, "content_type": "theory", "sections": [s.key for s in piece.sections]}
        for piece in pieces
    ]
    lessons.append(
        {
            "title": t("content.lesson.practice_title", language),
            "content_type": "exercise",
            "sections": [s.key for u in units for s in u.sections],
        }
    )
    return [{**lesson, "position": i} for i, lesson in enumerate(lessons, 1)]


def themes_twin(sections: list[Section], language: str) -> list[dict]:
    """One theme per unit of the document, keyed to its sections and chunks."""
    corpus = [s.text for s in sections]
    themes: list[dict] = []
    keys: set[str] = set()
    for unit in document_units(sections):
        key = snake(unit.title)
        while key in keys:
            key += "_2"
        keys.add(key)
        text = "\n\n".join(s.text for s in unit.sections)
        first = (sentences(text) or [text[:200]])[0]
        themes.append(
            {
                "key": key,
                "title": unit.title,
                "summary": first[:300],
                "bloom_level": bloom_level(text),
                "chunk_ids": list(dict.fromkeys(c for s in unit.sections for c in s.chunk_ids)),
                "sections": [s.key for s in unit.sections],
                "level": unit.level,
                "terms": key_terms(text, corpus, 6),
            }
        )
    # workplace training is about doing: procedural themes count as apply even when their verbs don't say so
    applied = sum(theme["bloom_level"] in APPLIED_LEVELS for theme in themes)
    by_key = {s.key: s for s in sections}
    for theme in themes:
        if applied * 2 >= len(themes):
            break
        if theme["bloom_level"] not in APPLIED_LEVELS and any(procedures(by_key[k].text) for k in theme["sections"]):
            theme["bloom_level"], applied = "apply", applied + 1
    return themes


def structure_twin(themes: list[dict], sections: list[Section], metadata: dict, language: str) -> dict:
    """Modules of one to three themes (the document's units), lessons from their headings."""
    by_key = {s.key: s for s in sections}
    pairs = [
        (
            Unit(theme["title"], [by_key[k] for k in theme.get("sections", []) if k in by_key], theme.get("level", 1)),
            theme,
        )
        for theme in themes
    ]
    pairs = [(unit, theme) for unit, theme in pairs if unit.sections]
    theme_of = {id(unit): theme for unit, theme in pairs}
    modules: list[dict] = []
    groups = _merge_into_modules([unit for unit, _ in pairs])
    for group in groups:
        group_themes = [theme_of[id(u)] for u in group]
        levels = [theme["bloom_level"] for theme in group_themes]
        modules.append(
            {
                "title": group_title(group),
                "summary": " ".join(theme["summary"] for theme in group_themes)[:400],
                "position": len(modules) + 1,
                "themes": [theme["key"] for theme in group_themes],
                "bloom_level": next((lv for lv in levels if lv in APPLIED_LEVELS), levels[0]),
                "chunk_ids": list(dict.fromkeys(c for theme in group_themes for c in theme["chunk_ids"])),
                "lessons": _lessons(group, language),
            }
        )
    for module, title in zip(modules, _distinct_titles([m["title"] for m in modules], groups, language)):
        module["title"] = unnumbered(title)
    titles = metadata.get("doc_titles") or ["—"]
    return {
        "title": " + ".join(titles),
        "description": t(
            "content.outline.description",
            language,
            docs=", ".join(titles),
            modules="; ".join(m["title"] for m in modules),
        ),
        "outcome": t(
            "content.outline.outcome",
            language,
            docs=", ".join(titles),
            topics=", ".join(m["title"] for m in modules[:4]),
        ),
        "modules": modules,
    }
