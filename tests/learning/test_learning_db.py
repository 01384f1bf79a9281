"""Learning against the demo organisation: refusals, idempotency, progress, skill evidence, reviews, alerts."""

from datetime import UTC, date, datetime, timedelta

import pytest

from agents.insights.alerts import compute_alerts
from agents.learning import service
from storage import attempts as attempt_store
from storage import courses as course_store
from storage import enrollments, users
from storage import exercises as exercise_store
from storage import lessons as lesson_store
from storage import progress as progress_store
from storage import reviews as review_store
from storage import skills as skill_store
from storage.skill_matrix import skills_matrix
from tests.learning.fresh import enroll_from_scratch

COURSE = "Returns and Refunds Essentials"


def correct_answer(exercise):
    c = exercise.content
    return {
        "test": lambda: c["answer"],
        "true_false": lambda: c["answer"],
        "fill_blank": lambda: [c["answers"][0]],
        "order_steps": lambda: list(c["steps"]),
        "practical_case": lambda: c["model_answer"],
        "dialogue": lambda: _best_path(c),
    }[exercise.type]()


def wrong_answer(exercise):
    c = exercise.content
    return (c["answer"] + 1) % len(c["options"]) if exercise.type == "test" else not c["answer"]


def _best_path(content):
    node, path = content["start"], []
    while node is not None:
        index, option = next((i, o) for i, o in enumerate(content["nodes"][node]["options"]) if o["correct"])
        path.append(index)
        node = option["next"]
    return path


@pytest.fixture(scope="module")
def demo(seeded_pool):
    """Two demo employees enrolled in the returns course (one with an admin-verified skill), a second
    organisation with its own course, and everything the tests look up."""
    with seeded_pool.connection() as conn:
        acme = users.get_org_by_slug(conn, "acme")
        grace = users.get_user_by_email(conn, "grace@acme.test")
        harry = users.get_user_by_email(conn, "harry@acme.test")
        course = next(c for c in course_store.list_courses(conn, acme.id) if c.title == COURSE)
        for person in (grace, harry):
            enroll_from_scratch(conn, acme.id, person.id, course.id, deadline=date.today() + timedelta(days=20))
        skill_id = conn.execute(
            "SELECT id FROM skills WHERE org_id = %s AND name = 'Returns and refunds'", (acme.id,)
        ).fetchone()[0]
        conn.execute(
            """INSERT INTO user_skills (org_id, user_id, skill_id, level, source)
                        VALUES (%s, %s, %s, 'low', 'admin')
                        ON CONFLICT (user_id, skill_id) DO UPDATE SET level = 'low', source = 'admin'""",
            (acme.id, harry.id, skill_id),
        )
        conn.execute("DELETE FROM user_skills WHERE user_id = %s AND skill_id = %s", (grace.id, skill_id))
        other = users.ensure_org(conn, "globex", "Globex")
        other_course = course_store.create_course(conn, other.id, title="Globex basics", status="published")
        module = lesson_store.add_module(conn, other.id, other_course, title="M")
        lesson = lesson_store.add_lesson(conn, other.id, module, title="L", content_type="exercise")
        foreign = exercise_store.add_exercise(
            conn,
            other.id,
            lesson,
            type="true_false",
            prompt="?",
            bloom_level="remember",
            content={"statement": "Globex is a company.", "answer": True},
        )
        unenrolled = next(c for c in course_store.list_courses(conn, acme.id) if c.id != course.id)
        unenrolled_ex = exercise_store.course_exercises(conn, acme.id, unenrolled.id)[0]
        conn.execute("DELETE FROM enrollments WHERE user_id = %s AND course_id = %s", (grace.id, unenrolled.id))
        exercises = exercise_store.course_exercises(conn, acme.id, course.id)
    return {
        "grace": grace,
        "harry": harry,
        "course": course,
        "exercises": exercises,
        "foreign": foreign,
        "unenrolled": unenrolled_ex,
        "skill_id": skill_id,
        "org_id": acme.id,
    }


def attempts_of(pool, user, exercise_id=None):
    with pool.connection() as conn:
        return conn.execute(
            "SELECT count(*) FROM exercise_attempts WHERE user_id = %s AND (%s::uuid IS NULL OR exercise_id = %s)",
            (user.id, exercise_id, exercise_id),
        ).fetchone()[0]


