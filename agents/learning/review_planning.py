"""Reviews people can plan: the organisation's desired retention, a 30-day forecast of daily reviews,
and FSRS parameters fitted to the organisation's own history.

The forecast applies the organisation's FSRS scheduler forward: each card is reviewed on the day it
falls due, recalled with the probability the scheduler aims for (the desired retention), and
rescheduled by FSRS. It is the mean of ``RUNS`` seeded simulations, so the same cards give the same
forecast. A higher retention shortens intervals, so the forecast grows with it.
"""

from __future__ import annotations

import math
import random
from collections import defaultdict
from datetime import UTC, date, datetime, timedelta
from typing import cast
from uuid import UUID

import pandas as pd
import psycopg
from fsrs import Card, Rating, ReviewLog, Scheduler
from fsrs.card import CardDict

from agents.i18n import t
from agents.learning.scheduling import rating_for, scheduler_for
from agents.runtime.deps import AppDeps
from storage import audit, review_planning, users
from storage import courses as course_store

MIN_RETENTION, MAX_RETENTION, DEFAULT_RETENTION = 0.7, 0.97, 0.9
FORECAST_DAYS = 30
RUNS = 24
MIN_REVIEWS_TO_OPTIMISE = 512  # repeat reviews FSRS's optimiser needs before it moves off its defaults


class PlanningError(ValueError):
    """A review-planning request that cannot be done; one line in the person's language."""


def org_scheduler(conn: psycopg.Connection, org_id: UUID) -> Scheduler:
    """The scheduler new reviews of this organisation are planned with."""
    found = review_planning.settings(conn, org_id)
    return scheduler_for(found.desired_retention, tuple(found.parameters) if found.parameters else None)


def simulate(
    cards: list[dict], scheduler: Scheduler, today: date, days: int = FORECAST_DAYS, runs: int = RUNS
) -> list[float]:
    """Expected reviews on each of the next ``days`` days (day 0 = today, overdue cards included)."""
    start = datetime.combine(today, datetime.min.time(), tzinfo=UTC)
    end = start + timedelta(days=days)
    totals = [0] * days
    for run in range(runs):
        chance = random.Random(run)
        for raw in cards:
            card = Card.from_dict(cast(CardDict, raw))  # the stored card is fsrs's own to_dict()
            when = max(card.due, start)
            while when < end:
                totals[(when - start).days] += 1
                rating = Rating.Good if chance.random() < scheduler.desired_retention else Rating.Again
                card, _ = scheduler.review_card(card, rating, when)
                # the learner reviews on the day it falls due, never twice on one day
                when = max(card.due, when + timedelta(days=1))
    return [total / runs for total in totals]


def whole_reviews(expected: list[float]) -> list[int]:
    """Expected reviews a day as whole reviews that add up to the rounded expected total: each day gets its
    whole part and the days with the largest remainders the rest (a day shown as 2.4 reviews reads as nonsense)."""
    counts = [math.floor(e) for e in expected]
    rest = round(sum(expected)) - sum(counts)
    for day in sorted(range(len(expected)), key=lambda d: expected[d] - counts[d], reverse=True)[:rest]:
        counts[day] += 1
    return counts


def _daily(counts: list[int], today: date) -> pd.DataFrame:
    return pd.DataFrame({"day": [today + timedelta(days=n) for n in range(len(counts))], "reviews": counts})


def learner_forecast(deps: AppDeps, user: users.User, *, desired_retention: float | None = None) -> pd.DataFrame:
    """The learner's next 30 days (columns day, reviews) under the organisation's retention."""
    with deps.pool.connection() as conn:
        scheduler = org_scheduler(conn, user.org_id)
        cards = [c.card for c in review_planning.forecast_cards(conn, user.org_id, user_id=user.id)]
    if desired_retention is not None:
        scheduler = scheduler_for(desired_retention, tuple(scheduler.parameters))
    today = deps.now().date()
    return _daily(whole_reviews(simulate(cards, scheduler, today)), today)


def course_forecast(deps: AppDeps, admin: users.User, course_title: str) -> pd.DataFrame:
    """Per learner of the course: reviews expected today, in 7 and in 30 days, and the busiest day."""
    _admin(admin)
    with deps.pool.connection() as conn:
        scheduler = org_scheduler(conn, admin.org_id)
        course = next(
            (c for c in course_store.list_courses(conn, admin.org_id) if course_title in (c.title, *c.titles.values())),
            None,
        )  # titled in any language
        rows = review_planning.forecast_cards(conn, admin.org_id, course_id=course.id) if course else []
    by_learner: dict[str, list[dict]] = defaultdict(list)
    for row in rows:
        by_learner[row.full_name].append(row.card)
    today = deps.now().date()
    table = []
    for name, cards in by_learner.items():
        daily = whole_reviews(simulate(cards, scheduler, today))
        table.append(
            {
                "learner": name,
                "today": daily[0],
                "next_7_days": sum(daily[:7]),
                "next_30_days": sum(daily),
                "busiest_day": today + timedelta(days=daily.index(max(daily))),
            }
        )
    return pd.DataFrame(table)


