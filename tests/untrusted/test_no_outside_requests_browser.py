"""Other people's images and links stay text in a real browser: with tracking pixels planted raw (as
data stored before the sanitiser existed) in lessons, ticket titles and document passages, the course
player, My tickets and the Gradio tutor chat make 0 requests to a local listener standing in for the
attacker's server. Before: 3/3 pixels fetched in Streamlit, 1/1 in Gradio."""

from __future__ import annotations

import threading
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from storage import tickets, users
from tests.browser import chromium_page, free_port, go_to, needs_chromium, running_app, sign_in

QUESTION = "¿Qué es el phishing?"


class _Recorder(BaseHTTPRequestHandler):
    seen: list[str] = []

    def do_GET(self):  # noqa: N802 (http.server's name)
        self.seen.append(self.path)
        self.send_response(200)
        self.send_header("Content-Type", "image/gif")
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture
def listener():
    server = ThreadingHTTPServer(("127.0.0.1", free_port()), _Recorder)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    _Recorder.seen = []
    yield f"http://127.0.0.1:{server.server_address[1]}", _Recorder.seen
    server.shutdown()


def _plant(pool, outside: str) -> None:
    pixel = f' ![pixel]({outside}/md.gif) <img src="{outside}/html.gif"> [portal]({outside}/phish) <{outside}/auto>'
    with pool.connection() as conn:
        lucia = users.get_user_by_email(conn, "lucia@acme.test")
        ticket, _ = tickets.create(
            conn, lucia.org_id, title="Badge reader broken", body="It beeps.", created_by=lucia.id, source="seed"
        )
        # Raw, as rows written before the sanitiser: the rendering edges must hold on their own.
        conn.execute("UPDATE tickets SET title = title || %s WHERE id = %s", (pixel, ticket.id))
        conn.execute(
            "UPDATE lessons SET content_md = content_md || %s WHERE org_id = %s", ("\n\n" + pixel, lucia.org_id)
        )
        conn.execute("UPDATE document_chunks SET content = content || %s WHERE org_id = %s", (pixel, lucia.org_id))


@needs_chromium
def test_planted_pixels_and_links_make_no_request(seeded_db_url, seeded_pool, listener, tmp_path):
    outside, seen = listener
    with urllib.request.urlopen(f"{outside}/control", timeout=5):  # the listener does record
        pass
    assert seen == ["/control"]
    seen.clear()
    _plant(seeded_pool, outside)
    chat_port = free_port()
    with running_app(seeded_db_url, extra_env={"SKILLNET_CHAT_PORT": str(chat_port)}) as base, chromium_page() as page:
        sign_in(page, base, "lucia@acme.test", "skillnet-demo")
        go_to(page, "course_player")
        page.get_by_text("🖼 pixel").first.wait_for(timeout=120_000)  # the planted lesson text, rendered as data
        page.screenshot(path=str(tmp_path / "course_player.png"), full_page=True)

        go_to(page, "my_tickets")
        page.get_by_text("Badge reader broken").first.wait_for(timeout=120_000)
        page.screenshot(path=str(tmp_path / "my_tickets.png"), full_page=True)

        go_to(page, "tutor")
        frame = page.locator(f'iframe[src*=":{chat_port}/"]').content_frame
        box = frame.get_by_placeholder("Pregunta a tu tutor…")
        box.wait_for(timeout=120_000)
        box.fill(QUESTION)
        frame.get_by_role("button", name="Enviar", exact=True).click()
        frame.locator(".badge.engine").last.wait_for(timeout=120_000)  # the answer's engine badge: it is done
        for summary in frame.locator("summary").all():  # open every cited passage (the planted chunks)
            summary.click()
        page.wait_for_timeout(1000)  # let any image request leave before counting
        page.screenshot(path=str(tmp_path / "tutor.png"), full_page=True)
        planted_link = f"a[href^='{outside}']"  # the chat itself is served from 127.0.0.1 too
        assert frame.locator(planted_link).count() == 0 and page.locator(planted_link).count() == 0
    assert seen == []
    Path("/tmp/untrusted-shots").mkdir(exist_ok=True)
    for shot in tmp_path.glob("*.png"):
        shot.replace(Path("/tmp/untrusted-shots") / shot.name)
