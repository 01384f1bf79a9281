"""'Regenerate this exercise' at the final review: another exercise from the module's own sections, written by
the offline exercise writer (right by construction) and kept only if the reviewer finds nothing critical or
major in it. The same type comes first; an exercise already in the module is never offered again."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from agents.content import checks
from agents.content.exercise_checks import exercise_shape_findings
from agents.content.exercises import build_exercises
from agents.content.review import exercise_findings
from agents.content.sections import Section
from agents.content.twins import module_sections

ROTATIONS = 4


def _key(exercise: dict) -> str:
    return json.dumps([exercise["type"], exercise["prompt"], exercise["content"]], sort_keys=True, ensure_ascii=False)


def _clean(exercise: dict, every: list[Section], language: str) -> bool:
    by_chunk = {c: f"{s.heading}\n{text}" for s in every for c, text in zip(s.chunk_ids, s.texts)}
    cited = "\n\n".join(by_chunk.get(c, "") for c in exercise.get("source_chunk_ids") or [])
    source = "\n\n".join(f"{s.heading}\n{s.text}" for s in every)
    found = [severity for severity, _, _ in exercise_findings(exercise, cited, source)]
    found += [f["severity"] for f in checks.exercise_text_findings(exercise, source, 0, 0, language)]
    found += [f["severity"] for f in exercise_shape_findings(exercise, every, 0, 0, language)]
    return not any(severity in ("critical", "major") for severity in found)


def replacement_exercise(module: Mapping[str, Any], index: int, every: list[Section], language: str) -> dict | None:
    """A new exercise for place ``index`` of the module, or None when its sections support no other."""
    own = module_sections(module["module_spec"], every) or every
    corpus = [s.text for s in every]
    old = module["exercises"][index]
    taken = {_key(e) for e in module["exercises"]}
    candidates = [e for rotation in range(ROTATIONS) for e in build_exercises(own, [], language, corpus, rotation)]
    candidates += [e for section in own for e in build_exercises([section], [], language, corpus)]
    fresh = list({_key(e): e for e in candidates if _key(e) not in taken}.values())
    fresh.sort(key=lambda e: e["type"] != old["type"])  # stable: the writer's own order within a type
    return next((e for e in fresh if _clean(e, every, language)), None)