def test_refuses_other_org_and_unenrolled_exercises(seeded_deps, seeded_pool, demo):
    grace = demo["grace"]
    before = attempts_of(seeded_pool, grace)
    with pytest.raises(service.LearningError, match="^That exercise does not exist in your organisation.$"):
        service.submit_answer(seeded_deps, grace, demo["foreign"], True, "k-foreign")
    with pytest.raises(service.LearningError, match="^You are not enrolled in that course.$"):
        service.submit_answer(
            seeded_deps, grace, demo["unenrolled"].id, correct_answer(demo["unenrolled"]), "k-unenrolled"
        )
    with pytest.raises(service.LearningError):
        service.open_exercise(seeded_deps, grace, demo["foreign"])
    with pytest.raises(service.LearningError):
        service.submit_answer(seeded_deps, grace, "not-a-uuid", 1, "k-bad")
    with pytest.raises(service.LearningError, match="Choose one of the options"):
        service.submit_answer(
            seeded_deps, grace, next(x.id for x in demo["exercises"] if x.type == "test"), 99, "k-range"
        )
    assert attempts_of(seeded_pool, grace) == before


def test_double_submit_counts_once_and_active_attempt(seeded_deps, seeded_pool, demo):
    harry, exercise = demo["harry"], next(x for x in demo["exercises"] if x.type == "test")
    service.open_exercise(seeded_deps, harry, exercise.id)
    with seeded_pool.connection() as conn:
        active = attempt_store.active_attempt(conn, demo["org_id"], harry.id)
    assert active.exercise_id == exercise.id and active.type == "test"
    assert active.correct_texts == [exercise.content["options"][exercise.content["answer"]]]
    first = service.submit_answer(seeded_deps, harry, exercise.id, wrong_answer(exercise), "double")
    again = service.submit_answer(seeded_deps, harry, exercise.id, wrong_answer(exercise), "double")
    assert first.counted and not again.counted and (first.correct, first.score) == (again.correct, again.score)
    assert attempts_of(seeded_pool, harry, exercise.id) == 1
    with seeded_pool.connection() as conn:
        assert attempt_store.active_attempt(conn, demo["org_id"], harry.id) is None
        assert review_store.get_review_card(conn, demo["org_id"], harry.id, exercise.id).reps == 1


def test_a_wrong_answer_never_raises_progress_and_the_right_one_does(seeded_deps, demo):
    harry = demo["harry"]  # his first try of this exercise was wrong already (the double-submit test)
    exercise = next(x for x in demo["exercises"] if x.type == "test")
    before = service.course_view(seeded_deps, harry, demo["course"].id).enrollment.progress
    service.open_exercise(seeded_deps, harry, exercise.id)
    wrong = service.submit_answer(seeded_deps, harry, exercise.id, wrong_answer(exercise), "progress-wrong")
    assert not wrong.correct and wrong.progress == pytest.approx(before, abs=1e-6)  # stored as a float4
    service.open_exercise(seeded_deps, harry, exercise.id)
    right = service.submit_answer(seeded_deps, harry, exercise.id, correct_answer(exercise), "progress-right")
    assert right.correct and right.progress > before


def test_concurrent_double_submit_counts_once(seeded_deps, seeded_pool, demo):
    from concurrent.futures import ThreadPoolExecutor

    harry, exercise = demo["harry"], next(x for x in demo["exercises"] if x.type == "fill_blank")
    service.open_exercise(seeded_deps, harry, exercise.id)
    with ThreadPoolExecutor(4) as workers:
        results = list(
            workers.map(
                lambda _: service.submit_answer(
                    seeded_deps, harry, exercise.id, correct_answer(exercise), "same-click"
                ),
                range(4),
            )
        )
    assert sorted(r.counted for r in results) == [False, False, False, True]
    assert attempts_of(seeded_pool, harry, exercise.id) == 1


def test_three_failures_raise_an_alert(seeded_deps, seeded_pool, demo):
    harry, exercise = demo["harry"], next(x for x in demo["exercises"] if x.type == "true_false")
    for n in range(3):
        assert not service.submit_answer(seeded_deps, harry, exercise.id, wrong_answer(exercise), f"fail-{n}").correct
    with seeded_pool.connection() as conn:
        alerts = compute_alerts(enrollments.alert_rows(conn, demo["org_id"], date.today()), date.today(), lang="en")
        summary = progress_store.progress_summary(conn, demo["org_id"], harry.id)
    mine = [a for a in alerts if a.user_id == harry.id and a.kind == "repeated_failures"]
    assert len(mine) == 1 and exercise.prompt in mine[0].detail and mine[0].course == COURSE
    assert any(f["exercise"] == exercise.prompt for f in summary["recent_failures"])


