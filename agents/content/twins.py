"""Offline twins of the module writer, the manual writer and the refiner (CONVENTIONS §6).

Deterministic and built from the source text only: lessons are arranged from their own sections
(lessons.py), exercises are pieces of the source (exercises.py), the manual keeps the source's
structure. The outline's twin is outline.py.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from agents.content.exercises import build_exercises
from agents.content.lessons import module_recap, write_lesson
from agents.content.sections import Section, citation_entry
from agents.content.state import APPLIED_LEVELS
from agents.content.text import snake
from agents.content.verify import verify_exercise
from agents.i18n import t


def module_sections(spec: Mapping[str, Any], every: list[Section]) -> list[Section]:
    """The sections a module was planned from (its lessons' section keys), else those holding its chunks."""
    keys = [k for lesson in spec["lessons"] for k in lesson.get("sections") or []]
    by_key = {s.key: s for s in every}
    found = [by_key[k] for k in dict.fromkeys(keys) if k in by_key]
    if found:
        return found
    wanted = set(spec.get("chunk_ids") or [])
    return [s for s in every if wanted & set(s.chunk_ids)]


def _lesson(spec: dict, body: str, citations: list[dict], chunk_ids: list[str]) -> dict:
    return {
        "title": spec["title"],
        "position": spec["position"],
        "content_type": spec["content_type"],
        "content": body,
        "citations": citations,
        "source_chunk_ids": list(dict.fromkeys(chunk_ids)),
    }


def module_twin(
    index: int,
    spec: dict,
    own: list[Section],
    supplement: list[Section],
    every: list[Section],
    language: str,
    siblings: list[str],
    corpus: list[str],
) -> dict:
    """A module's lessons from their own sections, and its exercises from the module's sources."""
    by_key = {s.key: s for s in every}
    own = own or supplement
    content_specs = [lesson for lesson in spec["lessons"] if lesson["content_type"] != "exercise"]
    lessons: list[dict] = []
    seen: set[str] = set()
    taught: list[tuple[str, list[Section]]] = []
    for lesson_spec in spec["lessons"]:
        if lesson_spec["content_type"] == "exercise":  # the recap is written once the lessons are
            lessons.append(
                _lesson(lesson_spec, "", [citation_entry(s) for s in own], [c for s in own for c in s.chunk_ids])
            )
            continue
        sections = [by_key[k] for k in lesson_spec.get("sections") or [] if k in by_key]
        if not sections:  # a lesson the admin added: its share of the module's sections, in order
            share = max(1, -(-len(own) // max(1, len(content_specs))))
            at = content_specs.index(lesson_spec) * share
            sections = own[at : at + share] or own[-1:]
        body, citations = write_lesson(lesson_spec["title"], sections, corpus, language, seen)
        lessons.append(_lesson(lesson_spec, body, citations, [c["chunk_id"] for c in citations]))
        taught.append((lesson_spec["title"], sections))
    # the practice lesson opens with the module's recap (each lesson and the figures it gave), never with filler
    recap = module_recap(taught, language) if taught else ""
    for lesson in lessons:
        if lesson["content_type"] == "exercise":
            lesson["content"] = recap
    if recap and not any(lesson["content_type"] == "exercise" for lesson in lessons) and len(taught) > 1:
        lessons[-1]["content"] += "\n\n" + recap
    exercises = build_exercises(own + [s for s in supplement if s not in own], siblings, language, corpus, index)
    return {"index": index, "module_spec": spec, "lessons": lessons, "exercises": exercises, "engine": "offline"}


# -- manual ----------------------------------------------------------------------------------------


def anchor(heading: str, n: int) -> str:
    return f"{snake(heading, 60).replace('_', '-')}-{n}"


def render_manual(title: str, toc: list[dict], sections: list[dict], language: str) -> str:
    """The manual as plain Markdown: a contents list, then each section under its own heading."""
    lines = [f"# {title}", "", f"## {t('content.manual.toc', language)}", ""]
    lines += [f"{'  ' * (entry['level'] - 1)}- {entry['heading']}" for entry in toc]
    for section in sections:
        lines += ["", f"{'#' * min(6, section['level'] + 1)} {section['heading']}", "", section["body"]]
    return "\n".join(lines).strip() + "\n"


_ITEM = re.compile(r"^\s*(?:\d{1,2}[.)]|[-*•·])\s+")


def _manual_body(section: Section) -> str:
    """The section's text kept whole for lookup: paragraphs as they are, lists as lists."""
    blocks = []
    for text in section.texts:
        for block in re.split(r"\n\s*\n", text):
            block = block.strip()
            if not block:
                continue
            lines = block.splitlines()
            if any(_ITEM.match(line) for line in lines):
                blocks.append("\n".join(line.rstrip() for line in lines))
            else:
                blocks.append(" ".join(line.strip() for line in lines))
    return "\n\n".join(blocks)


def manual_twin(all_sections: list[Section], metadata: dict, language: str) -> dict:
    """The manual follows the source: its sections in order, bodies kept whole, a table of contents first."""
    titles = metadata.get("doc_titles") or ["—"]
    title = t("content.manual.title", language, title=" + ".join(titles))
    sections, toc = [], []
    for n, section in enumerate(all_sections, 1):
        entry = {
            "heading": section.heading,
            "level": min(3, max(1, section.level - 1) if len(titles) == 1 else section.level),
            "anchor": anchor(section.heading, n),
        }
        toc.append(entry)
        sections.append(
            {
                **entry,
                "body": _manual_body(section),
                "chunk_ids": section.chunk_ids,
                "page": section.page,
                "document": section.document_title,
            }
        )
    return {
        "title": title,
        "toc": toc,
        "sections": sections,
        "content_md": render_manual(title, toc, sections, language),
        "engine": "offline",
    }


# -- refinement ------------------------------------------------------------------------------------


def refine_twin(
    module: Mapping[str, Any],
    issues: Sequence[Mapping[str, Any]],
    primary: list[Section],
    supplement: list[Section],
    language: str,
    siblings: list[str],
    corpus: list[str],
    source: str,
) -> dict:
    """Targeted fixes: rewrite uncited lessons from their sources, replace exercises whose answer the source
    doesn't support, add practice when the Bloom mix is too recall-heavy. Everything else stays."""
    own = primary or supplement
    lessons = []
    for lesson in module["lessons"]:
        if (
            own
            and lesson["content_type"] != "exercise"
            and (not lesson.get("citations") or not re.search(r"\[\d+\]", lesson.get("content", "")))
        ):
            cited = [s for s in own if set(s.chunk_ids) & set(lesson.get("source_chunk_ids") or [])] or own[:2]
            body, citations = write_lesson(lesson["title"], cited, corpus, language)
            lesson = {
                **lesson,
                "content": body,
                "citations": citations,
                "source_chunk_ids": [c["chunk_id"] for c in citations],
            }
        lessons.append(lesson)
    fresh = build_exercises(primary + supplement, siblings, language, corpus)
    exercises = []
    for exercise in module["exercises"]:
        if verify_exercise(exercise, source) is None:
            exercises.append(exercise)
            continue
        replacement = next((e for e in fresh if e["type"] == exercise["type"] and e not in exercises), None)
        if replacement is not None:
            exercises.append(replacement)
    applied = sum(e["bloom_level"] in APPLIED_LEVELS for e in exercises)
    for extra in fresh:
        if applied * 2 >= len(exercises):
            break
        if extra["bloom_level"] in APPLIED_LEVELS and extra not in exercises:
            exercises.append(extra)
            applied += 1
    return {**module, "lessons": lessons, "exercises": exercises}
