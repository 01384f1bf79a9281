"""The demo organisation as loaded into the seeded template: people, skills, courses, history, tickets."""

import re
from datetime import UTC, datetime

import pytest
from fsrs import Card

from seeds.loader import load_demo, load_demo_if_empty
from storage import seeding
from storage.exercises import EXERCISE_TYPES
from storage.users import authenticate, get_org_by_slug, list_employees


@pytest.fixture(scope="module")
def org_id(seeded_pool):
    with seeded_pool.connection() as conn:
        return get_org_by_slug(conn, "acme").id


def rows(pool, sql, **params):
    with pool.connection() as conn:
        return conn.execute(sql, params).fetchall()


def squash(text):
    return re.sub(r"\s+", " ", text).casefold()


def test_second_load_changes_no_counts(seeded_pool, seeded_deps, org_id):
    with seeded_pool.connection() as conn:
        before = seeding.table_counts(conn, org_id)
    summary = load_demo(seeded_pool, embedder=seeded_deps)
    assert summary["counts"] == before
    assert summary["org"] == "acme" and summary["users"]["admin"] == "admin@acme.test"
    assert load_demo_if_empty(seeded_pool, embedder=seeded_deps) is None


def test_people_and_sign_ins(seeded_pool, org_id):
    people = rows(seeded_pool, "SELECT role, department, language, is_active FROM users WHERE org_id = %(o)s", o=org_id)
    assert sum(role == "admin" for role, *_ in people) >= 2
    employees = [p for p in people if p[0] == "employee" and p[3]]
    assert len(employees) >= 20
    assert len({dept for _, dept, _, _ in employees}) >= 4
    assert {lang for _, _, lang, _ in employees} == {"es", "en"}
    assert any(not active for *_, active in people)
    with seeded_pool.connection() as conn:
        assert authenticate(conn, "admin@acme.test", "skillnet-admin").is_admin
        assert authenticate(conn, "lucia@acme.test", "skillnet-demo").language == "es"
        assert authenticate(conn, "james@acme.test", "skillnet-demo").language == "en"
        assert authenticate(conn, "andres@acme.test", "skillnet-demo") is None  # inactive


def test_the_directory_says_when_each_learner_last_did_something(seeded_pool, org_id):
    """ "Last active" is a sign-in or the last step taken in a course, whichever is later: the demo's learners
    have a history without having signed in, and a learner kept signed in by a cookie still shows."""
    with seeded_pool.connection() as conn:
        people = list_employees(conn, org_id, lang="en")
        learned = {
            r[0]
            for r in rows(
                seeded_pool,
                "SELECT DISTINCT user_id FROM enrollments WHERE org_id = %(o)s AND last_activity_at IS NOT NULL",
                o=org_id,
            )
        }
    assert learned and all(p.last_active_at is not None for p in people if p.id in learned)


def test_skills_matrix_has_gaps(seeded_pool, org_id):
    ((categories, skills),) = rows(
        seeded_pool, "SELECT count(DISTINCT category_id), count(*) FROM skills WHERE org_id = %(o)s", o=org_id
    )
    assert categories >= 4 and skills >= 20
    experts = dict(
        rows(
            seeded_pool,
            """SELECT s.name, count(us.user_id) FILTER (WHERE us.level = 'high')
                                        FROM skills s LEFT JOIN user_skills us ON us.skill_id = s.id
                                        WHERE s.org_id = %(o)s GROUP BY s.name""",
            o=org_id,
        )
    )
    assert 0 in experts.values() and 1 in experts.values()
    assert experts["Oracle Financials"] == 1 and experts["Lockout-tagout (LOTO)"] == 0


def test_documents_both_languages_and_long_pdfs(seeded_pool, org_id):
    docs = rows(seeded_pool, "SELECT mime_type, language, page_count FROM documents WHERE org_id = %(o)s", o=org_id)
    assert len(docs) >= 6 and {lang for _, lang, _ in docs} == {"es", "en"}
    assert sum(mime == "application/pdf" and pages > 5 for mime, _, pages in docs) >= 2
    assert any("wordprocessingml" in mime for mime, _, _ in docs)
    ((chunks,),) = rows(seeded_pool, "SELECT count(*) FROM document_chunks WHERE org_id = %(o)s", o=org_id)
    assert 40 <= chunks <= 200


