"""The design pass of the pipeline: the course outline, and the outline redesigned after the admin's notes (the
themes it starts from are in themes.py). Each has its offline twin (outline.py, edits.apply_notes) and a model's
outline is normalised onto the source's own sections (``normalize_outline``)."""

from __future__ import annotations

import json
from typing import Literal

from langchain_core.messages import HumanMessage, SystemMessage
from pydantic import BaseModel, Field

from agents.content import prompts
from agents.content.edits import apply_notes
from agents.content.outline import structure_twin, unnumbered
from agents.content.sections import Section
from agents.content.sources import (
    chunks_matching,
)
from agents.content.state import APPLIED_LEVELS
from agents.content.text import overlap
from agents.i18n import language_name, t
from agents.llm import LLM

Bloom = Literal["remember", "understand", "apply", "analyze", "evaluate", "create"]


def system_message(template: str, language: str) -> SystemMessage:
    return SystemMessage(template.replace("{language}", language_name(language)))


# -- structure -------------------------------------------------------------------------------------


class LessonOut(BaseModel):
    title: str
    content_type: Literal["theory", "example", "exercise", "summary"]


class ModuleOut(BaseModel):
    title: str
    summary: str = ""
    themes: list[str] = []
    bloom_level: Bloom = "apply"
    lessons: list[LessonOut] = []


class OutlineOut(BaseModel):
    title: str
    description: str = ""
    outcome: str = ""
    modules: list[ModuleOut] = Field(min_length=1, max_length=10)


def _lesson_sections(title: str, candidates: list[Section]) -> list[str]:
    """The module's sections a lesson title is about (a lesson the designer or the admin named)."""
    scored = sorted(
        ((overlap(title, s.heading + " " + s.heading), -s.position, s) for s in candidates),
        key=lambda item: (-item[0], -item[1]),
    )
    return [scored[0][2].key] if scored and scored[0][0] > 0 else []


def normalize_outline(outline: dict, themes: list[dict], sections: list[Section], language: str) -> dict:
    """Positions, known theme keys, each module's chunks and sections, one recap-and-practice lesson per module;
    every theme placed. Also applied to an admin's edited outline (a module they added gets the sections matching
    its title; a lesson keeps the sections it came with, or those its title names)."""
    by_key = {t["key"]: t for t in themes}
    section_by_key = {s.key: s for s in sections}
    modules: list[dict] = []
    placed: set[str] = set()
    for raw in outline.get("modules") or []:
        title = unnumbered(str(raw.get("title") or "").strip())
        if not title:
            continue
        keys = [k for k in raw.get("themes") or [] if k in by_key]
        placed.update(keys)
        chunk_ids = list(
            dict.fromkeys(
                [c for k in keys for c in by_key[k]["chunk_ids"]] + [str(c) for c in raw.get("chunk_ids") or []]
            )
        )
        if not chunk_ids:
            chunk_ids = chunks_matching(sections, f"{title} {raw.get('summary', '')}")
        own = [
            section_by_key[k]
            for k in dict.fromkeys(
                [k for key in keys for k in by_key[key].get("sections", [])]
                + [k for lesson in raw.get("lessons") or [] for k in lesson.get("sections") or []]
            )
            if k in section_by_key
        ] or [s for s in sections if set(s.chunk_ids) & set(chunk_ids)]
        lessons = []
        for lesson in raw.get("lessons") or []:
            lesson_title = str(lesson.get("title") or "").strip()
            kind = (
                lesson.get("content_type")
                if lesson.get("content_type") in ("theory", "example", "exercise", "summary")
                else "theory"
            )
            if not lesson_title:
                continue
            keys_of_lesson = [k for k in lesson.get("sections") or [] if k in section_by_key] or (
                [s.key for s in own] if kind == "exercise" else _lesson_sections(lesson_title, own)
            )
            lessons.append({"title": lesson_title, "content_type": kind, "sections": keys_of_lesson})
        if not any(lesson["content_type"] != "exercise" for lesson in lessons):
            lessons.insert(0, {"title": title, "content_type": "theory", "sections": [s.key for s in own]})
        if not any(lesson["content_type"] == "exercise" for lesson in lessons):
            lessons.append(
                {
                    "title": t("content.lesson.practice_title", language),
                    "content_type": "exercise",
                    "sections": [s.key for s in own],
                }
            )
        lessons = [lesson for lesson in lessons if lesson["content_type"] != "exercise"][:5] + [
            next(lesson for lesson in lessons if lesson["content_type"] == "exercise")
        ]
        bloom = (
            raw.get("bloom_level") if raw.get("bloom_level") in APPLIED_LEVELS + ("remember", "understand") else "apply"
        )
        modules.append(
            {
                "title": title,
                "summary": str(raw.get("summary") or ""),
                "position": len(modules) + 1,
                "themes": keys,
                "bloom_level": bloom,
                "chunk_ids": chunk_ids,
                "lessons": [{**lesson, "position": i} for i, lesson in enumerate(lessons, 1)],
            }
        )
    for theme in themes:  # a theme the designer forgot goes to the module closest to it
        if theme["key"] not in placed and modules:
            target = max(modules, key=lambda m: len(set(m["chunk_ids"]) & set(theme["chunk_ids"])))
            target["themes"].append(theme["key"])
            target["chunk_ids"] = list(dict.fromkeys(target["chunk_ids"] + theme["chunk_ids"]))
    return {
        "title": str(outline.get("title") or "").strip() or "—",
        "description": str(outline.get("description") or ""),
        "outcome": str(outline.get("outcome") or ""),
        "modules": modules,
    }


