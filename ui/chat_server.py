"""The Gradio tutor chat, started once per Streamlit server process (app.py calls ``ensure_chat_server``)."""
from __future__ import annotations

import logging

import streamlit as st

log = logging.getLogger(__name__)


@st.cache_resource(show_spinner=False)
def ensure_chat_server() -> int:
    """Start the chat in the background on SKILLNET_CHAT_PORT (once); returns the port.

    When the port is taken (``python chat.py`` already running, or another app process), that server
    is used instead.
    """
    import chat

    port = chat.chat_port()
    try:
        chat.launch(port=port, block=False)
    except Exception as exc:  # typically the port is taken: the page then embeds whatever serves it
        log.warning("tutor chat not started here (%s); using the server already on port %s", exc, port)
    return port
