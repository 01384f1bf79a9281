"""The homes' elements, drawn once on the sign-in page where no one sees them, so the home is not drawn grey.

Streamlit's browser app loads an element's code the first time a page shows that element (a metric, a progress
bar, a button, a table) and draws a grey box until that code, and the code it imports, has come and run: after a
first sign-in on a busy server the home was grey boxes for seconds. Drawn here, inside a container that CSS hides,
their code is loaded while the visitor types, and the home draws them at once. Only CSS: no page runs script of
its own (tests/untrusted/test_no_page_script.py). A prefetch header alone saves the fetching, not the loading."""

from __future__ import annotations

import streamlit as st

UNSEEN = "home-elements-unseen"  # the container's key; Streamlit gives it the class st-key-<key>


def draw_home_elements_unseen() -> None:
    with st.container(key=UNSEEN):
        st.html(f"<style>.st-key-{UNSEEN} {{display: none}}</style>")
        st.metric("-", 0, label_visibility="collapsed")
        st.progress(0)
        st.button("-", key=f"{UNSEEN}-button", disabled=True)
        st.download_button("-", b"", key=f"{UNSEEN}-download", disabled=True)
        st.dataframe({"-": []}, hide_index=True)
