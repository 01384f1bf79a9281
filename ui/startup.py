"""Work done once per server process: the database ready, the demo organisation loaded if empty,
interrupted helpdesk sessions closed, the task-queue worker running."""
from __future__ import annotations


import streamlit as st

from storage import config
from ui.deps import app_deps


@st.cache_resource(show_spinner="Starting SkillNet: database and demo organisation…")
def prepare_app() -> bool:
    from agents.tasks import defer_helpdesk_sweeps, start_worker_thread
    from agents.metrics import start_metrics_server
    from agents.tutor.sources import original_file
    from seeds.loader import VECTORS, load_demo_if_empty
    from storage.embeddings import VectorPack
    from storage.ingest import backfill_heading_spans, backfill_section_vectors

    load_demo_if_empty(app_deps().pool)
    # chunks stored before migrations 050 and 180 get their sections' headings from their original files,
    # then their sections' vectors (the demo's from the seeds' pack); both only once
    backfill_heading_spans(app_deps().pool, original_file)
    backfill_section_vectors(app_deps().pool, VectorPack.load(VECTORS))
    # "off" when the task queue is served by separate `python -m agents.content worker` processes
    if config.get("SKILLNET_CONTENT_WORKER") != "off":
        start_worker_thread()  # resumes jobs a crash cut off, then takes new ones
    defer_helpdesk_sweeps()  # helpdesk orphan and TTL sweeps now (then every 10 minutes) by whichever worker
    start_metrics_server()  # Prometheus /metrics when SKILLNET_METRICS_PORT is set
    install_sigterm_drain()
    return True


def install_sigterm_drain() -> None:
    """SIGTERM drains before Streamlit stops (agents/drain.py). Streamlit has no public hook for it: its
    runtime's event loop runs on the main thread, the only one that may install a signal handler."""
    from streamlit.runtime import Runtime

    from agents.drain import install

    try:
        loop = Runtime.instance()._get_async_objs().eventloop
    except RuntimeError:   # no server running (AppTest, python app.py): no signal to drain for
        return
    install(loop)
