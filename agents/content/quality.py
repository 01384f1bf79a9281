"""The model's quality review of a generated course and the refinement of a module after it, each checked
and with its offline twin (review.py's deterministic report, twins.py's refiner)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from langchain_core.messages import HumanMessage
from pydantic import BaseModel, Field

from agents.content import prompts
from agents.content.authoring import ModuleContentOut, usable_module
from agents.content.design import system_message
from agents.content.review import finish_report, review_twin
from agents.content.sections import Section
from agents.content.sources import CONTEXT_CHAR_BUDGET, chunk_refs, context_block, sections_for
from agents.content.twins import module_sections, refine_twin
from agents.llm import LLM


class IssueOut(BaseModel):
    severity: Literal["critical", "major", "minor"]
    module_index: int | None = None
    description: str
    suggestion: str = ""


class ReviewOut(BaseModel):
    passed: bool
    overall_score: float = Field(ge=0, le=1)
    issues: list[IssueOut] = []


def serialize_content(
    modules: Sequence[Mapping[str, Any]], manual: dict | None, limit: int = CONTEXT_CHAR_BUDGET // 2
) -> str:
    body = json.dumps(
        {
            "modules": [
                {
                    "index": m["index"],
                    "title": m["module_spec"]["title"],
                    "lessons": [{"title": l["title"], "content": l["content"]} for l in m["lessons"]],
                    "exercises": m["exercises"],
                }
                for m in modules
            ],
            "manual_toc": (manual or {}).get("toc"),
        },
        ensure_ascii=False,
    )
    return body[:limit]


def review(
    llm: LLM, modules: Sequence[Mapping[str, Any]], manual: dict | None, sections: list[Section], language: str
) -> dict:
    """The deterministic checks always run. A model then reviews every module against its own sources (one
    call per module, so nothing is cut); its issues join the report and its mean score halves the twin's."""
    report = review_twin(modules, manual, sections, language)
    if llm.offline or not modules:
        return report
    extra, scores, engine = [], [], "offline"
    for module in modules:
        cited = {c for lesson in module["lessons"] for c in lesson.get("source_chunk_ids") or []} | {
            c for exercise in module["exercises"] for c in exercise.get("source_chunk_ids") or []
        }
        own = module_sections(module["module_spec"], sections)
        sources = own + [s for s in sections_for(sections, sorted(cited)) if s.key not in {o.key for o in own}]
        result = llm.structured(
            "reviewer",
            [
                system_message(prompts.QUALITY_REVIEWER, language),
                HumanMessage(
                    prompts.REVIEW_USER.format(
                        source=context_block(sources, budget=10**9),
                        content=serialize_content([module], None, limit=10**9),
                    )
                ),
            ],
            ReviewOut,
            lambda: ReviewOut(passed=report["passed"], overall_score=report["overall_score"]),
        )
        if result.engine == "offline":
            continue
        engine = result.engine
        scores.append(result.value.overall_score)
        extra += [
            {**i.model_dump(), "module_index": module["index"], "exercise_index": None, "code": "model"}
            for i in result.value.issues
        ]
    if not scores:
        return report
    return finish_report(
        report["issues"] + extra,
        (report["checks_score"] + sum(scores) / len(scores)) / 2,
        len(modules),
        report["checks"],
        engine,
    )


def refine_module(
    llm: LLM,
    module: Mapping[str, Any],
    issues: Sequence[Mapping[str, Any]],
    primary: list[Section],
    supplement: list[Section],
    language: str,
    siblings: list[str],
    corpus: list[str],
    source: str,
    instructions: str | None,
    model_calls,
) -> dict:
    fixed = refine_twin(module, issues, primary, supplement, language, siblings, corpus, source)
    if llm.offline:
        return fixed
    sections = primary + supplement
    refs = chunk_refs(sections)
    listing = "\n".join(f"- [{i['severity']}] {i['description']} → {i['suggestion']}" for i in issues)
    messages = [
        system_message(prompts.CONTENT_REFINER, language),
        HumanMessage(
            prompts.REFINE_USER.format(
                issues=listing or "-",
                instructions=f"Admin instructions: {instructions}\n" if instructions else "",
                context=context_block(sections, refs=refs),
                module=serialize_content([module], None),
            )
        ),
    ]
    with model_calls:
        result = llm.structured("generator", messages, ModuleContentOut, ModuleContentOut)
    if result.engine == "offline":
        return fixed
    refined = usable_module(result.value, module["index"], module["module_spec"], sections, refs)
    return {**refined, "engine": result.engine} if refined else fixed
