"""Reviews people can plan: a bounded, audited desired retention; a 30-day forecast that grows with
it (learner and course views); the organisation's FSRS fit with log-loss before and after."""

from __future__ import annotations

import json
import math
import random
import re
from datetime import UTC, datetime, timedelta

import pytest

from agents.learning import review_planning
from agents.learning.scheduling import scheduler_for
from storage import audit
from tests.apptest import open_page, texts
from tests.conftest import make_deps
from tests.insights.conftest import person

COURSE = "Returns and Refunds Essentials"


def test_more_retention_means_more_reviews(seeded_pool):
    lucia = person(seeded_pool, "lucia@acme.test")
    totals = [
        review_planning.learner_forecast(make_deps(seeded_pool), lucia, desired_retention=r)["reviews"].sum()
        for r in (0.75, 0.9, 0.97)
    ]
    assert 0 < totals[0] < totals[1] < totals[2]
    again = review_planning.learner_forecast(make_deps(seeded_pool), lucia, desired_retention=0.9)["reviews"].sum()
    assert again == totals[1]  # seeded: the same cards, the same forecast


def test_retention_is_bounded_admin_only_and_audited(seeded_pool, admin):
    lucia = person(seeded_pool, "lucia@acme.test")
    for bad in (0.5, 0.99, float("nan")):
        with pytest.raises(review_planning.PlanningError, match="0.7"):
            review_planning.set_desired_retention(make_deps(seeded_pool), admin, bad)
    with pytest.raises(review_planning.PlanningError):
        review_planning.set_desired_retention(make_deps(seeded_pool), lucia, 0.8)
    review_planning.set_desired_retention(make_deps(seeded_pool), admin, 0.85)
    with seeded_pool.connection() as conn:
        entry = audit.list_entries(conn, admin.org_id, action="reviews.set_retention")[0]
        assert review_planning.org_scheduler(conn, admin.org_id).desired_retention == pytest.approx(0.85)
    assert entry.before == {"desired_retention": pytest.approx(0.9)} and entry.after == {"desired_retention": 0.85}
    review_planning.set_desired_retention(make_deps(seeded_pool), admin, 0.9)


def test_course_statistics_forecast_changes_with_the_retention(seeded_pool, admin):
    at = open_page(admin, "pages/course_stats.py", stats_course=COURSE)
    assert "Planificación de repasos" in texts(at)
    before = at.dataframe[-1].value["Próximos 30 días"].sum()
    at.slider(key="retention").set_value(0.97).run()
    next(b for b in at.button if b.label == "Guardar retención").click().run()
    assert not at.exception
    assert any("Retención guardada" in s.value for s in at.success)
    at.run()
    after = at.dataframe[-1].value["Próximos 30 días"].sum()
    assert after > before > 0
    review_planning.set_desired_retention(make_deps(seeded_pool), admin, 0.9)


@pytest.mark.parametrize(
    "email, title", [("lucia@acme.test", "Tus próximos 30 días"), ("james@acme.test", "Your next 30 days")]
)
def test_reviews_page_shows_the_forecast(seeded_pool, email, title):
    at = open_page(person(seeded_pool, email), "pages/reviews.py")
    assert title in [e.label for e in at.expander]
    chart = json.loads(at.get("plotly_chart")[0].proto.spec)
    assert chart["data"][0]["y"]["dtype"][0] in "iu"  # whole reviews (plotly packs them typed)
    assert chart["layout"]["yaxis"]["tickformat"] == ",d"  # whole ticks, with dtick 1 on a low chart
    assert "%{y:d}" in chart["data"][0]["hovertemplate"]
    peak = re.search(r"\(([^)]*)\)$", next(c.value for c in at.caption if "30" in c.value and "(" in c.value))
    assert peak and peak.group(1).isdigit()  # "(2)", never "(2,0)"


