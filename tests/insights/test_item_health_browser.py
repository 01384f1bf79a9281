"""In a real browser: an English admin opens the check-up course's health in Course statistics, sees the
seeded wrong-key item flagged "the key may be wrong", regenerates it (reviewed draft, then confirm), and
James, who answered the old item before, meets the new one in the course player while his old answer
keeps its score."""

import re
from datetime import date, timedelta

from playwright.sync_api import expect

from agents.learning import service as learning
from storage import courses as course_store
from storage import enrollments, users
from storage import exercises as exercise_store
from tests.browser import (
    STEP,
    chromium_page,
    needs_chromium,
    open_page,
    pick,
    running_app,
    settle,
    sign_in,
    sign_out,
)
from tests.conftest import make_deps

COURSE = "Store policy check-up"
WRONG_KEY = "How long can a card refund take to appear in the customer's account?"


def _shot(page, path, name: str) -> None:
    settle(page)
    page.screenshot(path=str(path / f"{name}.png"), full_page=True)


def _answer(page, exercise) -> None:
    """Answer the exercise right through the widget its type renders (the lesson's one open form)."""
    form, content = page.locator('[data-testid="stForm"]').last, exercise.content
    if exercise.type == "test":
        form.get_by_text(content["options"][content["answer"]], exact=True).click()
    elif exercise.type == "true_false":
        form.get_by_text("True" if content["answer"] else "False", exact=True).click()
    elif exercise.type == "fill_blank":
        form.get_by_label("Blank 1").fill(content["answers"][0])
    elif exercise.type == "practical_case":
        form.get_by_label("Your answer").fill(content["model_answer"])
    elif exercise.type == "order_steps":
        for n, step in enumerate(content["steps"]):
            pick(page, form.locator('[data-testid="stSelectbox"]').nth(n), step)
    form.get_by_role("button", name="Check answer").click()


@needs_chromium
def test_admin_regenerates_a_flagged_item_and_the_learner_meets_the_new_one(seeded_db_url, seeded_pool, tmp_path):
    deps = make_deps(seeded_pool)
    with seeded_pool.connection() as conn:
        james = users.get_user_by_email(conn, "james@acme.test")
        course_id = course_store.course_id_by_title(conn, james.org_id, COURSE)
        old = next(x for x in exercise_store.course_exercises(conn, james.org_id, course_id) if x.prompt == WRONG_KEY)
        enrollments.enroll(conn, james.org_id, james.id, course_id, deadline=date.today() + timedelta(days=14))
    first = next(
        x for x in exercise_store.course_exercises(conn, james.org_id, course_id) if x.lesson_id == old.lesson_id
    )
    learning.submit_answer(deps, james, first.id, first.content["answer"], "first-item")  # the lesson's first
    before = learning.submit_answer(deps, james, old.id, 0, "before-regeneration")  # "14 days": right, marked wrong
    assert (before.correct, before.score) == (False, 0.0)

    with running_app(seeded_db_url) as base, chromium_page() as page:
        try:
            sign_in(page, base, "oliver@acme.test", "skillnet-admin")
            open_page(page, "Course statistics")
            pick(page, page.locator('[data-testid="stSelectbox"]').first, COURSE)
            page.get_by_role("heading", name="Course health").wait_for(timeout=STEP)
            item = page.locator(f".st-key-health_item_{old.id}")
            item.get_by_text(re.compile("^The key may be wrong")).first.wait_for(timeout=STEP)
            item.get_by_text("“14 days” chosen by 13 of 22; the key “2 working days” by 5.").wait_for()  # James too
            page.get_by_role("heading", name="Course health").scroll_into_view_if_needed()
            _shot(page, tmp_path, "1_course_health")
            item.get_by_role("button", name="Regenerate this exercise").click()
            page.get_by_text(re.compile(r"^Proposed replacement \(engine: offline\)")).wait_for(timeout=STEP)
            page.get_by_text("Reviewer: no findings.").wait_for()
            _shot(page, tmp_path, "2_draft")
            page.get_by_role("button", name="Confirm replacement").click()
            page.get_by_text("Replaced: learners' next attempts meet the new exercise.").wait_for(timeout=STEP)
            _shot(page, tmp_path, "3_replaced")
            assert page.get_by_text(WRONG_KEY).count() == 0
            page.get_by_text("Facility against discrimination").scroll_into_view_if_needed()
            _shot(page, tmp_path, "3_chart")
            sign_out(page, "Sign out")

            with seeded_pool.connection() as conn:
                new = exercise_store.get_exercise(
                    conn,
                    james.org_id,
                    conn.execute("SELECT replaced_by FROM exercises WHERE id = %s", (old.id,)).fetchone()[0],
                )
            sign_in(page, base, "james@acme.test", "skillnet-demo")
            page.goto(f"{base}/course_player?course={course_id}")
            page.get_by_text(COURSE).first.wait_for(timeout=STEP)
            settle(page)
            page.get_by_role("button", name=re.compile("Check: periods and refunds$")).click()  # the lesson
            page.get_by_text(new.prompt).first.wait_for(timeout=STEP)
            assert page.get_by_text(WRONG_KEY).count() == 0
            _shot(page, tmp_path, "4_learner_meets_the_new_item")
            right = page.get_by_text(re.compile(r"Correct · 100%"))
            shown = right.count()  # the lesson's first item, answered before, already reads "Correct"
            _answer(page, new)
            expect(right).to_have_count(shown + 1, timeout=STEP)
            _shot(page, tmp_path, "5_learner_answered")
        except Exception:
            page.screenshot(path=str(tmp_path / "failure.png"), full_page=True)
            raise

    with seeded_pool.connection() as conn:
        mine = conn.execute(
            """SELECT exercise_id, score FROM exercise_attempts WHERE user_id = %s
                               AND exercise_id = ANY(%s) AND submitted_at IS NOT NULL ORDER BY submitted_at""",
            (james.id, [first.id, old.id, new.id]),
        ).fetchall()
        logged = conn.execute(
            "SELECT actor_id, after FROM audit_log WHERE action = 'course_health.regenerate' AND entity_id = %s",
            (str(old.id),),
        ).fetchall()
    assert mine == [
        (first.id, 1.0),
        (old.id, 0.0),
        (new.id, 1.0),
    ]  # the old answer keeps its score; the new item counts
    ((_, after),) = logged
    assert after["exercise_id"] == str(new.id) and after["flag"] == "negative_discrimination"
    assert after["note"].startswith("The key may be wrong")