def test_courses_cover_every_exercise_type_with_sources(seeded_pool, org_id):
    statuses = [s for (s,) in rows(seeded_pool, "SELECT status FROM courses WHERE org_id = %(o)s", o=org_id)]
    assert statuses.count("published") >= 3 and statuses.count("draft") == 1
    exercises = rows(
        seeded_pool,
        """
        SELECT x.type, x.content, x.source_chunk_ids, d.full_text
        FROM exercises x JOIN lessons l ON l.id = x.lesson_id JOIN modules m ON m.id = l.module_id
        JOIN courses c ON c.id = m.course_id JOIN course_documents cd ON cd.course_id = c.id
        JOIN documents d ON d.id = cd.document_id AND d.id = c.source_document_id
        WHERE x.org_id = %(o)s AND c.status = 'published'""",
        o=org_id,
    )
    assert {kind for kind, *_ in exercises} == set(EXERCISE_TYPES)
    for kind, content, chunk_ids, full_text in exercises:
        assert chunk_ids, f"{kind} exercise without a source chunk"
        text = squash(full_text)
        if kind == "order_steps":  # the procedure is quoted from the document, in its order
            positions = [text.find(squash(step)) for step in content["steps"]]
            assert -1 not in positions and positions == sorted(positions), content["steps"][0]
        elif kind == "fill_blank":
            assert squash(content["answers"][0]) in text
        elif kind == "test":
            assert squash(content["options"][content["answer"]]) in text
    uncited = rows(seeded_pool, "SELECT title FROM lessons WHERE org_id = %(o)s AND citations = '[]'", o=org_id)
    assert not uncited
    modules = rows(seeded_pool, "SELECT summary, skill_id FROM modules WHERE org_id = %(o)s", o=org_id)
    assert all(summary and skill_id for summary, skill_id in modules)


def test_learning_situations(seeded_pool, org_id):
    today = datetime.now(UTC).date()
    open_enrollments = rows(
        seeded_pool,
        """
        SELECT e.deadline, e.progress FROM enrollments e JOIN users u ON u.id = e.user_id
        WHERE e.org_id = %(o)s AND u.is_active AND e.status IN ('assigned', 'in_progress')""",
        o=org_id,
    )
    assert any(deadline < today for deadline, _ in open_enrollments)  # overdue
    assert any(
        0 <= (deadline - today).days <= 7 and progress < 0.5 for deadline, progress in open_enrollments
    )  # at risk
    streaks = rows(
        seeded_pool,
        """
        SELECT user_id, exercise_id FROM (
            SELECT user_id, exercise_id, is_correct,
                   row_number() OVER (PARTITION BY user_id, exercise_id ORDER BY submitted_at DESC) AS n
            FROM exercise_attempts WHERE org_id = %(o)s AND submitted_at IS NOT NULL) recent
        WHERE n <= 3 GROUP BY user_id, exercise_id HAVING count(*) = 3 AND NOT bool_or(is_correct)""",
        o=org_id,
    )
    assert streaks
    completions = rows(seeded_pool, "SELECT count(*) FROM lesson_completions WHERE org_id = %(o)s", o=org_id)
    assert completions[0][0] > 0


def test_review_cards_due_today_for_demo_sign_ins(seeded_pool, org_id):
    due = rows(
        seeded_pool,
        """SELECT u.email, r.card FROM review_cards r JOIN users u ON u.id = r.user_id
                               WHERE r.org_id = %(o)s AND r.due <= now()""",
        o=org_id,
    )
    assert {"lucia@acme.test", "james@acme.test"} <= {email for email, _ in due}
    assert all(isinstance(Card.from_dict(card), Card) for _, card in due)


def test_tickets(seeded_pool, org_id):
    tickets = rows(
        seeded_pool, "SELECT title, status, embedding IS NOT NULL FROM tickets WHERE org_id = %(o)s", o=org_id
    )
    assert len(tickets) >= 15
    assert {"open", "closed"} <= {status for _, status, _ in tickets}
    assert "Oracle Financials returns 403 on budget reports" in {title for title, *_ in tickets}
    assert all(embedded for *_, embedded in tickets)


def test_seeded_chat_titles_end_at_a_word_boundary(seeded_pool, org_id):
    titled = rows(
        seeded_pool,
        """SELECT s.title, m.content FROM chat_sessions s
                                  JOIN chat_messages m ON m.session_id = s.id AND m.role = 'user'
                                  WHERE s.org_id = %(o)s AND s.agent_type = 'tutor'""",
        o=org_id,
    )
    assert titled
    cut = [(title, question) for title, question in titled if title != question]
    assert cut  # the long questions are shortened ...
    for title, question in cut:  # ... after a whole word, and say so
        assert title.endswith("…") and question.startswith(title[:-1])
        assert question[len(title) - 1] in " ,.;:?", title
