"""The pages' AppDeps: built once per server process (``st.cache_resource``), rebuilt only when the
process's pool or model was reset (tests point each module at its own database)."""

from __future__ import annotations

import streamlit as st

from agents.runtime.deps import AppDeps, process_deps


@st.cache_resource(show_spinner=False, validate=lambda deps: deps.is_current())
def app_deps() -> AppDeps:
    return process_deps()
