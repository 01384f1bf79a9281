"""The tutor chat's own sign-in form speaks one language: the browser's before sign-in, the user's after."""

from __future__ import annotations

from pathlib import Path

import pytest

from agents.i18n import t
from tests.browser import chromium_page, free_port, needs_chromium

SHOTS = Path("/tmp/auth-shots")


@pytest.fixture(scope="module")
def chat_url(seeded_pool):
    import chat

    port = free_port()
    app = chat.launch(port=port, block=False)
    yield f"http://127.0.0.1:{port}/"
    app.close(verbose=False)


@needs_chromium
@pytest.mark.parametrize("browser_locale, form_language", [("es-ES", "es"), ("en-GB", "en"), ("de-DE", "en")])
def test_sign_in_form_in_the_browsers_language_then_the_users(chat_url, browser_locale, form_language):
    SHOTS.mkdir(exist_ok=True)
    with chromium_page() as page:
        context = page.context.browser.new_context(locale=browser_locale)  # sends Accept-Language
        page = context.new_page()
        page.goto(chat_url)
        page.get_by_label(t("auth.password", form_language), exact=True).wait_for(timeout=60_000)
        page.get_by_role("button", name=t("auth.sign_in", form_language), exact=True).wait_for(timeout=30_000)
        page.screenshot(path=str(SHOTS / f"chat_sign_in_{browser_locale}.png"))
        assert page.get_by_text(" / ").count() == 0  # no "Password / Contraseña" pairs
        page.get_by_label(t("auth.email", form_language), exact=True).fill("james@acme.test")  # reads English
        page.get_by_label(t("auth.password", form_language), exact=True).fill("skillnet-demo")
        page.get_by_role("button", name=t("auth.sign_in", form_language), exact=True).click()
        page.get_by_placeholder(t("tutor.chat.placeholder", "en")).wait_for(timeout=60_000)
        page.get_by_role("button", name=t("tutor.chat.send", "en"), exact=True).wait_for(timeout=30_000)
        page.screenshot(path=str(SHOTS / f"chat_signed_in_{browser_locale}.png"))
