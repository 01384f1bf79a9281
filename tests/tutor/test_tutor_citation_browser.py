"""In a real browser, an English learner on the Tutor page: the answer cites the section of a manual the
content studio published from the cited passage; the citation opens in the chat's source panel on that
section, highlighted and drawn from its Markdown (no raw marks), and its "open" link takes the whole page to
the Streamlit source viewer on the same section, still signed in (the Gradio-to-Streamlit link relies on the
session cookie alone). Then a citation of a document's passage: the panel and the viewer mark only the
cited sentence inside it, under the heading that sentence sits under. Waits are on conditions with budgets
for a machine at load 4-6. Screenshots go to /tmp/tutor-citations."""

import time
from pathlib import Path

from core.turns import Citations
from storage import courses, manuals
from tests.browser import (
    chromium_page,
    free_port,
    go_to,
    needs_chromium,
    past_the_guiding_question,
    running_app,
    sign_in,
)
from tests.tutor.conftest import by_name, run

SHOTS = Path("/tmp/tutor-citations")
QUESTION = "What is the maximum amount I can refund without asking the store manager?"
HOLIDAY = "How many days of paid holiday do I get?"
HOLIDAY_SENTENCE = "Full-time employees have 23 working days of paid holiday a year, plus public holidays."


def _published_manual(pool, james) -> None:
    """The manual row the studio's publish step writes (agents/content/publish.py), its second section
    written from the passage the question cites, its body Markdown."""
    events, _ = run(james, QUESTION, pool)
    chunk = by_name(events, Citations).citations[0]["source_id"]
    sections = [
        {
            "heading": "Introduction",
            "level": 1,
            "anchor": "s1-introduction",
            "body": "What this covers.",
            "chunk_ids": [],
        },
        {
            "heading": "Refund approval limits",
            "level": 1,
            "anchor": "s2-limits",
            "chunk_ids": [chunk],
            "body": "Refunds above **500 EUR** need the *store manager's* approval.\n\n- Log it in the till",
        },
    ]
    with pool.connection() as conn:
        course = next(
            c.id for c in courses.list_courses(conn, james.org_id) if c.title == "Returns and Refunds Essentials"
        )
        manuals.create_manual(
            conn,
            james.org_id,
            title="Manual: Refunds",
            content_md="",
            toc=[],
            source_document_ids=[],
            language="en",
            course_id=course,
            sections=sections,
        )


