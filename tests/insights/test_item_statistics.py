"""Item statistics against values computed by hand from a small attempt matrix (ties, an item everyone
gets right, a retry that must not count, a learner with one answer), and retiring/replacing an item."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from storage import attempts, courses, item_stats, lessons
from storage import exercises as exercise_store
from storage.users import ensure_org, ensure_user

# First scores (1 right, 0 wrong); U6 answered A only. U3 retried A and got it right: not counted.
#        A  B  C  D
MATRIX = {
    "u1": (1, 1, 1, 1),
    "u2": (1, 0, 1, 1),
    "u3": (0, 1, 0, 1),
    "u4": (0, 0, 1, 1),
    "u5": (1, 1, 0, 1),
    "u6": (0, None, None, None),
}
WRONG_PICK = {"u3": 1, "u4": 1, "u6": 2}  # what the wrong answers to A chose (the key is 0)
T0 = datetime(2026, 11, 1, tzinfo=UTC)


@pytest.fixture(scope="module")
def course(pool):
    with pool.connection() as conn:
        org = ensure_org(conn, "stats", "Stats")
        people = {
            name: ensure_user(
                conn,
                org.id,
                email=f"{name}@stats.test",
                full_name=name,
                role="employee",
                password_hash="",
                department="Ops",
                job_title="Clerk",
                language="en",
                is_active=True,
            )
            for name in MATRIX
        }
        course_id = courses.create_course(conn, org.id, title="Stats course", language="en", status="published")
        module_id = lessons.add_module(conn, org.id, course_id, title="Module one")
        lesson_id = lessons.add_lesson(conn, org.id, module_id, title="Practice", content_type="exercise")
        items = [
            exercise_store.add_exercise(
                conn,
                org.id,
                lesson_id,
                type="test",
                prompt="A?",
                bloom_level="remember",
                content={"options": ["right", "near", "far"], "answer": 0},
            ),
            exercise_store.add_exercise(
                conn,
                org.id,
                lesson_id,
                type="true_false",
                prompt="B?",
                bloom_level="remember",
                content={"statement": "B", "answer": True},
            ),
            exercise_store.add_exercise(
                conn,
                org.id,
                lesson_id,
                type="fill_blank",
                prompt="C?",
                bloom_level="remember",
                content={"text": "C ___", "answers": ["c"]},
            ),
            exercise_store.add_exercise(
                conn,
                org.id,
                lesson_id,
                type="true_false",
                prompt="D?",
                bloom_level="remember",
                content={"statement": "D", "answer": False},
            ),
        ]
        for name, scores in MATRIX.items():
            for n, (exercise_id, score) in enumerate(zip(items, scores)):
                if score is None:
                    continue
                answer = [0, True, ["c"], False][n] if score else [WRONG_PICK.get(name), False, ["x"], True][n]
                attempts.add_past_attempt(
                    conn,
                    org.id,
                    user_id=people[name],
                    exercise_id=exercise_id,
                    enrollment_id=None,
                    answer=answer,
                    is_correct=bool(score),
                    score=float(score),
                    feedback="",
                    submitted_at=T0 + timedelta(hours=n),
                    idempotency_key=f"{name}:{n}",
                )
        attempts.add_past_attempt(
            conn,
            org.id,
            user_id=people["u3"],
            exercise_id=items[0],
            enrollment_id=None,
            answer=0,
            is_correct=True,
            score=1.0,
            feedback="",
            submitted_at=T0 + timedelta(days=1),
            idempotency_key="u3:retry",
        )
        assert item_stats.refresh_course(conn, org.id, course_id) == 4
        figures = {f.prompt: f for f in item_stats.course_figures(conn, org.id, course_id)}
    return org.id, course_id, items, figures


def test_facility_counts_first_answers_only(course):
    *_, figures = course
    assert figures["A?"].attempts == 6 and figures["A?"].facility == pytest.approx(3 / 6)  # U3's retry ignored
    assert figures["B?"].facility == pytest.approx(3 / 5)
    assert figures["D?"].facility == pytest.approx(1.0)


def test_point_biserial_by_hand(course):
    *_, figures = course
    # A against the rest (mean of B, C, D): U1 1, U2..U5 2/3 (tied), U6 has no rest and is not ranked.
    # x = 1,1,0,0,1; y = 1,2/3,2/3,2/3,2/3: cov sum 0.13333, Σdx² 1.2, Σdy² 0.08889 -> r = 0.40825
    assert figures["A?"].ranked == 5
    assert figures["A?"].point_biserial == pytest.approx(0.40825, abs=1e-4)
    # everyone right: no variance, no correlation
    assert figures["D?"].point_biserial is None


def test_upper_lower_keeps_ties_together(course):
    *_, figures = course
    # g = round(0.27 * 5) = 1: upper = {U1} (rest 1) -> 1.0; lower = everyone at the lowest rest 2/3,
    # all four tied -> (1 + 0 + 0 + 1) / 4 = 0.5
    assert figures["A?"].upper_lower == pytest.approx(0.5)
    # D: everyone right, so both groups score 1
    assert figures["D?"].upper_lower == pytest.approx(0.0)
    # B against the rest (A, C, D): U1 1, U2 1, U3 1/3, U4 2/3, U5 2/3 -> upper ties {U1, U2}: (1 + 0) / 2;
    # lower {U3}: 1 -> -0.5
    assert figures["B?"].upper_lower == pytest.approx(-0.5)


def test_option_picks_of_choice_items(course):
    *_, figures = course
    assert figures["A?"].picks == {"0": 3, "1": 2, "2": 1}
    assert figures["B?"].picks == {"true": 3, "false": 2}
    assert figures["C?"].picks == {}  # not a choice item


def test_replacing_keeps_past_attempts_and_their_scores(pool, course):
    org_id, course_id, items, _ = course
    with pool.connection() as conn:
        before = conn.execute(
            "SELECT count(*), sum(score) FROM exercise_attempts WHERE exercise_id = %s", (items[0],)
        ).fetchone()
        new_id = item_stats.replace_exercise(
            conn,
            org_id,
            items[0],
            reason="key may be wrong",
            type="test",
            prompt="A, again?",
            content={"options": ["x", "y"], "answer": 1},
            bloom_level="remember",
            explanation="",
            source_chunk_ids=[],
        )
        assert new_id is not None
        assert (
            item_stats.replace_exercise(
                conn,
                org_id,
                items[0],
                reason="twice",
                type="test",
                prompt="no",
                content={"options": ["x", "y"], "answer": 1},
                bloom_level="remember",
                explanation="",
                source_chunk_ids=[],
            )
            is None
        )
        after = conn.execute(
            "SELECT count(*), sum(score) FROM exercise_attempts WHERE exercise_id = %s", (items[0],)
        ).fetchone()
        assert after == before
        live = [x.id for x in exercise_store.course_exercises(conn, org_id, course_id)]
        assert live[0] == new_id and items[0] not in live
        assert exercise_store.get_exercise(conn, org_id, items[0]).retired
        assert item_stats.retire_exercise(conn, org_id, items[1], "too easy")
        item_stats.refresh_course(conn, org_id, course_id)
        figures = {f.exercise_id: f for f in item_stats.course_figures(conn, org_id, course_id)}
        assert set(figures) == {new_id, items[2], items[3]} and figures[new_id].attempts == 0
