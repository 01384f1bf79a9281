"""Repositories behind the dashboards and tools, against the demo organisation."""

from __future__ import annotations

from storage import audit, pending_actions, skill_matrix
from storage import courses as course_store
from storage import exercises as exercise_store
from storage import skills as skill_store


def test_skill_gaps_find_the_skills_nobody_masters(seeded_pool, admin):
    with seeded_pool.connection() as conn:
        gaps = {g.skill: g for g in skill_matrix.skill_gaps(conn, admin.org_id, threshold=1)}
        two = {g.skill for g in skill_matrix.skill_gaps(conn, admin.org_id, threshold=2)}
    assert {"Lockout-tagout (LOTO)", "Payment card security (PCI DSS)", "Accessibility awareness"} <= set(gaps)
    assert all(g.experts == 0 for g in gaps.values())
    assert "Oracle Financials" in two and "Oracle Financials" not in gaps  # exactly one expert


def test_who_knows_is_partial_ordered_and_level_filtered(seeded_pool, admin):
    with seeded_pool.connection() as conn:
        skills = skill_store.find_skills(conn, admin.org_id, "oracle")
        holders = skill_matrix.who_knows(conn, admin.org_id, [s.id for s in skills], "medium")
        everyone = skill_matrix.who_knows(conn, admin.org_id, [s.id for s in skills], "low")
    assert [s.name for s in skills] == ["Oracle Financials"]
    assert [h.full_name for h in holders] == ["Isabel Vega", "Ryan Mitchell"]
    assert len(everyone) == 3 and everyone[-1].level == "low"


def test_mentorship_pairs_experts_with_learners_on_one_skill(seeded_pool, admin):
    with seeded_pool.connection() as conn:
        pairs = skill_matrix.mentorship_suggestions(conn, admin.org_id)
        levels = {(c.user_id, c.skill_id): c.level for c in skill_matrix.skills_matrix(conn, admin.org_id).cells}
    assert pairs and all(p.mentor_email != p.mentee_email for p in pairs)
    loads: dict[tuple[str, str], int] = {}
    for pair in pairs:
        loads[(pair.mentor_email, pair.skill)] = loads.get((pair.mentor_email, pair.skill), 0) + 1
    assert max(loads.values()) <= 3
    assert len(levels) > 50


def test_matrix_filters_by_department_and_category(seeded_pool, admin):
    with seeded_pool.connection() as conn:
        full = skill_matrix.skills_matrix(conn, admin.org_id)
        logistics = skill_matrix.skills_matrix(conn, admin.org_id, department="Logística", category="warehouse")
    assert len(full.employees) == 22 and len(full.skills) >= 20  # active employees only, no admins
    assert {p.department for p in logistics.employees} == {"Logística"}
    assert {s.category for s in logistics.skills} == {"Warehouse safety"}
    assert all(c.user_id in {p.id for p in logistics.employees} for c in logistics.cells)


def test_a_pending_action_is_claimed_once_and_audit_reads_back(seeded_pool, admin):
    with seeded_pool.connection() as conn:
        action = pending_actions.create_pending(
            conn, admin.org_id, admin.id, None, tool="deactivate_employee", arguments={"x": 1}, preview="p"
        )
        assert pending_actions.claim_pending(conn, admin.org_id, admin.id, action.id) is not None
        assert pending_actions.claim_pending(conn, admin.org_id, admin.id, action.id) is None
        assert pending_actions.claim_pending(conn, admin.org_id, admin.id, "not-a-uuid") is None
        audit.record(
            conn,
            admin.org_id,
            actor_id=admin.id,
            action="test",
            entity_type="t",
            entity_id="e",
            before={"a": 1},
            after={"a": 2},
        )
        entry = audit.list_entries(conn, admin.org_id, action="test")[0]
        conn.rollback()
    assert (entry.before, entry.after, entry.actor_name) == ({"a": 1}, {"a": 2}, admin.full_name)


def test_course_stats_and_hardest_exercises(seeded_pool, admin):
    with seeded_pool.connection() as conn:
        course = course_store.find_courses(conn, admin.org_id, "returns")[0]
        stats = course_store.course_stats(conn, admin.org_id, course.id)
        hardest = exercise_store.hardest_exercises(conn, admin.org_id, course.id)
    assert course.title == "Returns and Refunds Essentials"
    assert stats.enrolled >= 5 and 0 < stats.completion_rate < 1 and stats.overdue >= 1
    assert hardest and hardest[0].failure_rate >= hardest[-1].failure_rate
