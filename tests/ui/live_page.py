"""A page following work with ui/live.py's panel, for tests/ui/test_live_panel_browser.py: the work's stage is a
file's text; while the file ``hold`` exists the page's own run waits (a busy server) once the work is done, and
says so with the file ``held``."""

import os
import time
from pathlib import Path

import streamlit as st

from ui.live import live_panel

FOLDER = Path(os.environ["LIVE_PANEL_DIR"])


def observe() -> str:
    return (FOLDER / "stage").read_text()


st.title("Live panel")
while observe() == "done" and (FOLDER / "hold").exists():
    (FOLDER / "held").touch()
    time.sleep(0.05)


def draw(stage: str) -> None:
    st.write(f"stage: {stage}")
    if stage == "done":
        with st.expander("Assign to…", key="assign", on_change="rerun"):
            who = st.multiselect("People", ["James Carter", "Ana Ruiz"], key="who")
            st.button("Preview", disabled=not who, key="preview")


live_panel("live", observe, draw, stage=lambda stage: stage, busy=lambda stage: stage != "done")
