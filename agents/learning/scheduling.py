"""Spaced repetition with FSRS (``fsrs`` 6): every answered exercise becomes a review card.

The grade becomes the FSRS rating: wrong -> Again, right with partial credit -> Hard, fully right
-> Good (a learner never self-rates Easy here). Workplace reviews are scheduled in whole days: no
intra-day learning steps, and no fuzz, so the same history always gives the same due date.
"""

from __future__ import annotations

import functools
from datetime import UTC, datetime
from typing import Any, cast

from fsrs import Card, Rating, Scheduler
from fsrs.card import CardDict

SCHEDULER = Scheduler(learning_steps=(), relearning_steps=(), enable_fuzzing=False)


@functools.lru_cache(maxsize=64)
def scheduler_for(desired_retention: float = 0.9, parameters: tuple[float, ...] | None = None) -> Scheduler:
    """The scheduler for an organisation's desired retention (and FSRS parameters, once optimised)."""
    extra: dict[str, Any] = {"parameters": parameters} if parameters else {}
    return Scheduler(
        desired_retention=desired_retention, learning_steps=(), relearning_steps=(), enable_fuzzing=False, **extra
    )


def rating_for(correct: bool, score: float) -> Rating:
    if not correct:
        return Rating.Again
    return Rating.Good if score >= 0.999 else Rating.Hard


def review(
    card: dict | None, correct: bool, score: float, reviewed_at: datetime, scheduler: Scheduler = SCHEDULER
) -> tuple[dict, datetime]:
    """The card after this answer (a new card for a first answer) and when it is due next."""
    reviewed_at = reviewed_at.astimezone(UTC)  # fsrs insists on datetime.timezone.utc
    current = (
        Card.from_dict(cast(CardDict, card))
        if card
        else Card(card_id=int(reviewed_at.timestamp() * 1000), due=reviewed_at)
    )
    updated, _ = scheduler.review_card(current, rating_for(correct, score), reviewed_at)
    return dict(updated.to_dict()), updated.due
