"""Links between the app's pages that still work when a page runs alone (AppTest has no navigation)."""

from __future__ import annotations

from pathlib import Path

import streamlit as st
from streamlit.errors import StreamlitPageNotFoundError


def page_link(page: str, label: str, icon: str, params: dict) -> None:
    """A link to another page of the app; a plain link when the page runs alone (AppTest, no navigation)."""
    try:
        st.page_link(page, label=label, icon=icon, query_params=params)
    except StreamlitPageNotFoundError:
        query = "&".join(f"{k}={v}" for k, v in params.items())
        st.markdown(f"{icon} [{label}](/{Path(page).stem}?{query})")
