"""Work done once per server process: the database ready, the demo organisation loaded if empty."""
from __future__ import annotations

import streamlit as st

from storage.db import app_pool


@st.cache_resource(show_spinner="Starting SkillNet: database and demo organisation…")
def prepare_app() -> bool:
    from seeds.loader import load_demo_if_empty

    load_demo_if_empty(app_pool())
    return True
