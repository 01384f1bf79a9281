"""The model-backed agents of the pipeline, each with its offline twin and a check of what the model said.

A model's answer is kept only when it is usable: chunk references that exist, exercise payloads that
match the shared contract, one lesson per planned lesson. Anything else falls back to the twin.
"""
from __future__ import annotations

import json
from typing import Literal

from langchain_core.messages import HumanMessage, SystemMessage
from pydantic import BaseModel, Field

from agents.content import prompts
from agents.content.review import finish_report, review_twin
from agents.content.lessons import number_citations
from agents.content.outline import structure_twin, themes_twin
from agents.content.sources import CONTEXT_CHAR_BUDGET, chunk_refs, chunks_matching, context_block, sections_for
from agents.content.state import APPLIED_LEVELS
from agents.content.text import Section, citation_entry, key_terms, overlap, snake
from agents.content.twins import anchor, manual_twin, module_sections, module_twin, refine_twin, render_manual
from agents.i18n import language_name, t
from agents.llm import LLM
from storage.courses import CatalogError
from storage.exercises import validate_exercise_content

Bloom = Literal["remember", "understand", "apply", "analyze", "evaluate", "create"]


def _system(template: str, language: str) -> SystemMessage:
    return SystemMessage(template.replace("{language}", language_name(language)))


# -- themes ----------------------------------------------------------------------------------------

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
            piece = Section(section.document_id, section.document_title, section.heading, section.path,
                            section.page, [chunk_id], [text], section.position)
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
        result = llm.structured("generator", [
            _system(prompts.THEME_EXTRACTOR, language),
            HumanMessage(prompts.THEMES_USER.format(mode="full text" if rag_mode == "full_text" else "every block",
                                                    context=context_block(batch, refs=refs, budget=10**9)))],
            ThemesOut, lambda: ThemesOut(themes=[ThemeOut(key="-", title="-", bloom_level="apply", summary="-")]))
        if result.engine == "offline":      # one batch the model could not read: the twin's themes stand
            return twin_themes, "offline"
        mapped += result.value.themes
        engine = result.engine
    merged = _merge_themes(mapped)
    if len(mapped) > len(merged) or len(mapped) > 8:
        listing = "\n".join(f"- {m.key}: {m.title} [{m.bloom_level}] {m.summary} refs={','.join(m.chunk_refs)}"
                             for m in mapped)
        reduced = llm.structured("generator", [_system(prompts.THEME_REDUCER, language),
                                               HumanMessage(prompts.THEMES_REDUCE_USER.format(themes=listing))],
                                 ThemesOut, lambda: ThemesOut(themes=merged))
        merged = reduced.value.themes
    by_id = {c: t for s in sections for c, t in zip(s.chunk_ids, s.texts)}
    corpus = [s.text for s in sections]
    themes, keys = [], set()
    for theme in merged:
        chunk_ids = [back[r] for r in theme.chunk_refs if r in back] \
            or chunks_matching(sections, f"{theme.title} {theme.summary}")
        key = snake(theme.key or theme.title)
        while key in keys:
            key += "_2"
        keys.add(key)
        themes.append({"key": key, "title": theme.title.strip(), "bloom_level": theme.bloom_level,
                       "summary": theme.summary.strip(), "chunk_ids": list(dict.fromkeys(chunk_ids)),
                       "sections": [s.key for s in sections if set(s.chunk_ids) & set(chunk_ids)],
                       "terms": key_terms("\n".join(by_id[c] for c in chunk_ids if c in by_id), corpus, 6)})
    return themes, engine


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
    scored = sorted(((overlap(title, s.heading + " " + s.heading), -s.position, s) for s in candidates),
                    key=lambda item: (-item[0], -item[1]))
    return [scored[0][2].key] if scored and scored[0][0] > 0 else []


