"""Uploads being ingested in the background: each file's stage, pages parsed and passages embedded,
refreshed every 2 s while one is in flight (the content studio and the retrieval lab show the same panel)."""
from __future__ import annotations

import streamlit as st

from agents.i18n import t
from agents.ingestion import recent


def ingestion_progress(user, *, limit: int = 8) -> None:
    # refresh only while an upload is in flight: a page that reruns a fragment every 2 s while the admin
    # reviews a course loses clicks that land during a refresh (the studio's publish button seemed dead)
    in_flight = any(view.running for view in recent(user, limit=limit))

    @st.fragment(run_every=2 if in_flight else None)
    def panel() -> None:   # the page's next full run (a click, the job's next stage) stops the refresh
        _draw(recent(user, limit=limit), user.language)

    panel()


def _draw(views, lang: str) -> None:
    if not views:
        return
    st.markdown(f"**{t('ingestion.heading', lang)}**")
    for view in views:
        name, state = st.columns([2, 5])
        name.text(f"📄 {view.name}")   # a file name is untrusted text: shown as text, never as Markdown
        if view.progress is not None:
            state.progress(view.progress, text=f"{view.status_label} · {view.detail}")
        elif view.status == "failed":
            state.error(f"{view.status_label}: {view.detail}")
        else:
            state.caption(" · ".join(part for part in (view.status_label, view.detail) if part))
        if view.note:
            state.caption(view.note)
