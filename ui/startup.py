"""Work done once per server process: the database ready, the demo organisation loaded if empty,
interrupted helpdesk sessions closed, the content-generation worker running."""
from __future__ import annotations


import streamlit as st

from storage import config
from storage.db import app_pool


@st.cache_resource(show_spinner="Starting SkillNet: database and demo organisation…")
def prepare_app() -> bool:
    from agents.content.worker import start_worker_thread
    from agents.helpdesk.sweeper import start_sweeper
    from agents.metrics import start_metrics_server
    from seeds.loader import load_demo_if_empty

    load_demo_if_empty(app_pool())
    # "off" when generation runs in separate `python -m agents.content worker` processes
    if config.get("SKILLNET_CONTENT_WORKER") != "off":
        start_worker_thread(app_pool())  # resumes jobs a crash cut off, then takes new ones
    start_sweeper()  # helpdesk orphan and TTL sweeps now and every 10 minutes
    start_metrics_server()  # Prometheus /metrics when SKILLNET_METRICS_PORT is set
    return True
