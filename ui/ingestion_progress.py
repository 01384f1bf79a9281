"""Uploads being ingested in the background: each file's stage, pages parsed and passages embedded,
refreshed every 2 s (the content studio and the retrieval lab show the same panel)."""
from __future__ import annotations

import streamlit as st

from agents.i18n import t
from agents.ingestion import recent


@st.fragment(run_every=2)
def ingestion_progress(user, *, limit: int = 8) -> None:
    views = recent(user, limit=limit)
    if not views:
        return
    st.markdown(f"**{t('ingestion.heading', user.language)}**")
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