def design_structure(
    llm: LLM, themes: list[dict], metadata: dict, sections: list[Section], language: str
) -> tuple[dict, str]:
    """The twin's outline follows the document's headings; a model's outline is normalised onto them."""
    twin = structure_twin(themes, sections, metadata, language)
    if llm.offline:
        return normalize_outline(twin, themes, sections, language), "offline"
    listing = "\n".join(f"- {t['key']}: {t['title']} [{t['bloom_level']}] — {t['summary']}" for t in themes)
    headings = "\n".join(f"{'  ' * (s.level - 1)}- {s.heading}" for s in sections)
    result = llm.structured(
        "generator",
        [
            system_message(prompts.STRUCTURE_DESIGNER, language),
            HumanMessage(
                prompts.STRUCTURE_USER.format(
                    titles=", ".join(metadata.get("doc_titles", [])),
                    pages=metadata.get("total_pages"),
                    themes=listing,
                    headings=headings,
                )
            ),
        ],
        OutlineOut,
        lambda: OutlineOut.model_validate(twin),
    )
    outline = twin if result.engine == "offline" else result.value.model_dump()
    return normalize_outline(outline, themes, sections, language), result.engine


def _compact(outline: dict) -> str:
    """The outline as the designer reads it: titles, summaries, theme keys and lesson plans (no chunk ids)."""
    return json.dumps(
        {
            "title": outline.get("title", ""),
            "description": outline.get("description", ""),
            "outcome": outline.get("outcome", ""),
            "modules": [
                {
                    "title": m["title"],
                    "summary": m.get("summary", ""),
                    "themes": m.get("themes", []),
                    "bloom_level": m.get("bloom_level", "apply"),
                    "lessons": [
                        {"title": lesson["title"], "content_type": lesson["content_type"]}
                        for lesson in m.get("lessons") or []
                    ],
                }
                for m in outline.get("modules") or []
            ],
        },
        ensure_ascii=False,
        indent=1,
    )


def redesign_structure(
    llm: LLM, outline: dict, notes: str, themes: list[dict], sections: list[Section], language: str
) -> tuple[dict, str, list[str]]:
    """'Redesign with my notes': the outline the admin edited and their notes go to the design pass. Returns
    the new outline, the engine, and the rules the twin applied (offline, or when the model's outline is
    unusable, the notes read as rules: rename N: title, merge N and M, split N)."""
    by_rules, applied = apply_notes(outline, notes)
    if llm.offline:
        return normalize_outline(by_rules, themes, sections, language), "offline", applied
    listing = "\n".join(f"- {t['key']}: {t['title']} [{t['bloom_level']}] — {t['summary']}" for t in themes)
    headings = "\n".join(f"{'  ' * (s.level - 1)}- {s.heading}" for s in sections)
    result = llm.structured(
        "generator",
        [
            system_message(prompts.STRUCTURE_DESIGNER, language),
            HumanMessage(
                prompts.STRUCTURE_REDESIGN_USER.format(
                    outline=_compact(outline), notes=notes.strip(), headings=headings, themes=listing
                )
            ),
        ],
        OutlineOut,
        lambda: OutlineOut.model_validate(by_rules),
    )
    if result.engine == "offline":
        return normalize_outline(by_rules, themes, sections, language), "offline", applied
    return normalize_outline(result.value.model_dump(), themes, sections, language), result.engine, []