def finish_course(deps, user, demo, answer):
    view = service.course_view(deps, user, demo["course"].id)
    for lesson in view.lessons:
        for exercise in lesson.exercises:
            service.open_exercise(deps, user, exercise.id)
            service.submit_answer(
                deps,
                user,
                exercise.id,
                answer(next(x for x in demo["exercises"] if x.id == exercise.id)),
                f"finish-{exercise.id}",
            )
        progress_value, status = service.complete_lesson(deps, user, demo["course"].id, lesson.id)
    return progress_value, status


def test_finishing_the_course_raises_skills_but_admin_verification_wins(seeded_deps, seeded_pool, demo):
    grace, harry = demo["grace"], demo["harry"]
    assert finish_course(seeded_deps, grace, demo, correct_answer) == (1.0, "completed")
    with seeded_pool.connection() as conn:
        summary = progress_store.progress_summary(conn, demo["org_id"], grace.id)
        skills = {s.skill: s for s in skill_store.user_skills(conn, demo["org_id"], grace.id)}
    mine = next(e for e in summary["enrollments"] if e["course"] == COURSE)
    assert mine["status"] == "completed" and mine["progress"] == 1.0 and mine["score"] == 1.0
    assert mine["completed_at"] is not None
    # Module 1 is all remember/understand (medium); module 2 reaches "high" but the course targets medium.
    assert (skills["Returns and refunds"].level, skills["Returns and refunds"].source) == ("medium", "checkpoint")
    assert skills["Complaint handling"].level in ("low", "medium", "high")
    with seeded_pool.connection() as conn:  # the admins' skills matrix shows it
        matrix = skills_matrix(conn, demo["org_id"])
    assert (grace.id, demo["skill_id"], "medium", "checkpoint") in {c[:4] for c in matrix.cells}
    finish_course(seeded_deps, harry, demo, correct_answer)
    with seeded_pool.connection() as conn:
        harry_skills = {s.skill: s for s in skill_store.user_skills(conn, demo["org_id"], harry.id)}
        enrollment = enrollments.get_enrollment(conn, demo["org_id"], harry.id, demo["course"].id)
    assert (harry_skills["Returns and refunds"].level, harry_skills["Returns and refunds"].source) == ("low", "admin")
    assert enrollment.status == "completed" and enrollment.score < 1.0  # first tries count: one was wrong


def test_answered_exercises_come_back_as_reviews(seeded_deps, seeded_pool, demo):
    grace = demo["grace"]
    assert service.due_reviews(seeded_deps, grace) == []
    later = datetime.now(UTC) + timedelta(days=400)
    due = service.due_reviews(seeded_deps, grace, now=later)
    assert {item.exercise.id for item in due} == {x.id for x in demo["exercises"]}
    item = due[0]
    result = service.submit_answer(seeded_deps, grace, item.exercise.id, correct_answer(item.exercise), "review-1")
    assert result.counted and result.next_review > datetime.now(UTC)
    with seeded_pool.connection() as conn:
        card = review_store.get_review_card(conn, demo["org_id"], grace.id, item.exercise.id)
        enrollment = enrollments.get_enrollment(conn, demo["org_id"], grace.id, demo["course"].id)
    assert card.reps == 2 and enrollment.score == 1.0 and enrollment.status == "completed"


def test_an_exercise_source_names_the_section_it_was_written_from(seeded_deps, demo):
    """The till steps (POL-RET-001 §6) share one chunk with §5's list of products that cannot be returned;
    the player named the chunk's first heading, so the exercise's source read '5. Products that cannot be
    returned' under an explanation about the eight steps of §6."""
    steps = next(x for x in demo["exercises"] if x.type == "order_steps" and "§6" in x.explanation)
    view = service.course_view(seeded_deps, demo["grace"], demo["course"].id)
    shown = [source.section for source in view.sources[steps.id]]
    assert shown == ["Returns and Refunds Policy > 6. Processing a return at the till"], shown
    feedback = service.submit_answer(seeded_deps, demo["grace"], steps.id, correct_answer(steps), "source-section")
    assert [source.section for source in feedback.sources] == shown