def normalize_outline(outline: dict, themes: list[dict], sections: list[Section], language: str) -> dict:
    """Positions, known theme keys, each module's chunks and sections, one practice lesson per module; every
    theme placed. Also applied to an admin's edited outline (a module they added gets the sections matching
    its title; a lesson keeps the sections it came with, or those its title names)."""
    by_key = {t["key"]: t for t in themes}
    section_by_key = {s.key: s for s in sections}
    modules, placed = [], set()
    for raw in outline.get("modules") or []:
        title = str(raw.get("title") or "").strip()
        if not title:
            continue
        keys = [k for k in raw.get("themes") or [] if k in by_key]
        placed.update(keys)
        chunk_ids = list(dict.fromkeys([c for k in keys for c in by_key[k]["chunk_ids"]]
                                       + [str(c) for c in raw.get("chunk_ids") or []]))
        if not chunk_ids:
            chunk_ids = chunks_matching(sections, f"{title} {raw.get('summary', '')}")
        own = [section_by_key[k] for k in dict.fromkeys(
            [k for key in keys for k in by_key[key].get("sections", [])]
            + [k for lesson in raw.get("lessons") or [] for k in lesson.get("sections") or []]) if k in section_by_key] \
            or [s for s in sections if set(s.chunk_ids) & set(chunk_ids)]
        lessons = []
        for lesson in raw.get("lessons") or []:
            lesson_title = str(lesson.get("title") or "").strip()
            kind = lesson.get("content_type") if lesson.get("content_type") in ("theory", "example", "exercise",
                                                                                 "summary") else "theory"
            if not lesson_title:
                continue
            keys_of_lesson = [k for k in lesson.get("sections") or [] if k in section_by_key] \
                or ([s.key for s in own] if kind == "exercise" else _lesson_sections(lesson_title, own))
            lessons.append({"title": lesson_title, "content_type": kind, "sections": keys_of_lesson})
        if not any(lesson["content_type"] != "exercise" for lesson in lessons):
            lessons.insert(0, {"title": title, "content_type": "theory", "sections": [s.key for s in own]})
        if not any(lesson["content_type"] == "exercise" for lesson in lessons):
            lessons.append({"title": t("content.lesson.practice_title", language), "content_type": "exercise",
                            "sections": [s.key for s in own]})
        lessons = [lesson for lesson in lessons if lesson["content_type"] != "exercise"][:5] + \
            [next(lesson for lesson in lessons if lesson["content_type"] == "exercise")]
        bloom = raw.get("bloom_level") if raw.get("bloom_level") in APPLIED_LEVELS + ("remember", "understand") \
            else "apply"
        modules.append({"title": title, "summary": str(raw.get("summary") or ""), "position": len(modules) + 1,
                        "themes": keys, "bloom_level": bloom, "chunk_ids": chunk_ids,
                        "lessons": [{**lesson, "position": i} for i, lesson in enumerate(lessons, 1)]})
    for theme in themes:          # a theme the designer forgot goes to the module closest to it
        if theme["key"] not in placed and modules:
            target = max(modules, key=lambda m: len(set(m["chunk_ids"]) & set(theme["chunk_ids"])))
            target["themes"].append(theme["key"])
            target["chunk_ids"] = list(dict.fromkeys(target["chunk_ids"] + theme["chunk_ids"]))
    return {"title": str(outline.get("title") or "").strip() or "—", "description": str(outline.get("description") or ""),
            "outcome": str(outline.get("outcome") or ""), "modules": modules}


def design_structure(llm: LLM, themes: list[dict], metadata: dict, sections: list[Section],
                     language: str) -> tuple[dict, str]:
    """The twin's outline follows the document's headings; a model's outline is normalised onto them."""
    twin = structure_twin(themes, sections, metadata, language)
    if llm.offline:
        return normalize_outline(twin, themes, sections, language), "offline"
    listing = "\n".join(f"- {t['key']}: {t['title']} [{t['bloom_level']}] — {t['summary']}" for t in themes)
    headings = "\n".join(f"{'  ' * (s.level - 1)}- {s.heading}" for s in sections)
    result = llm.structured("generator", [
        _system(prompts.STRUCTURE_DESIGNER, language),
        HumanMessage(prompts.STRUCTURE_USER.format(titles=", ".join(metadata.get("doc_titles", [])),
                                                   pages=metadata.get("total_pages"), themes=listing,
                                                   headings=headings))],
        OutlineOut, lambda: OutlineOut.model_validate(twin))
    outline = twin if result.engine == "offline" else result.value.model_dump()
    return normalize_outline(outline, themes, sections, language), result.engine


# -- modules ---------------------------------------------------------------------------------------

class LessonContentOut(BaseModel):
    title: str
    content_md: str
    chunk_refs: list[str] = []


class ExerciseOut(BaseModel):
    type: Literal["test", "true_false", "fill_blank", "order_steps", "practical_case", "dialogue"]
    bloom_level: Bloom
    prompt: str
    content: dict
    explanation: str = ""
    chunk_refs: list[str] = []


class ModuleContentOut(BaseModel):
    lessons: list[LessonContentOut] = []
    exercises: list[ExerciseOut] = []


