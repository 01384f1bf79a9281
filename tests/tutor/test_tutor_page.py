"""The Streamlit Tutor page embeds the chat on the same host, with no sign-in token in its address
(the browser's session cookie signs the learner in)."""

from __future__ import annotations

import re
import socket
from pathlib import Path
from urllib.parse import urlsplit

from streamlit.testing.v1 import AppTest

PAGE = str(Path(__file__).resolve().parents[2] / "pages" / "tutor.py")


def test_tutor_page_embeds_the_chat_signed_in(seeded_pool, lucia, monkeypatch):
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    monkeypatch.setenv("SKILLNET_CHAT_PORT", str(port))
    page = AppTest.from_file(PAGE, default_timeout=60)
    page.session_state["user"] = lucia
    page.run()
    assert not page.exception
    sources = [m for node in page.main for m in re.findall(r'src: "([^"]+)"', str(getattr(node, "proto", "")))]
    assert sources, "an iframe with the chat URL"
    url = urlsplit(sources[0])
    assert url.port == port
    assert "token" not in url.query and url.hostname == "localhost"


def test_tutor_page_needs_a_signed_in_user(seeded_pool):
    page = AppTest.from_file(PAGE, default_timeout=30)
    page.run()
    assert page.warning and "sign in" in page.warning[0].value.lower()


def test_chat_served_apart_is_embedded_from_the_apps_own_origin(seeded_pool, lucia, monkeypatch):
    """Behind the proxy (deploy/haproxy.cfg) the frame is a path of the page's own origin: https stays https,
    no second port, and the app starts no chat of its own."""
    monkeypatch.setenv("SKILLNET_CHAT_PATH", "/chat/")
    page = AppTest.from_file(PAGE, default_timeout=60)
    page.session_state["user"] = lucia
    page.run()
    assert not page.exception
    sources = [m for node in page.main for m in re.findall(r'src: "([^"]+)"', str(getattr(node, "proto", "")))]
    url = urlsplit(sources[0])
    assert (url.hostname, url.port, url.path) == ("localhost", None, "/chat/")
    assert "token" not in url.query
