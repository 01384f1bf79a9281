"""In a real browser: a lesson's source opens the viewer on its highlighted passage (Spanish reader), and
with an exercise left open in the course player, the Tutor page answers a question about something
else normally (English reader). Screenshots go to /tmp/tutor-sources."""
from pathlib import Path

from agents.learning import service as learning
from storage import users
from storage import courses as course_store
from storage import lessons as lesson_store
from tests.browser import chromium_page, free_port, needs_chromium, running_app, sign_in

SHOTS = Path("/tmp/tutor-sources")


@needs_chromium
def test_lesson_source_opens_the_passage_and_the_tutor_page_answers_normally(seeded_deps, seeded_db_url, seeded_pool):
    SHOTS.mkdir(exist_ok=True)
    with seeded_pool.connection() as conn:
        lucia = users.get_user_by_email(conn, "lucia@acme.test")
        james = users.get_user_by_email(conn, "james@acme.test")
        enrolled = {e.course_id for e in learning.my_courses(seeded_deps, james)}
        exercise = next(x for course in course_store.list_courses(conn, james.org_id) if course.id in enrolled
                        for m in lesson_store.get_course_outline(conn, james.org_id, course.id).modules
                        for lesson in m.lessons for x in lesson.exercises)
    with running_app(seeded_db_url, extra_env={"SKILLNET_CHAT_PORT": str(free_port())}) as base, \
            chromium_page() as page:
        sign_in(page, base, lucia.email, "skillnet-demo")
        page.locator("[data-testid=stSidebarNav] a[href$=course_player]").click()
        page.get_by_text("Fuentes (").first.click(timeout=120_000)
        page.locator('[data-testid="stPageLink"] a').first.click()
        page.wait_for_url("**/source_viewer?chunk=*", timeout=60_000)
        page.get_by_text("El pasaje citado está resaltado.").wait_for(timeout=60_000)
        cited = page.locator(".sv-block.cited")
        cited.wait_for(timeout=30_000)
        assert cited.count() == 1 and cited.inner_text().strip()
        page.screenshot(path=str(SHOTS / "1_source_viewer_es.png"), full_page=True)

        page.context.clear_cookies()
        learning.open_exercise(seeded_deps, james, exercise.id)   # as the course player does, then James walks away
        sign_in(page, base, james.email, "skillnet-demo")
        page.locator("[data-testid=stSidebarNav] a[href$=tutor]").click()
        frame = page.locator("iframe").first.content_frame
        box = frame.get_by_placeholder("Ask your tutor…")
        box.wait_for(timeout=120_000)
        box.fill("What is the maximum amount I can refund without asking the store manager?")
        frame.get_by_role("button", name="Send", exact=True).click()
        frame.get_by_text("offline").last.wait_for(timeout=90_000)
        answer = frame.locator("#tutor-chatbot").inner_text()
        assert "Hint 1 of 3" not in answer and "EUR" in answer, answer
        page.screenshot(path=str(SHOTS / "2_tutor_page_en.png"), full_page=True)
