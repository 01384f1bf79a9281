"""The pipeline's model-backed writers (the modules, the manual), each with its offline twin and a check of what
the model said (the design pass is in design.py, the quality review and refinement in quality.py).

A model's answer is kept only when it is usable: chunk references that exist, exercise payloads that
match the shared contract, one lesson per planned lesson. Anything else falls back to the twin.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from langchain_core.messages import HumanMessage
from pydantic import BaseModel, Field

from agents.content import prompts
from agents.content.design import Bloom, system_message
from agents.content.gate import gate_lessons
from agents.content.lessons import number_citations
from agents.content.sections import Section, citation_entry
from agents.content.sources import CONTEXT_CHAR_BUDGET, chunk_refs, context_block
from agents.content.twins import anchor, manual_twin, module_twin, render_manual
from agents.llm import LLM
from storage.courses import CatalogError
from storage.exercises import validate_exercise_content

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


def usable_module(
    answer: ModuleContentOut,
    index: int,
    spec: dict,
    sections: list[Section],
    refs: dict[str, str],
    min_exercises: int = 2,
) -> dict | None:
    """The model's module in the pipeline's shape, or None when it can't be used."""
    back = {ref: chunk_id for chunk_id, ref in refs.items()}
    by_chunk = {c: s for s in sections for c in s.chunk_ids}
    if len(answer.lessons) < len(spec["lessons"]):
        return None
    lessons = []
    for planned, written in zip(spec["lessons"], answer.lessons):
        chunk_ids = [back[r] for r in written.chunk_refs if r in back] or spec["chunk_ids"][:3]
        content, citations = number_citations(written.content_md, chunk_ids, back, by_chunk)
        lessons.append(
            {
                "title": written.title or planned["title"],
                "position": planned["position"],
                "content_type": planned["content_type"],
                "content": content,
                "citations": citations or [citation_entry(by_chunk[c], c) for c in chunk_ids[:1] if c in by_chunk],
                "source_chunk_ids": list(dict.fromkeys(chunk_ids + [c["chunk_id"] for c in citations])),
            }
        )
    exercises = []
    for exercise in answer.exercises:
        try:
            validate_exercise_content(exercise.type, exercise.content)
        except CatalogError:
            continue
        chunk_ids = [back[r] for r in exercise.chunk_refs if r in back] or spec["chunk_ids"][:3]
        exercises.append(
            {
                "type": exercise.type,
                "bloom_level": exercise.bloom_level,
                "prompt": exercise.prompt,
                "content": exercise.content,
                "explanation": exercise.explanation,
                "source_chunk_ids": chunk_ids,
            }
        )
    if len(exercises) < min_exercises:
        return None
    return {"index": index, "module_spec": spec, "lessons": lessons, "exercises": exercises}


