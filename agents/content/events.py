"""A generation job's events as the studio lists them: each event type is a catalogue message
(``content.event.<type>``) filled from the event's figures, with its codes (step, engine, checkpoint) read
as words. Events store codes and figures only, never sentences: the reader's language is chosen here."""

from __future__ import annotations

from agents.i18n import code_label, format_number, has, t
from storage.jobs import Event


def event_line(event: Event, lang: str | None) -> str:
    data, kind = event.data, event.event_type
    if kind == "step" and has(step := f"content.step.{data.get('step')}"):
        return t(step, lang)
    if kind == "progress":
        phase = "done" if data.get("phase") == "done" else "started"
        return t(
            f"content.event.progress_{phase}",
            lang,
            index=int(data.get("index", 0)) + 1,
            total=data.get("total", 0),
            current=data.get("current") or "",
        )
    if kind == "queued" and data.get("uploads"):  # "queued with 0 documents" read as a job with nothing to do
        return t("content.event.queued_uploads", lang, uploads=data["uploads"], documents=data.get("documents", 0))
    if kind == "awaiting_review":
        return t(f"content.event.awaiting_{'structure' if data.get('checkpoint') == 'structure' else 'final'}", lang)
    if kind == "exercise_regenerated":
        replaced = "replaced" if data.get("replaced") else "kept"
        position = {"module": int(data.get("module", 0)) + 1, "exercise": int(data.get("exercise", 0)) + 1}
        return t(f"content.event.exercise_{replaced}", lang, **position)
    params = {
        "documents": data.get("documents", 0),
        "attempt": data.get("attempt", 1),
        "count": data.get("count", 0),
        "modules": data.get("modules", 0),
        "engine": code_label("engine", data.get("engine"), lang),
        "score": format_number(data.get("score"), lang, decimals=2),
        "issues": data.get("issues_count", data.get("issues_fixing", 0)),
        "critical": data.get("critical_count", 0),
        "step": code_label("node", data.get("step") or data.get("from"), lang),
        "message": data.get("message") or "",
        "cycle": data.get("cycle", 1),
        "max_cycles": data.get("max_cycles", 1),
        "index": int(data.get("index", 0)) + 1,
        "title": data.get("title") or "",
    }
    key = f"content.event.{kind}"
    return t(key, lang, **params) if has(key) else t("content.event.other", lang, kind=kind)