def _from_model(answer: ModuleContentOut, index: int, spec: dict, sections: list[Section],
                refs: dict[str, str], min_exercises: int = 2) -> dict | None:
    """The model's module in the pipeline's shape, or None when it can't be used."""
    back = {ref: chunk_id for chunk_id, ref in refs.items()}
    by_chunk = {c: s for s in sections for c in s.chunk_ids}
    if len(answer.lessons) < len(spec["lessons"]):
        return None
    lessons = []
    for planned, written in zip(spec["lessons"], answer.lessons):
        chunk_ids = [back[r] for r in written.chunk_refs if r in back] or spec["chunk_ids"][:3]
        content, citations = number_citations(written.content_md, chunk_ids, back, by_chunk)
        lessons.append({"title": written.title or planned["title"], "position": planned["position"],
                        "content_type": planned["content_type"], "content": content,
                        "citations": citations or [citation_entry(by_chunk[c], c) for c in chunk_ids[:1] if c in by_chunk],
                        "source_chunk_ids": list(dict.fromkeys(chunk_ids + [c["chunk_id"] for c in citations]))})
    exercises = []
    for exercise in answer.exercises:
        try:
            validate_exercise_content(exercise.type, exercise.content)
        except CatalogError:
            continue
        chunk_ids = [back[r] for r in exercise.chunk_refs if r in back] or spec["chunk_ids"][:3]
        exercises.append({"type": exercise.type, "bloom_level": exercise.bloom_level, "prompt": exercise.prompt,
                          "content": exercise.content, "explanation": exercise.explanation,
                          "source_chunk_ids": chunk_ids})
    if len(exercises) < min_exercises:
        return None
    return {"index": index, "module_spec": spec, "lessons": lessons, "exercises": exercises}


def write_module(llm: LLM, task: dict, primary: list[Section], supplement: list[Section], every: list[Section],
                 siblings: list[str], corpus: list[str], context_sections: list[Section], model_calls) -> dict:
    """One module: the model writes it from its compartmented sources, the twin when it can't.
    Only the model call holds ``model_calls`` (the semaphore of 3); the rest runs alongside."""
    spec, language = task["module_spec"], task["language"]

    def twin() -> dict:
        return module_twin(task["module_index"], spec, primary, supplement, every, language, siblings, corpus)
    if llm.offline:
        return twin()
    refs = chunk_refs(context_sections)
    lessons = "\n".join(f"{lesson['position']}. [{lesson['content_type']}] {lesson['title']}" for lesson in spec["lessons"])
    instructions = f"Instructions from the admin: {task['instructions']}\n" if task.get("instructions") else ""
    messages = [_system(prompts.MODULE_WRITER, language), HumanMessage(prompts.MODULE_USER.format(
        position=spec["position"], total=task["total"], title=spec["title"], summary=spec["summary"],
        bloom=spec["bloom_level"], lessons=lessons, instructions=instructions,
        context=context_block(context_sections, refs=refs)))]
    with model_calls:
        result = llm.structured("generator", messages, ModuleContentOut, ModuleContentOut)
    module = _from_model(result.value, task["module_index"], spec, context_sections, refs) \
        if result.engine != "offline" and result.finish_reason != "length" else None
    if module is None:  # truncated, short or off-contract: once more, one lesson per call (issue 13)
        module = _lesson_by_lesson(llm, task, spec, language, instructions, context_sections, refs, model_calls)
    why = "length" if result.finish_reason == "length" else result.outcome.removeprefix("twin:")
    return {"engine": result.engine, **module} if module else {**twin(), "fallback": why or "contract"}


def _lesson_by_lesson(llm: LLM, task: dict, spec: dict, language: str, instructions: str,
                      context_sections: list[Section], refs: dict[str, str], model_calls) -> dict | None:
    """The module rebuilt from one smaller answer per lesson; None when any lesson still fails."""
    lessons, exercises, engine = [], [], None
    for lesson in spec["lessons"]:
        one = {**spec, "lessons": [lesson]}
        messages = [_system(prompts.MODULE_WRITER, language), HumanMessage(prompts.MODULE_USER.format(
            position=spec["position"], total=task["total"], title=spec["title"], summary=spec["summary"],
            bloom=spec["bloom_level"], lessons=f"{lesson['position']}. [{lesson['content_type']}] {lesson['title']}",
            instructions=instructions, context=context_block(context_sections, refs=refs)))]
        with model_calls:
            result = llm.structured("generator", messages, ModuleContentOut, ModuleContentOut)
        part = _from_model(result.value, task["module_index"], one, context_sections, refs, min_exercises=0) \
            if result.engine != "offline" and result.finish_reason != "length" else None
        if part is None:
            return None
        lessons += part["lessons"]
        exercises += part["exercises"]
        engine = result.engine
    if len(exercises) < 2:
        return None
    return {"index": task["module_index"], "module_spec": spec, "lessons": lessons, "exercises": exercises,
            "engine": engine}


# -- manual ----------------------------------------------------------------------------------------

class ManualSectionOut(BaseModel):
    heading: str
    level: int = Field(default=1, ge=1, le=3)
    body: str
    chunk_refs: list[str] = []


class ManualOut(BaseModel):
    title: str
    sections: list[ManualSectionOut] = Field(min_length=1)


