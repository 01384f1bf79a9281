"""Inline edits of generated content at the final review (spec 004 §7.3, PUT .../content).

A target names what to change: ``course``, ``module.I``, ``module.I.lesson.J``, ``module.I.exercise.K``
or ``manual.section.S`` (indices from 0); ``field`` is one of the editable fields of that target.
"""
from __future__ import annotations

import copy

from agents.content.twins import render_manual
from storage.catalog import BLOOM_LEVELS, CatalogError, validate_exercise_content

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


def apply_patch(state: dict, edits: dict) -> dict:
    """The state update for one edit; raises EditError when it cannot apply."""
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