def write_module(
    llm: LLM,
    task: Mapping[str, Any],
    primary: list[Section],
    supplement: list[Section],
    every: list[Section],
    siblings: list[str],
    corpus: list[str],
    context_sections: list[Section],
    model_calls,
) -> dict:
    """One module: the model writes it from its compartmented sources, the twin when it can't.
    Only the model call holds ``model_calls`` (the semaphore of 3); the rest runs alongside."""
    spec, language = task["module_spec"], task["language"]

    def twin() -> dict:
        return module_twin(task["module_index"], spec, primary, supplement, every, language, siblings, corpus)

    if llm.offline:
        return twin()
    refs = chunk_refs(context_sections)
    lessons = "\n".join(
        f"{lesson['position']}. [{lesson['content_type']}] {lesson['title']}" for lesson in spec["lessons"]
    )
    instructions = f"Instructions from the admin: {task['instructions']}\n" if task.get("instructions") else ""
    messages = [
        system_message(prompts.MODULE_WRITER, language),
        HumanMessage(
            prompts.MODULE_USER.format(
                position=spec["position"],
                total=task["total"],
                title=spec["title"],
                summary=spec["summary"],
                bloom=spec["bloom_level"],
                lessons=lessons,
                instructions=instructions,
                context=context_block(context_sections, refs=refs),
            )
        ),
    ]
    with model_calls:
        result = llm.structured("generator", messages, ModuleContentOut, ModuleContentOut)
    module = (
        usable_module(result.value, task["module_index"], spec, context_sections, refs)
        if result.engine != "offline" and result.finish_reason != "length"
        else None
    )
    if module is None:  # truncated, short or off-contract: once more, one lesson per call (issue 13)
        module = _lesson_by_lesson(llm, task, spec, language, instructions, context_sections, refs, model_calls)
    why = "length" if result.finish_reason == "length" else result.outcome.removeprefix("twin:")
    if not module:
        return {**twin(), "fallback": why or "contract"}

    def rewrite(n: int, findings: list[dict]) -> dict | None:
        """The lesson written again, once, with what the reviewer found in it."""
        lesson = spec["lessons"][n]
        listing = "\n".join(f"- {f['description']}" for f in findings)
        messages = [
            system_message(prompts.MODULE_WRITER, language),
            HumanMessage(
                prompts.MODULE_USER.format(
                    position=spec["position"],
                    total=task["total"],
                    title=spec["title"],
                    summary=spec["summary"],
                    bloom=spec["bloom_level"],
                    lessons=f"{lesson['position']}. [{lesson['content_type']}] {lesson['title']}",
                    instructions=instructions + prompts.LESSON_FINDINGS.format(findings=listing),
                    context=context_block(context_sections, refs=refs),
                )
            ),
        ]
        with model_calls:
            again = llm.structured("generator", messages, ModuleContentOut, ModuleContentOut)
        if again.engine == "offline" or again.finish_reason == "length":
            return None
        part = usable_module(
            again.value, task["module_index"], {**spec, "lessons": [lesson]}, context_sections, refs, min_exercises=0
        )
        return part["lessons"][0] if part else None

    return gate_lessons({"engine": result.engine, **module}, every, language, rewrite, twin)


def _lesson_by_lesson(
    llm: LLM,
    task: Mapping[str, Any],
    spec: dict,
    language: str,
    instructions: str,
    context_sections: list[Section],
    refs: dict[str, str],
    model_calls,
) -> dict | None:
    """The module rebuilt from one smaller answer per lesson; None when any lesson still fails."""
    lessons, exercises, engine = [], [], None
    for lesson in spec["lessons"]:
        one = {**spec, "lessons": [lesson]}
        messages = [
            system_message(prompts.MODULE_WRITER, language),
            HumanMessage(
                prompts.MODULE_USER.format(
                    position=spec["position"],
                    total=task["total"],
                    title=spec["title"],
                    summary=spec["summary"],
                    bloom=spec["bloom_level"],
                    lessons=f"{lesson['position']}. [{lesson['content_type']}] {lesson['title']}",
                    instructions=instructions,
                    context=context_block(context_sections, refs=refs),
                )
            ),
        ]
        with model_calls:
            result = llm.structured("generator", messages, ModuleContentOut, ModuleContentOut)
        part = (
            usable_module(result.value, task["module_index"], one, context_sections, refs, min_exercises=0)
            if result.engine != "offline" and result.finish_reason != "length"
            else None
        )
        if part is None:
            return None
        lessons += part["lessons"]
        exercises += part["exercises"]
        engine = result.engine
    if len(exercises) < 2:
        return None
    return {
        "index": task["module_index"],
        "module_spec": spec,
        "lessons": lessons,
        "exercises": exercises,
        "engine": engine,
    }


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
    if llm.offline or source_chars > CONTEXT_CHAR_BUDGET:  # a long source: the twin keeps all of it
        return twin
    refs = chunk_refs(sections)
    back = {ref: chunk_id for chunk_id, ref in refs.items()}
    result = llm.structured(
        "generator",
        [
            system_message(prompts.MANUAL_WRITER, language),
            HumanMessage(prompts.MANUAL_USER.format(context=context_block(sections, refs=refs))),
        ],
        ManualOut,
        lambda: ManualOut(title="", sections=[ManualSectionOut(heading="-", body="-")]),
    )
    if result.engine == "offline":
        return twin
    out, toc = [], []
    for n, section in enumerate(result.value.sections, 1):
        entry = {"heading": section.heading, "level": section.level, "anchor": anchor(section.heading, n)}
        toc.append(entry)
        out.append({**entry, "body": section.body, "chunk_ids": [back[r] for r in section.chunk_refs if r in back]})
    title = result.value.title or twin["title"]
    return {
        "title": title,
        "toc": toc,
        "sections": out,
        "content_md": render_manual(title, toc, out, language),
        "engine": result.engine,
    }
