"""Acting on course health without a browser: only admins act; retiring hides an item from new attempts
(audited, past answers kept, a refresh queued); a wrong key planted into a healthy demo item is caught."""

from __future__ import annotations

import pytest

from agents.content import health, health_actions
from agents.learning import service as learning
from storage import courses, enrollments, users
from storage import exercises as exercise_store
from tests.conftest import make_deps

COURSE = "Store policy check-up"


@pytest.fixture(scope="module")
def demo(seeded_pool):
    with seeded_pool.connection() as conn:
        admin = users.get_user_by_email(conn, "oliver@acme.test")
        james = users.get_user_by_email(conn, "james@acme.test")
        course_id = courses.course_id_by_title(conn, admin.org_id, COURSE)
        items = {x.prompt: x for x in exercise_store.course_exercises(conn, admin.org_id, course_id)}
    return admin, james, course_id, items


def _codes(pool, admin, course_id, prompt) -> list[str]:
    report = health.course_health(pool, admin.org_id, course_id, "en")
    return next([f.code for f in i.flags] for i in report.items if i.prompt == prompt)


def test_a_wrong_key_planted_into_a_healthy_item_is_caught(seeded_pool, demo):
    admin, _, course_id, items = demo
    cashier = next(x for p, x in items.items() if p.startswith("A customer returns a 180 EUR coat"))
    assert _codes(seeded_pool, admin, course_id, cashier.prompt) == []
    with seeded_pool.connection() as conn:  # as if the generator had keyed "500 EUR" and learners were graded so
        conn.execute("UPDATE exercises SET content = jsonb_set(content, '{answer}', '1') WHERE id = %s", (cashier.id,))
        conn.execute(
            """UPDATE exercise_attempts SET is_correct = (answer = '1'::jsonb),
                        score = CASE WHEN answer = '1'::jsonb THEN 1 ELSE 0 END WHERE exercise_id = %s""",
            (cashier.id,),
        )
    codes = _codes(seeded_pool, admin, course_id, cashier.prompt)
    assert codes[:2] == ["negative_discrimination", "distractor_beats_key"]


def test_only_admins_act_and_nothing_changes(seeded_pool, demo):
    _, james, _, items = demo
    item = items["Complete the guarantee rule."]
    deps = make_deps(seeded_pool)
    with pytest.raises(health_actions.HealthActionError, match="Only HR admins"):
        health_actions.retire(deps, james, item.id, "too_hard", "Too hard")
    with pytest.raises(health_actions.HealthActionError, match="Only HR admins"):
        health_actions.draft_replacement(deps, james, item.id, "too_hard", "Too hard")
    with seeded_pool.connection() as conn:
        assert not exercise_store.get_exercise(conn, james.org_id, item.id).retired


def test_retiring_hides_the_item_keeps_its_answers_and_is_audited(seeded_pool, demo):
    admin, james, course_id, items = demo
    item = items["Complete the guarantee rule."]
    deps = make_deps(seeded_pool)
    with seeded_pool.connection() as conn:
        answers = conn.execute(
            "SELECT count(*), sum(score) FROM exercise_attempts WHERE exercise_id = %s", (item.id,)
        ).fetchone()
    health_actions.retire(deps, admin, item.id, "too_hard", "Too hard: hardly anyone gets it right.")
    with pytest.raises(health_actions.HealthActionError, match="no longer live"):
        health_actions.retire(deps, admin, item.id, "too_hard", "again")
    with seeded_pool.connection() as conn:
        assert (
            conn.execute(
                "SELECT count(*), sum(score) FROM exercise_attempts WHERE exercise_id = %s", (item.id,)
            ).fetchone()
            == answers
        )
        ((after,),) = conn.execute(
            "SELECT after FROM audit_log WHERE action = 'course_health.retire' AND entity_id = %s", (str(item.id),)
        ).fetchall()
        queued = conn.execute(
            "SELECT count(*) FROM procrastinate_jobs WHERE queueing_lock = %s AND status = 'todo'",
            (f"item-health:{course_id}",),
        ).fetchone()[0]
        live = [x.id for x in exercise_store.course_exercises(conn, admin.org_id, course_id)]
        enrollments.enroll(conn, james.org_id, james.id, course_id)
    assert after["flag"] == "too_hard" and queued == 1 and item.id not in live
    with pytest.raises(learning.LearningError, match="does not exist"):
        learning.submit_answer(deps, james, item.id, ["3"], "after-retire")
    assert learning.submit_answer(
        deps, james, items["Complete the rule for gift receipts."].id, ["cash"], "a live item"
    ).correct
    assert all(i.exercise_id != item.id for i in health.course_health(seeded_pool, admin.org_id, course_id, "en").items)
