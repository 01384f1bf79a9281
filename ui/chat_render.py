"""How the tutor chat draws an answer (Gradio Markdown/HTML): the over-limit notice above it, its
numbered sources with the cited passage, next-step links, the grounding/engine/low-confidence badges;
and the Gradio theme in the Streamlit app's colours."""

from __future__ import annotations

import html
import json
import tomllib
from pathlib import Path
from urllib.parse import urlencode

import gradio as gr

from agents.i18n import code_label, t
from agents.tutor.citations import QUOTE_CHARS, citation_where
from core.markup import safe_markdown
from core.turns import Citations, Done, Grounding, Suggestions, TurnEvent

_BADGES = {"chunks": "company", "document": "course", "general": "general", "db": "progress", "none": "general"}
_BADGE_LABELS = {"chunks": "company", "document": "course", "general": "general", "db": "progress", "none": "none"}
THEME_FILE = Path(__file__).resolve().parents[1] / ".streamlit" / "config.toml"


def app_theme() -> gr.themes.Base:
    """Gradio's theme in the Streamlit app's colours (.streamlit/config.toml), so the embedded chat
    looks like the page around it."""
    try:
        colours = tomllib.loads(THEME_FILE.read_text(encoding="utf-8")).get("theme", {})
    except (OSError, tomllib.TOMLDecodeError):
        colours = {}
    primary = colours.get("primaryColor", "#2563eb")
    return gr.themes.Default(primary_hue="blue", neutral_hue="slate").set(
        button_primary_background_fill=primary,
        button_primary_background_fill_hover=primary,
        button_primary_border_color=primary,
        button_primary_text_color="#ffffff",
        color_accent=primary,
        color_accent_soft=colours.get("secondaryBackgroundColor", "#f1f5f9"),
        body_background_fill=colours.get("backgroundColor", "#ffffff"),
        body_text_color=colours.get("textColor", "#0f172a"),
        block_background_fill=colours.get("backgroundColor", "#ffffff"),
    )


def badge_html(
    rung: str | None, source: str | None, engine: str | None, language: str, low_confidence: str | None = None
) -> str:
    """The answer's badges: where it comes from (none without a rung: a guiding question), the engine that
    wrote it and why confidence is low."""
    key = source if source in ("db", "none") else rung
    if key not in _BADGES and not engine:
        return ""
    grounding = ""
    if key in _BADGES:  # offline, the general rung is "not found" (the twin has no general knowledge)
        label = t(
            f"tutor.badge.{'not_found' if key == 'general' and engine == 'offline' else _BADGE_LABELS[key]}", language
        )
        grounding = f'<span class="badge {_BADGES[key]}">{html.escape(label)}</span>'
    engine_label = (
        f'<span class="badge engine">⚙ {html.escape(code_label("engine", engine, language))}</span>' if engine else ""
    )
    low_reason = t(f"tutor.low.{low_confidence}", language) if low_confidence else ""
    low = (
        f'<span class="badge low">⚠ {html.escape(t("tutor.badge.low_confidence", language, reason=low_reason))}</span>'
        if low_confidence
        else ""
    )
    return f"{grounding}{engine_label}{low}"


def _app_link(app_url: str | None, page: str, params: dict) -> str | None:
    query = f"?{urlencode(params)}" if params else ""
    return f"{app_url.rstrip('/')}/{page}{query}" if app_url else None


def _citation_target(citation: dict) -> dict:
    """The source viewer's query for a citation: its chunk, a manual's section, else its document or lesson;
    with the cited sentence (which section of a chunk to name, what to mark in a document kept whole)."""
    kind = {"document_chunk": "chunk", "document": "document", "lesson": "lesson", "manual": "manual"}.get(
        citation.get("source_type") or ""
    )
    if not kind or not citation.get("source_id"):
        return {}
    target = {kind: citation["source_id"]}
    if kind == "manual":
        return {**target, "section": citation.get("anchor") or ""}
    if citation.get("quote"):  # a chunk's: which of its sections the viewer names; else what to mark
        target["quote"] = citation["quote"][:QUOTE_CHARS]
    return target


