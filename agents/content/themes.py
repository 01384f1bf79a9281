"""The themes of a whole source, by the model (map-reduce over batches of sections that fit its budget, then
merged) or offline from the source's own sections; the first step of the design pass (design.py)."""

from __future__ import annotations

from dataclasses import replace

from langchain_core.messages import HumanMessage
from pydantic import BaseModel, Field

from agents.content import prompts
from agents.content.design import Bloom, system_message
from agents.content.outline import themes_twin
from agents.content.sections import Section
from agents.content.sources import (
    CONTEXT_CHAR_BUDGET,
    chunk_refs,
    chunks_matching,
    context_block,
)
from agents.content.text import key_terms, snake
from agents.llm import LLM


class ThemeOut(BaseModel):
    key: str
    title: str
    bloom_level: Bloom
    summary: str
    chunk_refs: list[str] = []


class ThemesOut(BaseModel):
    themes: list[ThemeOut] = Field(min_length=1, max_length=12)


def _batches(sections: list[Section], budget: int) -> list[list[Section]]:
    """Every chunk of the sources, whole, in batches that each fit one model call (the map step)."""
    batches: list[list[Section]] = [[]]
    size = 0
    for section in sections:
        for chunk_id, text in zip(section.chunk_ids, section.texts):
            block = len(text) + len(section.path) + 40
            if batches[-1] and size + block > budget:
                batches.append([])
                size = 0
            piece = replace(section, chunk_ids=[chunk_id], texts=[text])
            if batches[-1] and batches[-1][-1].key == piece.key:
                batches[-1][-1].chunk_ids.append(chunk_id)
                batches[-1][-1].texts.append(text)
            else:
                batches[-1].append(piece)
            size += block
    return [b for b in batches if b]


def _merge_themes(themes: list[ThemeOut]) -> list[ThemeOut]:
    """The reduce step's twin: themes of different batches with the same key or title become one."""
    merged: dict[str, ThemeOut] = {}
    for theme in themes:
        key = snake(theme.key or theme.title)
        same = merged.get(key) or next((m for m in merged.values() if snake(m.title) == snake(theme.title)), None)
        if same is None:
            merged[key] = theme.model_copy(deep=True)
        else:
            same.chunk_refs = list(dict.fromkeys(same.chunk_refs + theme.chunk_refs))
    return list(merged.values())[:12]


def extract_themes(llm: LLM, sections: list[Section], rag_mode: str, language: str) -> tuple[list[dict], str]:
    """Themes over ALL the source: map (one call per batch of whole chunks), then reduce (one call over the
    batches' themes). The twin's themes are the document's own units (outline.py)."""
    twin_themes = themes_twin(sections, language)
    if llm.offline:
        return twin_themes, "offline"
    refs = chunk_refs(sections)
    back = {ref: chunk_id for chunk_id, ref in refs.items()}
    mapped, engine = [], "offline"
    for batch in _batches(sections, CONTEXT_CHAR_BUDGET):
        result = llm.structured(
            "generator",
            [
                system_message(prompts.THEME_EXTRACTOR, language),
                HumanMessage(
                    prompts.THEMES_USER.format(
                        mode="full text" if rag_mode == "full_text" else "every block",
                        context=context_block(batch, refs=refs, budget=10**9),
                    )
                ),
            ],
            ThemesOut,
            lambda: ThemesOut(themes=[ThemeOut(key="-", title="-", bloom_level="apply", summary="-")]),
        )
        if result.engine == "offline":  # one batch the model could not read: the twin's themes stand
            return twin_themes, "offline"
        mapped += result.value.themes
        engine = result.engine
    merged = _merge_themes(mapped)
    if len(mapped) > len(merged) or len(mapped) > 8:
        listing = "\n".join(
            f"- {m.key}: {m.title} [{m.bloom_level}] {m.summary} refs={','.join(m.chunk_refs)}" for m in mapped
        )
        reduced = llm.structured(
            "generator",
            [
                system_message(prompts.THEME_REDUCER, language),
                HumanMessage(prompts.THEMES_REDUCE_USER.format(themes=listing)),
            ],
            ThemesOut,
            lambda: ThemesOut(themes=merged),
        )
        merged = reduced.value.themes
    by_id = {c: t for s in sections for c, t in zip(s.chunk_ids, s.texts)}
    corpus = [s.text for s in sections]
    themes, keys = [], set()
    for theme in merged:
        chunk_ids = [back[r] for r in theme.chunk_refs if r in back] or chunks_matching(
            sections, f"{theme.title} {theme.summary}"
        )
        key = snake(theme.key or theme.title)
        while key in keys:
            key += "_2"
        keys.add(key)
        themes.append(
            {
                "key": key,
                "title": theme.title.strip(),
                "bloom_level": theme.bloom_level,
                "summary": theme.summary.strip(),
                "chunk_ids": list(dict.fromkeys(chunk_ids)),
                "sections": [s.key for s in sections if set(s.chunk_ids) & set(chunk_ids)],
                "terms": key_terms("\n".join(by_id[c] for c in chunk_ids if c in by_id), corpus, 6),
            }
        )
    return themes, engine
