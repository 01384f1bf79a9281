"""Uploads being ingested in the background: each file's stage, pages parsed and passages embedded,
refreshed every 2 s while one is in flight (the retrieval lab; the content studio draws the same rows inside
its job panel)."""

from __future__ import annotations

import streamlit as st

from agents.i18n import t
from agents.ingestion.uploads import IngestionView, recent
from ui.live import live_panel


def ingestion_progress(user, *, limit: int = 8) -> None:
    live_panel(
        "ingestion-live",
        lambda: recent(user, limit=limit),
        lambda views: draw_ingestions(views, user.language),
        stage=in_flight,
        busy=lambda views: bool(in_flight(views)),
    )


def in_flight(views: list[IngestionView]) -> frozenset:
    """The uploads still being worked on: when this set changes, the page is drawn again."""
    return frozenset(view.id for view in views if view.running)


def draw_ingestions(views: list[IngestionView], lang: str) -> None:
    if not views:
        return
    st.markdown(f"**{t('ingestion.heading', lang)}**")
    for view in views:
        name, state = st.columns([2, 5])
        name.text(f"📄 {view.name}")  # a file name is untrusted text: shown as text, never as Markdown
        if view.progress is not None:
            state.progress(view.progress, text=f"{view.status_label} · {view.detail}")
        elif view.status == "failed":
            state.error(f"{view.status_label}: {view.detail}")
        else:
            state.caption(" · ".join(part for part in (view.status_label, view.detail) if part))
        if view.note:
            state.caption(view.note)
