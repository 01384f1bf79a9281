"""A demo employee finishes a seeded course from start to end in a real browser (headless Chromium)."""

import re
from datetime import date, timedelta

from storage import courses as course_store
from storage import lessons as lesson_store
from storage import progress as progress_store
from storage import users
from tests.browser import chromium_page, needs_chromium, pick, running_app, sign_in
from tests.learning.fresh import enroll_from_scratch

COURSE = "Returns and Refunds Essentials"


def settle(page) -> None:
    """Wait until the script run an action started has finished: no "Running..." widget and no stale
    elements of the previous run left on the page."""
    page.wait_for_timeout(300)
    page.locator('[data-testid="stStatusWidget"]').wait_for(state="hidden", timeout=60_000)
    page.wait_for_function("() => !document.querySelector('[data-stale=\"true\"]')", timeout=60_000)


def answer_exercise(page, exercise, answered_before: int, shots) -> None:
    """Answer through the widget each type renders, correctly, and wait for its feedback (the lesson's
    ``answered_before + 1``-th "Correct")."""
    content, form = exercise.content, page.locator('[data-testid="stForm"]').last
    kind = exercise.type
    if kind == "dialogue":
        node = content["start"]
        while node is not None:
            option = next(o for o in content["nodes"][node]["options"] if o["correct"])
            page.get_by_role("button", name=option["text"], exact=True).click()
            settle(page)
            node = option["next"]
    else:
        if kind == "test":
            form.get_by_text(content["options"][content["answer"]], exact=True).click()
        elif kind == "true_false":
            form.get_by_text("True" if content["answer"] else "False", exact=True).click()
        elif kind == "fill_blank":
            form.get_by_label("Blank 1").fill(content["answers"][0])
        elif kind == "order_steps":
            for n, step in enumerate(content["steps"]):  # one picker per position, no "select all"
                pick(page, form.locator('[data-testid="stSelectbox"]').nth(n), step)
            page.screenshot(path=str(shots / "2_order_steps.png"), full_page=True)
        elif kind == "practical_case":
            form.get_by_label("Your answer").fill(content["model_answer"])
        form.get_by_role("button", name="Check answer").click()
    settle(page)
    page.get_by_text(re.compile("Correct · 100%")).nth(answered_before).wait_for(timeout=30_000)


@needs_chromium
def test_employee_finishes_a_course_in_the_browser(seeded_db_url, seeded_pool, tmp_path):
    with seeded_pool.connection() as conn:
        james = users.get_user_by_email(conn, "james@acme.test")
        course = next(c for c in course_store.list_courses(conn, james.org_id) if c.title == COURSE)
        enroll_from_scratch(conn, james.org_id, james.id, course.id, deadline=date.today() + timedelta(days=14))
        conn.execute("DELETE FROM exercise_attempts WHERE user_id = %s", (james.id,))
        conn.execute(
            "DELETE FROM lesson_completions WHERE enrollment_id IN (SELECT id FROM enrollments WHERE user_id = %s)",
            (james.id,),
        )
        outline = lesson_store.get_course_outline(conn, james.org_id, course.id)
    lessons = [lesson for module in outline.modules for lesson in module.lessons]

    with running_app(seeded_db_url) as base, chromium_page() as page:
        page.goto(base)  # the first run starts the tutor chat server (Gradio): slow on a busy machine
        page.get_by_label("Email").wait_for(timeout=120_000)
        sign_in(page, base, "james@acme.test", "skillnet-demo")
        page.get_by_role("link", name="My courses").click()
        page.wait_for_url(re.compile("my_courses"))
        open_button = page.get_by_role("button", name="Open", exact=True).first
        open_button.wait_for(timeout=60_000)
        page.screenshot(path=str(tmp_path / "1_my_courses.png"), full_page=True)
        open_button.click()
        settle(page)
        for n, lesson in enumerate(lessons):
            page.get_by_role("heading", name=lesson.title).wait_for(timeout=60_000)
            settle(page)
            for index, exercise in enumerate(lesson.exercises):
                page.get_by_text(exercise.prompt).first.wait_for(timeout=30_000)
                answer_exercise(page, exercise, index, tmp_path)
                if exercise.type in ("practical_case", "dialogue"):
                    page.screenshot(path=str(tmp_path / f"2_{exercise.type}.png"), full_page=True)
            if n == 0:
                page.screenshot(path=str(tmp_path / "2_first_lesson.png"), full_page=True)
            last = n == len(lessons) - 1
            page.get_by_role("button", name="Finish course" if last else "Next →").click()
            settle(page)
        page.get_by_text(re.compile("Course completed! Score: 100%")).wait_for(timeout=60_000)
        page.screenshot(path=str(tmp_path / "3_completed.png"), full_page=True)
        page.get_by_role("link", name="Home").click()
        page.get_by_text("Completed courses").wait_for(timeout=30_000)
        page.screenshot(path=str(tmp_path / "4_home.png"), full_page=True)

    with seeded_pool.connection() as conn:
        summary = progress_store.progress_summary(conn, james.org_id, james.id)
    mine = next(e for e in summary["enrollments"] if e["course"] == COURSE)
    assert (mine["status"], mine["progress"], mine["score"]) == ("completed", 1.0, 1.0)
