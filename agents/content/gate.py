"""A model's lessons judged by the reviewer's eyes (checks.py) before the module is kept (issue 28, build 3).

A lesson with a critical or major finding (a repeated sentence, a cut one, a changed figure, text addressed to
an assistant, another language…) is written again once with its findings; if the second answer still fails,
the twin's lesson for the same place replaces it, and the module lists it (``replaced_lessons``) so the review
the admin reads says which lesson, and why.
"""

from __future__ import annotations

from collections.abc import Callable

from agents.content.checks import lesson_findings
from agents.content.sections import Section

FAILING = ("critical", "major")


def failing_findings(lesson: dict, sections: list[Section], language: str) -> list[dict]:
    """The critical and major findings of one lesson read alone (what a trainer would reject in it)."""
    alone = {"module_spec": {"title": ""}, "lessons": [lesson], "exercises": []}
    return [
        f
        for f in lesson_findings([alone], sections, language)
        if f["severity"] in FAILING and f.get("lesson_index") is not None
    ]


def gate_lessons(
    module: dict,
    sections: list[Section],
    language: str,
    rewrite: Callable[[int, list[dict]], dict | None],
    twin: Callable[[], dict],
) -> dict:
    """The module with each failing lesson rewritten once (``rewrite(n, findings)``, None when the model gave
    nothing usable), else replaced by the twin's lesson at the same place; ``replaced_lessons`` lists those."""
    lessons, replaced, twin_module = list(module["lessons"]), [], None
    for n, lesson in enumerate(lessons):
        found = failing_findings(lesson, sections, language)
        if not found:
            continue
        again = rewrite(n, found)
        if again is not None and not failing_findings(again, sections, language):
            lessons[n] = again
            continue
        twin_module = twin_module or twin()
        lessons[n] = twin_module["lessons"][n]
        replaced.append(
            {
                "position": lesson["position"],
                "title": lesson["title"],
                "codes": sorted({f["code"] for f in found}),
                "findings": [f["description"] for f in found],
            }
        )
    return {**module, "lessons": lessons, "replaced_lessons": replaced}
