"""Inline edits of generated content at the final review (spec 004 §7.3, PUT .../content).

A target names what to change: ``course``, ``module.I``, ``module.I.lesson.J``, ``module.I.exercise.K``
or ``manual.section.S`` (indices from 0); ``field`` is one of the editable fields of that target.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping
from typing import Any

from agents.content.state import merge_modules
from agents.content.twins import render_manual
from storage.courses import CatalogError
from storage.exercises import BLOOM_LEVELS, validate_exercise_content

EDITABLE = {
    "course": ("title", "description", "outcome"),
    "module": ("title", "summary"),
    "lesson": ("title", "content"),
    "exercise": ("prompt", "explanation", "content", "bloom_level"),
    "section": ("heading", "body"),
}


class EditError(ValueError):
    """An edit that names nothing editable, or an invalid value; one line."""


def parse_target(target: str) -> tuple[str, list[int]]:
    parts = (target or "").split(".")
    try:
        if parts == ["course"]:
            return "course", []
        if parts[0] == "module" and len(parts) == 2:
            return "module", [int(parts[1])]
        if parts[0] == "module" and len(parts) == 4 and parts[2] in ("lesson", "exercise"):
            return parts[2], [int(parts[1]), int(parts[3])]
        if parts[:2] == ["manual", "section"] and len(parts) == 3:
            return "section", [int(parts[2])]
    except ValueError:
        pass
    raise EditError(f"unknown edit target {target!r}")


def apply_patch(state: Mapping[str, Any], edits: dict) -> dict:
    """The state update for one edit (``field``/``value``, or several at once in ``fields``, as a form saves
    them); raises EditError when any of them cannot apply, and then nothing applies."""
    if "fields" in edits:
        current, update = dict(state), {}
        for field, value in (edits.get("fields") or {}).items():
            step = apply_patch(current, {"target": edits.get("target", ""), "field": field, "value": value})
            current["generated_modules"] = merge_modules(
                current.get("generated_modules"), step.pop("generated_modules", [])
            )
            current.update(step)
            update.update(step)
        return {
            **update,
            "generated_modules": [
                m
                for m in current.get("generated_modules") or []
                if m != next((o for o in state.get("generated_modules") or [] if o["index"] == m["index"]), None)
            ],
        }
    kind, indices = parse_target(edits.get("target", ""))
    field, value = edits.get("field"), edits.get("value")
    if field not in EDITABLE[kind]:
        raise EditError(f"{kind} field must be one of {', '.join(EDITABLE[kind])}")
    if kind == "course":
        outline = {**state["course_outline"], field: str(value)}
        return {"course_outline": outline}
    if kind == "section":
        manual = copy.deepcopy(state.get("generated_manual") or {})
        sections = manual.get("sections") or []
        if not 0 <= indices[0] < len(sections):
            raise EditError("there is no such manual section")
        sections[indices[0]][field] = str(value)
        if field == "heading":
            manual["toc"][indices[0]]["heading"] = str(value)
        language = state.get("source_metadata", {}).get("language", "es")
        manual["content_md"] = render_manual(manual["title"], manual["toc"], sections, language)
        return {"generated_manual": manual}
    modules = state.get("generated_modules") or []
    if not 0 <= indices[0] < len(modules):
        raise EditError("there is no such module")
    module = copy.deepcopy(modules[indices[0]])
    if kind == "module":
        module["module_spec"][field] = str(value)
    else:
        items = module["lessons" if kind == "lesson" else "exercises"]
        if not 0 <= indices[1] < len(items):
            raise EditError(f"there is no such {kind}")
        item = items[indices[1]]
        if kind == "exercise" and field == "content":
            try:
                validate_exercise_content(item["type"], value)
            except CatalogError as exc:
                raise EditError(str(exc)) from exc
        elif kind == "exercise" and field == "bloom_level" and value not in BLOOM_LEVELS:
            raise EditError(f"bloom_level must be one of {', '.join(BLOOM_LEVELS)}")
        item[field] = value if field == "content" and kind == "exercise" else str(value)
    return {"generated_modules": [module]}


_RENAME = re.compile(
    r"(?:rename|renombra\w*|cambia el nombre del?)\s+(?:module|módulo)?\s*(\d+)\s*(?:to|a|:|=)\s*[«“\"]?([^»”\"\n;]+)",
    re.I,
)
_MERGE = re.compile(
    r"(?:merge|join|fusiona\w*|une|unir|junta\w*)\s+(?:modules|módulos)?\s*(\d+)\s*(?:and|with|y|con|,|\+)\s*(\d+)",
    re.I,
)
_SPLIT = re.compile(r"(?:split|divide|dividir|separa\w*)\s+(?:module|módulo)?\s*(\d+)", re.I)


def apply_notes(outline: dict, notes: str) -> tuple[dict, list[str]]:
    """'Redesign with my notes' offline: the notes read as rules (rename N: title, merge N and M, split N),
    applied to the outline; returns it with the rules that applied, in order."""
    modules = copy.deepcopy(outline.get("modules") or [])
    applied = []
    for match in _RENAME.finditer(notes or ""):
        n = int(match.group(1)) - 1
        if 0 <= n < len(modules):
            modules[n]["title"] = match.group(2).strip()
            applied.append(f"rename {n + 1}")
    for match in _SPLIT.finditer(notes or ""):
        n = int(match.group(1)) - 1
        content = (
            [lesson for lesson in modules[n]["lessons"] if lesson["content_type"] != "exercise"]
            if 0 <= n < len(modules)
            else []
        )
        if len(content) >= 2:
            half, module = len(content) // 2, modules[n]
            practices = [lesson for lesson in module["lessons"] if lesson["content_type"] == "exercise"]
            first = {**module, "lessons": content[:half] + copy.deepcopy(practices)}
            second = {**copy.deepcopy(module), "title": content[half]["title"], "lessons": content[half:] + practices}
            modules[n : n + 1] = [first, second]
            applied.append(f"split {n + 1}")
    for match in _MERGE.finditer(notes or ""):
        a, b = sorted((int(match.group(1)) - 1, int(match.group(2)) - 1))
        if 0 <= a < b < len(modules):
            keep, gone = modules[a], modules.pop(b)
            lessons = [lesson for lesson in keep["lessons"] + gone["lessons"] if lesson["content_type"] != "exercise"]
            practice = next((lesson for lesson in keep["lessons"] if lesson["content_type"] == "exercise"), None)
            keep.update(
                title=f"{keep['title']} · {gone['title']}",
                themes=keep.get("themes", []) + gone.get("themes", []),
                chunk_ids=list(dict.fromkeys(keep.get("chunk_ids", []) + gone.get("chunk_ids", []))),
                lessons=lessons + ([practice] if practice else []),
            )
            applied.append(f"merge {a + 1}+{b + 1}")
    return {**outline, "modules": modules}, applied
