"""The Gradio tutor chat, started once per Streamlit server process (the one-command demo).

ui/startup.py starts it in the background once the sign-in is usable (``start_chat_server``), so no
page waits for Gradio's import; a page that embeds the chat waits for it (``chat_server_port``). With
SKILLNET_CHAT_PATH set, separate `python chat.py` processes serve the chat behind a proxy and the app
starts none.
"""

from __future__ import annotations

import logging
import threading

from core import config
from core.once import built_once

log = logging.getLogger(__name__)
STARTUP_TIMEOUT_SECONDS = 120


def _launch(chat) -> None:
    try:
        chat.launch(port=chat.chat_port(), block=False)
    except Exception as exc:  # typically the port is taken: the page then embeds whatever serves it
        log.warning("tutor chat not started here (%s); using the server already on its port", exc)


def chat_served_apart() -> bool:
    """The chat runs in processes of its own, under a path of the app's origin (SKILLNET_CHAT_PATH)."""
    return config.get("SKILLNET_CHAT_PATH") is not None


@built_once
def start_chat_server() -> threading.Thread | None:
    """Start the chat on SKILLNET_CHAT_PORT once per process, in the background (none when it is served apart).

    When the port is taken (``python chat.py`` already running, or another app process), that server
    is used instead.
    """
    if chat_served_apart():
        return None
    import chat  # imported here, not in the thread: gradio imported from two threads at once breaks

    thread = threading.Thread(target=_launch, args=(chat,), name="tutor-chat-start", daemon=True)
    thread.start()
    return thread


def chat_server_port() -> int:
    """The chat's port, once the server this process starts is up."""
    started = start_chat_server()  # first: it imports chat (and gradio) under its lock
    import chat

    if started is not None:
        started.join(STARTUP_TIMEOUT_SECONDS)
    return chat.chat_port()