@needs_chromium
def test_a_manual_citation_opens_its_highlighted_section_in_the_panel_and_the_viewer(seeded_db_url, seeded_pool, james):
    SHOTS.mkdir(exist_ok=True)
    _published_manual(seeded_pool, james)
    with (
        running_app(seeded_db_url, extra_env={"SKILLNET_CHAT_PORT": str(free_port())}) as base,
        chromium_page() as page,
    ):
        sign_in(page, base, "james@acme.test", "skillnet-demo")
        go_to(page, "tutor")
        frame = page.locator("iframe").first.content_frame
        box = frame.get_by_placeholder("Ask your tutor…")
        box.wait_for(timeout=180_000)
        box.fill(QUESTION)
        frame.get_by_role("button", name="Send", exact=True).click()
        frame.locator(".badge.engine").last.wait_for(timeout=180_000)  # the engine badge: the turn is done
        past_the_guiding_question(frame)  # James takes the returns course in guided mode: it asks first

        sources = frame.locator("#tutor-sources")
        sources.wait_for(timeout=60_000)
        sources.locator("label").first.click()  # "[1] Manual: Refunds › Refund approval limits"
        cited = frame.locator("#tutor-source-panel .sv-block.cited")
        cited.wait_for(timeout=120_000)
        _drawn_from_markdown(cited)
        page.screenshot(path=str(SHOTS / "1_chat_source_panel_en.png"), full_page=True)

        link = frame.locator("#tutor-chatbot a", has_text="open").first
        assert "/source_viewer?manual=" in link.get_attribute("href") and "section=s2-limits" in link.get_attribute(
            "href"
        )
        page = _opened(link, page.context, "/source_viewer?manual=")  # in this tab or a new one
        page.get_by_text("The cited passage is highlighted.").wait_for(timeout=120_000)
        viewer_cited = page.locator(".sv-block.cited")
        viewer_cited.wait_for(timeout=60_000)
        _drawn_from_markdown(viewer_cited)
        assert page.get_by_text("james@acme.test").is_visible()  # still signed in: the cookie carried it
        page.screenshot(path=str(SHOTS / "2_source_viewer_en.png"), full_page=True)

        # the Tutor page again: a citation of a document's passage, not a manual's
        go_to(page, "tutor")
        frame = page.locator("iframe").first.content_frame
        box = frame.get_by_placeholder("Ask your tutor…")
        try:
            box.wait_for(timeout=180_000)
            box.fill(HOLIDAY)
            frame.get_by_role("button", name="Send", exact=True).click()
            frame.locator(".badge.engine").first.wait_for(timeout=180_000)  # a new conversation: its one answer
        finally:
            page.screenshot(path=str(SHOTS / "3_holiday_answer_en.png"), full_page=True)
        frame.locator("#tutor-sources label").first.click()  # "[1] Employee Onboarding Guide › 8. Pay, time…"
        _only_the_sentence(frame.locator("#tutor-source-panel"))
        page.screenshot(path=str(SHOTS / "4_chat_panel_sentence_en.png"), full_page=True)

        link = frame.locator("#tutor-chatbot a", has_text="open").last
        assert "/source_viewer?chunk=" in link.get_attribute("href") and "quote=" in link.get_attribute("href")
        page = _opened(link, page.context, "/source_viewer?chunk=")
        _only_the_sentence(page)
        page.screenshot(path=str(SHOTS / "5_source_viewer_sentence_en.png"), full_page=True)


def _only_the_sentence(where) -> None:
    """The answer's cited sentences are marked, each in the block of its own section, and the rest of the passage
    is not: the holiday sentence is marked under "8. Pay, time and leave" (the offline answer may quote up to
    three sentences, so a neighbouring section of the same chunk can hold a mark of its own)."""
    marked = where.locator(".sv-block.cited mark.sv-quote")
    marked.first.wait_for(timeout=120_000)
    assert HOLIDAY_SENTENCE in [m.inner_text() for m in marked.all()]
    cited = where.locator(".sv-block.cited", has_text=HOLIDAY_SENTENCE)
    assert cited.count() == 1 and "Pay, time and leave" in cited.locator(".sv-where").inner_text()
    unmarked = cited.inner_text()
    for mark in cited.locator("mark.sv-quote").all():
        unmarked = unmarked.replace(mark.inner_text(), "")
    assert len(unmarked.strip()) > 40  # the rest of the passage is there, unmarked


def _opened(link, context, url_part: str):
    """The tab the citation ``link`` opens (this one or a new one: Gradio may retarget links), clicked again when
    none shows it within a while: a click landing while the chat redraws its messages reached no link once (CI)."""
    for _ in range(4):
        link.click()
        try:
            return _page_showing(context, url_part, timeout=30)
        except AssertionError:
            continue
    return _page_showing(context, url_part, timeout=1)


def _page_showing(context, url_part: str, timeout: float):
    """The tab (this one or a new one) whose address holds ``url_part``, polled until ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for candidate in context.pages:
            if url_part in candidate.url:
                return candidate
        context.pages[0].wait_for_timeout(250)
    raise AssertionError(f"no tab opened {url_part}: {[p.url for p in context.pages]}")


def _drawn_from_markdown(cited) -> None:
    """The one highlighted block is the manual's cited section, its Markdown drawn (bold, a list), not shown."""
    assert cited.count() == 1, cited.count()
    text = cited.inner_text()
    assert "Refund approval limits" in text and "500 EUR" in text and "**" not in text, text
    assert cited.locator("strong", has_text="500 EUR").count() == 1 and cited.locator("li").count() == 1