def _action_link(action: dict, app_url: str | None) -> str | None:
    if action["kind"] == "course":
        lesson = {"lesson": action["lesson"]} if action.get("lesson") else {}  # the lesson that helps (issue 29)
        return _app_link(app_url, "course_player", {"course": action["id"], **lesson})
    if action["kind"] == "reviews":
        return _app_link(app_url, "reviews", {})
    if action["kind"] == "document":
        return _app_link(app_url, "source_viewer", {"document": action["id"]})
    return _app_link(app_url, "helpdesk", {"q": action.get("question", "")[:1500]})


def render_answer(text: str, metadata: dict, language: str, app_url: str | None = None) -> str:
    """The notice (if any), the answer, its numbered sources (each opens to show the cited passage),
    the next steps and the badges."""
    parts = [f"_⚠️ {html.escape(metadata['notice'])}_"] if metadata.get("notice") else []
    if metadata.get("fallback"):  # the model's answer was replaced by the offline engine's, and why
        parts.append(
            "_"
            + t("engine.fallback_notice", language, reason=code_label("fallback", metadata["fallback"], language))
            + "_"
        )
    parts.append(safe_markdown(text).strip())  # other people's Markdown: no outside image or link
    citations = metadata.get("citations") or []
    if citations:
        lines = [f"**{t('tutor.chat.sources', language)}**"]
        for c in citations:
            where = html.escape(safe_markdown(citation_where(c)))
            page = f", {t('tutor.source.page_short', language, page=c['page'])}" if c.get("page") else ""
            link = _app_link(app_url, "source_viewer", _citation_target(c)) if _citation_target(c) else None
            opener = (
                f' · <a href="{html.escape(link)}" target="_top">{t("tutor.chat.open_source", language)}</a>'
                if link
                else ""
            )
            lines.append(
                f"<details><summary>[{c['index']}] {where}{page}{opener}</summary>\n\n"
                f"{html.escape(safe_markdown(c.get('excerpt') or ''))}\n\n</details>"
            )
        parts.append("\n".join(lines))
    actions = [(a["label"], _action_link(a, app_url)) for a in metadata.get("actions") or []]
    links = [f'<a href="{html.escape(url)}" target="_top">{html.escape(label)}</a>' for label, url in actions if url]
    if links:
        parts.append(f'<div class="next-steps">{" ".join(links)}</div>')
    asking = metadata.get("guided") == "ask"  # the guiding question alone: no document has answered yet
    badge = badge_html(
        None if asking else metadata.get("rung"),
        None if asking else metadata.get("retrieval_source"),
        metadata.get("engine"),
        language,
        metadata.get("low_confidence_reason") if metadata.get("low_confidence") else None,
    )
    if badge:
        parts.append(badge)
    return "\n\n".join(parts)


class StreamedAnswer:
    """One answer as the chat draws it, gathered from its turn's events: Grounding (the rung), Citations (with
    their excerpts and what the source viewer opens), Suggestions (the next steps) and Done (the final text, its
    language, engine, fallback, confidence and notice). The stream carries all of it, so nothing is read back
    from the database."""

    def __init__(self) -> None:
        self.metadata: dict = {}

    def take(self, event: TurnEvent) -> None:
        if isinstance(event, Grounding):
            self.metadata["rung"] = event.rung
        elif isinstance(event, Citations):
            self.metadata["citations"] = event.citations
        elif isinstance(event, Suggestions):
            self.metadata["actions"] = event.actions
        elif isinstance(event, Done):
            self.metadata.update(vars(event))  # render_answer reads it as it reads a stored answer's metadata

    def html(self, app_url: str | None = None) -> str:
        """The finished answer (after Done), drawn as a stored one is (``render_answer``)."""
        return render_answer(self.metadata["text"], self.metadata, self.metadata["language"], app_url)

    def sources(self) -> list[tuple[str, str]]:
        return source_choices(self.metadata)


def source_choices(metadata: dict) -> list[tuple[str, str]]:
    """The source panel's options for one answer: "[n] document › section", valued by the viewer query."""
    choices = []
    for c in metadata.get("citations") or []:
        target = _citation_target(c)
        if target:
            choices.append((f"[{c['index']}] {citation_where(c)}", json.dumps(target)))
    return choices
