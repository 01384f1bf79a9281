"""The tutor chat embedded in the Course player (narrow column) and on the Tutor page: history, input
box and Send are all in view, in a real browser. On the Tutor page Lucía asks about a course she is taking in
guided mode: the tutor asks a question first and says why, with no answer in that message; her guess gets
feedback, then the facts (issue 29)."""

from pathlib import Path

from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from tests.browser import chromium_page, free_port, go_to, needs_chromium, running_app, sign_in

SHOTS = Path("/tmp/tutorfix")
PLACEHOLDER = "Pregunta a tu tutor…"  # Lucía reads Spanish: every label is in her language


def _in_view(frame_box, element) -> bool:
    """The element lies wholly inside the iframe's visible box (not cut off by the frame's bottom)."""
    box = element.bounding_box()
    return (
        box is not None
        and box["y"] >= frame_box["y"]
        and box["y"] + box["height"] <= frame_box["y"] + frame_box["height"] + 1
    )


def _ask(page, url_part: str, question: str, shot: str):
    iframe = page.locator(f'iframe[src*="{url_part}"]')
    iframe.wait_for(timeout=180_000)
    frame = iframe.content_frame
    box = frame.get_by_placeholder(PLACEHOLDER)
    box.wait_for(timeout=180_000)
    asked = frame.locator("#tutor-chatbot").get_by_text(question)
    for attempt in range(6):  # on a busy machine the chat's own load run may clear a box filled before it ends
        box.fill(question)
        frame.get_by_role("button", name="Enviar", exact=True).click()
        try:
            asked.first.wait_for(timeout=30_000)
            break
        except PlaywrightTimeoutError:
            if attempt == 5:
                raise
    frame.locator(".badge.engine").last.wait_for(timeout=180_000)  # the answer's engine badge: it is done
    page.wait_for_timeout(500)  # let the chat's scroll settle before measuring what is in view
    page.screenshot(path=str(SHOTS / shot), full_page=True)
    return frame, iframe.bounding_box(), box


@needs_chromium
def test_tutor_input_and_send_stay_visible_when_embedded(seeded_db_url):
    SHOTS.mkdir(exist_ok=True)
    chat_port = free_port()
    with running_app(seeded_db_url, extra_env={"SKILLNET_CHAT_PORT": str(chat_port)}) as base, chromium_page() as page:
        sign_in(page, base, "lucia@acme.test", "skillnet-demo")
        go_to(page, "course_player")
        frame, frame_box, box = _ask(page, "embed=1", "¿Qué es el phishing?", "1_course_player.png")
        assert frame.locator("#tutor-chatbot").is_visible()
        assert _in_view(frame_box, box) and _in_view(frame_box, frame.get_by_role("button", name="Enviar", exact=True))
        assert not frame.get_by_text("Renombrar").first.is_visible()  # no sidebar over the chat

        go_to(page, "tutor")
        frame, frame_box, box = _ask(
            # a question her security course teaches (an incident's deadline is also the warehouse manual's, a
            # course she isn't taking, whose 24-hour rule answers first: no guided opening for it)
            page,
            f":{chat_port}/",
            "¿Cómo reporto un correo de phishing?",
            "2_tutor_page.png",
        )
        assert _in_view(frame_box, box) and _in_view(frame_box, frame.get_by_role("button", name="Enviar", exact=True))
        assert frame.get_by_text("Renombrar").first.is_visible()  # sessions sidebar kept
        chat = frame.locator("#tutor-chatbot")
        opening_line = chat.locator("p", has_text="🤔").last
        opening_line.scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / "3_guided_opening.png"), full_page=True)
        opening = opening_line.inner_text().strip()
        assert opening.startswith("🤔") and opening.endswith("?"), opening
        shown = chat.inner_text()
        asked_at = shown.rfind("🤔")
        why_at = shown.find("porque estás haciendo el curso «Seguridad de la información: lo esencial»", asked_at)
        assert 0 <= asked_at < why_at and "Según el material" not in shown[asked_at:], shown[asked_at:]  # it waits
        assert frame.get_by_role("button", name="Dime la respuesta").first.is_visible()  # the way out, as a chip

        answers = frame.locator(".badge.engine").count()
        guess = "Creo que se reenvía al equipo de seguridad"
        box.fill(guess)
        frame.get_by_role("button", name="Enviar", exact=True).click()
        frame.locator(".badge.engine").nth(answers).wait_for(timeout=180_000)  # the answer to the guess: done
        page.screenshot(path=str(SHOTS / "4_guided_answer.png"), full_page=True)
        shown = chat.inner_text()
        asked_at = shown.rfind("🤔")
        guessed_at = shown.find(guess, asked_at)  # her guess, its own message after the question
        feedback_at = min(at for mark in ("✅", "🟡", "❌") if (at := shown.find(mark, guessed_at)) >= 0)
        assert asked_at < guessed_at < feedback_at < shown.find("Según el material", feedback_at), shown[asked_at:]