def write_manual(llm: LLM, sections: list[Section], metadata: dict, language: str) -> dict:
    twin = manual_twin(sections, metadata, language)
    source_chars = sum(len(s.text) for s in sections)
    if llm.offline or source_chars > CONTEXT_CHAR_BUDGET:   # a long source: the twin keeps all of it
        return twin
    refs = chunk_refs(sections)
    back = {ref: chunk_id for chunk_id, ref in refs.items()}
    result = llm.structured("generator", [
        _system(prompts.MANUAL_WRITER, language),
        HumanMessage(prompts.MANUAL_USER.format(context=context_block(sections, refs=refs)))],
        ManualOut, lambda: ManualOut(title="", sections=[ManualSectionOut(heading="-", body="-")]))
    if result.engine == "offline":
        return twin
    out, toc = [], []
    for n, section in enumerate(result.value.sections, 1):
        entry = {"heading": section.heading, "level": section.level, "anchor": anchor(section.heading, n)}
        toc.append(entry)
        out.append({**entry, "body": section.body, "chunk_ids": [back[r] for r in section.chunk_refs if r in back]})
    title = result.value.title or twin["title"]
    return {"title": title, "toc": toc, "sections": out, "content_md": render_manual(title, toc, out, language),
            "engine": result.engine}


# -- review and refinement -------------------------------------------------------------------------

class IssueOut(BaseModel):
    severity: Literal["critical", "major", "minor"]
    module_index: int | None = None
    description: str
    suggestion: str = ""


class ReviewOut(BaseModel):
    passed: bool
    overall_score: float = Field(ge=0, le=1)
    issues: list[IssueOut] = []


def serialize_content(modules: list[dict], manual: dict | None, limit: int = CONTEXT_CHAR_BUDGET // 2) -> str:
    body = json.dumps({"modules": [{"index": m["index"], "title": m["module_spec"]["title"],
                                    "lessons": [{"title": l["title"], "content": l["content"]} for l in m["lessons"]],
                                    "exercises": m["exercises"]} for m in modules],
                       "manual_toc": (manual or {}).get("toc")}, ensure_ascii=False)
    return body[:limit]


def review(llm: LLM, modules: list[dict], manual: dict | None, sections: list[Section], language: str) -> dict:
    """The deterministic checks always run. A model then reviews every module against its own sources (one
    call per module, so nothing is cut); its issues join the report and its mean score halves the twin's."""
    report = review_twin(modules, manual, sections, language)
    if llm.offline or not modules:
        return report
    extra, scores, engine = [], [], "offline"
    for module in modules:
        cited = {c for lesson in module["lessons"] for c in lesson.get("source_chunk_ids") or []} | \
            {c for exercise in module["exercises"] for c in exercise.get("source_chunk_ids") or []}
        own = module_sections(module["module_spec"], sections)
        sources = own + [s for s in sections_for(sections, sorted(cited)) if s.key not in {o.key for o in own}]
        result = llm.structured("reviewer", [
            _system(prompts.QUALITY_REVIEWER, language),
            HumanMessage(prompts.REVIEW_USER.format(source=context_block(sources, budget=10**9),
                                                    content=serialize_content([module], None, limit=10**9)))],
            ReviewOut, lambda: ReviewOut(passed=report["passed"], overall_score=report["overall_score"]))
        if result.engine == "offline":
            continue
        engine = result.engine
        scores.append(result.value.overall_score)
        extra += [{**i.model_dump(), "module_index": module["index"], "exercise_index": None, "code": "model"}
                  for i in result.value.issues]
    if not scores:
        return report
    return finish_report(report["issues"] + extra, (report["overall_score"] + sum(scores) / len(scores)) / 2,
                         len(modules), report["checks"], engine)


def refine_module(llm: LLM, module: dict, issues: list[dict], primary: list[Section], supplement: list[Section],
                  language: str, siblings: list[str], corpus: list[str], source: str, instructions: str | None,
                  model_calls) -> dict:
    fixed = refine_twin(module, issues, primary, supplement, language, siblings, corpus, source)
    if llm.offline:
        return fixed
    sections = primary + supplement
    refs = chunk_refs(sections)
    listing = "\n".join(f"- [{i['severity']}] {i['description']} → {i['suggestion']}" for i in issues)
    messages = [_system(prompts.CONTENT_REFINER, language), HumanMessage(prompts.REFINE_USER.format(
        issues=listing or "-", instructions=f"Admin instructions: {instructions}\n" if instructions else "",
        context=context_block(sections, refs=refs), module=serialize_content([module], None)))]
    with model_calls:
        result = llm.structured("generator", messages, ModuleContentOut, ModuleContentOut)
    if result.engine == "offline":
        return fixed
    refined = _from_model(result.value, module["index"], module["module_spec"], sections, refs)
    return {**refined, "engine": result.engine} if refined else fixed