def test_whole_reviews_add_up_to_the_expected_total():
    expected = [2.4, 0.3, 0.3, 1.5, 0.0, 0.5]  # 5.0 expected in all
    assert review_planning.whole_reviews(expected) == [2, 0, 0, 2, 0, 1]
    assert review_planning.whole_reviews([0.3] * 10) == [1, 1, 1, 0, 0, 0, 0, 0, 0, 0]


def test_forecasts_count_whole_reviews(seeded_pool, admin):
    lucia = person(seeded_pool, "lucia@acme.test")
    reviews = review_planning.learner_forecast(make_deps(seeded_pool), lucia)["reviews"].tolist()
    assert reviews and all(isinstance(n, int) for n in reviews)
    table = review_planning.course_forecast(make_deps(seeded_pool), admin, COURSE)
    for column in ("today", "next_7_days", "next_30_days"):
        assert all(isinstance(n, int) for n in table[column].tolist()), column


def _synthetic_history(conn, org_id, users, exercises, start: datetime) -> int:
    """Answers spaced as FSRS schedules them, recalled as a forgetful learner would (seeded)."""
    chance, scheduler, count = random.Random(7), scheduler_for(0.9), 0
    from fsrs import Card, Rating

    for user_id in users:
        for exercise_id in exercises:
            card, when = Card(due=start), start
            for _ in range(8):
                elapsed = max((when - (card.last_review or when)).days, 0)
                recalled = chance.random() < math.exp(-elapsed / 12)  # faster forgetting than FSRS assumes
                conn.execute(
                    """INSERT INTO exercise_attempts (org_id, user_id, exercise_id, is_correct, score,
                                                               started_at, submitted_at)
                                VALUES (%s, %s, %s, %s, %s, %s, %s)""",
                    (org_id, user_id, exercise_id, recalled, 1.0 if recalled else 0.0, when, when),
                )
                count += 1
                card, _ = scheduler.review_card(card, Rating.Good if recalled else Rating.Again, when)
                when = card.due + timedelta(days=chance.randint(0, 6))
    return count


@pytest.mark.skipif(not review_planning.optimiser_available(), reason="FSRS's optimiser needs PyTorch")
def test_the_fsrs_fit_reports_log_loss_before_and_after(seeded_pool, admin):
    with seeded_pool.connection() as conn:
        users = [
            r[0]
            for r in conn.execute(
                "SELECT id FROM users WHERE org_id = %s AND role = 'employee' LIMIT 12", (admin.org_id,)
            )
        ]
        exercises = [r[0] for r in conn.execute("SELECT id FROM exercises WHERE org_id = %s LIMIT 10", (admin.org_id,))]
        added = _synthetic_history(conn, admin.org_id, users, exercises, datetime(2025, 1, 6, tzinfo=UTC))
    report = review_planning.optimise(make_deps(seeded_pool), admin)
    assert report["reviews"] >= added
    assert report["log_loss_after"] < report["log_loss_before"] and report["applied"]
    print(
        f"\nFSRS fit on {report['reviews']} reviews: log-loss {report['log_loss_before']} (defaults) "
        f"-> {report['log_loss_after']} (fitted)"
    )
    settings = review_planning.settings(make_deps(seeded_pool), admin)
    assert settings.parameters and len(settings.parameters) == 21 and settings.report == report
    with seeded_pool.connection() as conn:
        assert review_planning.org_scheduler(conn, admin.org_id).parameters == tuple(settings.parameters)


def test_the_fit_needs_enough_reviews(pool):
    from storage.users import User, ensure_org

    with pool.connection() as conn:
        org = ensure_org(conn, "tiny", "Tiny", "en")
    admin = User(
        id=org.id,
        org_id=org.id,
        email="a@tiny.test",
        full_name="A",
        role="admin",
        is_active=True,
        department=None,
        job_title=None,
        language="en",
    )
    with pytest.raises(review_planning.PlanningError, match="at least 512"):
        review_planning.optimise(make_deps(pool), admin)
