"""The course write API: contract validation, org scoping and the outline read."""

import pytest

from storage import courses as course_store
from storage import enrollments
from storage import exercises as exercise_store
from storage import lessons as lesson_store
from storage.users import ensure_org
from tests.people import upsert_user


@pytest.fixture(scope="module")
def orgs(pool):
    with pool.connection() as conn:
        mine = ensure_org(conn, "cat-a", "Catalog A")
        other = ensure_org(conn, "cat-b", "Catalog B")
        user = upsert_user(conn, mine.id, email="cat@a.test", full_name="Cat", role="employee", password="x")
    return mine, other, user


def test_outline_round_trip_and_org_scope(pool, orgs):
    mine, other, user = orgs
    with pool.connection() as conn:
        course = course_store.create_course(conn, mine.id, title="Returns 101", language="en")
        module = lesson_store.add_module(conn, mine.id, course, title="Basics", summary="The 30-day rule")
        lesson = lesson_store.add_lesson(
            conn,
            mine.id,
            module,
            title="Theory",
            content_type="theory",
            content_md="Refunds within **30 days**.",
            citations=[{"document": "Returns", "section": "1", "page": 1}],
        )
        exercise_store.add_exercise(
            conn,
            mine.id,
            lesson,
            type="true_false",
            prompt="True?",
            bloom_level="remember",
            content={"statement": "Refunds within 30 days", "answer": True},
        )
        exercise_store.add_exercise(
            conn,
            mine.id,
            lesson,
            type="test",
            prompt="How many days?",
            bloom_level="remember",
            content={"options": ["14", "30"], "answer": 1},
        )
        assert course_store.set_course_status(conn, mine.id, course, "published")
        enrollment = enrollments.enroll(conn, mine.id, user.id, course)
        assert enrollments.enroll(conn, mine.id, user.id, course, progress=0.5) == enrollment

        outline = lesson_store.get_course_outline(conn, mine.id, course)
        assert outline.course.status == "published"
        assert [e.position for e in outline.modules[0].lessons[0].exercises] == [1, 2]
        assert lesson_store.get_course_outline(conn, other.id, course) is None
        assert not course_store.set_course_status(conn, other.id, course, "archived")
        with pytest.raises(course_store.CatalogError):  # another org's module: nothing inserted
            lesson_store.add_lesson(conn, other.id, module, title="x", content_type="theory")


@pytest.mark.parametrize(
    "kind,content",
    [
        ("test", {"options": ["a", "b"], "answer": 2}),
        ("true_false", {"statement": "x", "answer": "yes"}),
        ("fill_blank", {"text": "no blank", "answers": ["a"]}),
        ("order_steps", {"steps": ["only one"]}),
        ("practical_case", {"scenario": "s", "rubric": []}),
        (
            "dialogue",
            {
                "nodes": {
                    "start": {
                        "speaker": "c",
                        "text": "t",
                        "options": [{"text": "o", "next": "missing", "correct": True, "feedback": "f"}],
                    }
                },
                "start": "start",
            },
        ),
    ],
)
def test_malformed_content_is_refused(kind, content):
    with pytest.raises(course_store.CatalogError):
        exercise_store.validate_exercise_content(kind, content)
