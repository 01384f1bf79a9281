"""In a real browser, an English learner on the Tutor page: a citation of the answer opens in the chat's
source panel on its highlighted passage, and its "open" link takes the whole page to the Streamlit source
viewer, still signed in (the Gradio-to-Streamlit link relies on the session cookie alone). Waits are on
conditions with budgets for a machine at load 4-6. Screenshots go to /tmp/tutor-citations."""
import time
from pathlib import Path

from tests.browser import chromium_page, free_port, needs_chromium, running_app, sign_in

SHOTS = Path("/tmp/tutor-citations")
QUESTION = "What is the maximum amount I can refund without asking the store manager?"


@needs_chromium
def test_a_chat_citation_opens_its_highlighted_passage_in_the_panel_and_the_viewer(seeded_db_url):
    SHOTS.mkdir(exist_ok=True)
    with running_app(seeded_db_url, extra_env={"SKILLNET_CHAT_PORT": str(free_port())}) as base, \
            chromium_page() as page:
        sign_in(page, base, "james@acme.test", "skillnet-demo")
        page.locator("[data-testid=stSidebarNav] a[href$=tutor]").click()
        frame = page.locator("iframe").first.content_frame
        box = frame.get_by_placeholder("Ask your tutor…")
        box.wait_for(timeout=180_000)
        box.fill(QUESTION)
        frame.get_by_role("button", name="Send", exact=True).click()
        frame.get_by_text("offline").last.wait_for(timeout=180_000)   # the engine badge: the answer is done

        sources = frame.locator("#tutor-sources")
        sources.wait_for(timeout=60_000)
        sources.locator("label").first.click()                       # "[1] Returns and Refunds Policy › …"
        cited = frame.locator("#tutor-source-panel .sv-block.cited")
        cited.wait_for(timeout=120_000)
        assert cited.count() == 1 and "EUR" in cited.inner_text(), cited.inner_text()
        page.screenshot(path=str(SHOTS / "1_chat_source_panel_en.png"), full_page=True)

        link = frame.locator("#tutor-chatbot a", has_text="open").first
        assert "/source_viewer?chunk=" in link.get_attribute("href")
        link.click()   # the app's own page, in this tab or a new one (Gradio may retarget links)
        page = _page_showing(page.context, "/source_viewer?chunk=", timeout=120)
        page.get_by_text("The cited passage is highlighted.").wait_for(timeout=120_000)
        viewer_cited = page.locator(".sv-block.cited")
        viewer_cited.wait_for(timeout=60_000)
        assert viewer_cited.count() == 1 and "EUR" in viewer_cited.inner_text()
        assert page.get_by_text("james@acme.test").is_visible()       # still signed in: the cookie carried it
        page.screenshot(path=str(SHOTS / "2_source_viewer_en.png"), full_page=True)


def _page_showing(context, url_part: str, timeout: float):
    """The tab (this one or a new one) whose address holds ``url_part``, polled until ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for candidate in context.pages:
            if url_part in candidate.url:
                return candidate
        context.pages[0].wait_for_timeout(250)
    raise AssertionError(f"no tab opened {url_part}: {[p.url for p in context.pages]}")