def settings(deps: AppDeps, user: users.User) -> review_planning.ReviewSettings:
    with deps.pool.connection() as conn:
        return review_planning.settings(conn, user.org_id)


def _admin(user: users.User) -> None:
    if not user.is_admin:
        raise PlanningError(t("common.admins_only", user.language))


def set_desired_retention(deps: AppDeps, admin: users.User, value: float) -> None:
    """An admin sets the organisation's retention (bounded 0.7–0.97; audited)."""
    _admin(admin)
    if not isinstance(value, (int, float)) or math.isnan(value) or not MIN_RETENTION <= value <= MAX_RETENTION:
        raise PlanningError(
            t("insights.reviews.retention_bounds", admin.language, low=MIN_RETENTION, high=MAX_RETENTION)
        )
    with deps.pool.connection() as conn:
        previous = review_planning.set_desired_retention(conn, admin.org_id, round(float(value), 2))
        audit.record(
            conn,
            admin.org_id,
            actor_id=admin.id,
            action="reviews.set_retention",
            entity_type="organization",
            entity_id=admin.org_id,
            before={"desired_retention": previous},
            after={"desired_retention": round(float(value), 2)},
        )


def review_logs(history: list[review_planning.PastReview]) -> list[ReviewLog]:
    """Graded answers as FSRS review logs: one card per learner and exercise."""
    card_ids: dict[tuple[UUID, UUID], int] = {}
    return [
        ReviewLog(
            card_id=card_ids.setdefault((r.user_id, r.exercise_id), len(card_ids) + 1),
            rating=rating_for(r.is_correct, r.score or 0.0),
            review_datetime=r.submitted_at.astimezone(UTC),
            review_duration=None,
        )
        for r in history
    ]


def log_loss(logs: list[ReviewLog], scheduler: Scheduler) -> float:
    """Mean log-loss of the scheduler's recall predictions on every review after a card's first."""
    by_card: dict[int, list[ReviewLog]] = defaultdict(list)
    for log in logs:
        by_card[log.card_id].append(log)
    losses = []
    for card_id, reviews in by_card.items():
        card = Card(card_id=card_id, due=reviews[0].review_datetime)
        for n, log in enumerate(sorted(reviews, key=lambda r: r.review_datetime)):
            if n:
                recall = min(max(scheduler.get_card_retrievability(card, log.review_datetime), 1e-6), 1 - 1e-6)
                recalled = log.rating != Rating.Again
                losses.append(-math.log(recall if recalled else 1 - recall))
            card, _ = scheduler.review_card(card, log.rating, log.review_datetime)
    return sum(losses) / len(losses) if losses else float("nan")


def optimiser_available() -> bool:
    """FSRS's optimiser needs PyTorch (an optional install: pip install torch==2.13.0)."""
    try:
        import torch  # noqa: F401
    except ImportError:
        return False
    return True


def optimise(deps: AppDeps, admin: users.User) -> dict:
    """Fit FSRS's parameters to the organisation's history; stores them with the before/after log-loss."""
    _admin(admin)
    with deps.pool.connection() as conn:
        history = review_planning.review_history(conn, admin.org_id)
        current = review_planning.settings(conn, admin.org_id)
    logs = review_logs(history)
    repeats = len(logs) - len({log.card_id for log in logs})  # a card's first answer predicts nothing
    if repeats < MIN_REVIEWS_TO_OPTIMISE:
        raise PlanningError(t("insights.reviews.too_few", admin.language, n=repeats, needed=MIN_REVIEWS_TO_OPTIMISE))
    if not optimiser_available():
        raise PlanningError(t("insights.reviews.no_optimiser", admin.language))
    from fsrs import Optimizer

    fitted = [float(p) for p in Optimizer(logs).compute_optimal_parameters()]
    before = log_loss(logs, scheduler_for(current.desired_retention))
    after = log_loss(logs, scheduler_for(current.desired_retention, tuple(fitted)))
    report = {
        "reviews": len(logs),
        "log_loss_before": round(before, 4),
        "log_loss_after": round(after, 4),
        "applied": after < before,
        "at": deps.now().isoformat(),
    }
    with deps.pool.connection() as conn:
        # a fit that predicts worse than the defaults is reported but not used
        review_planning.save_parameters(conn, admin.org_id, fitted if after < before else current.parameters, report)
        audit.record(
            conn,
            admin.org_id,
            actor_id=admin.id,
            action="reviews.optimise",
            entity_type="organization",
            entity_id=admin.org_id,
            before=None,
            after=report,
        )
    return report
