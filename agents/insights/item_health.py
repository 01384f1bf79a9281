"""Refreshing a course's item statistics on the task queue: answers arriving (agents/learning) and a
replaced or retired exercise (the content studio) queue one refresh per course."""

from __future__ import annotations

from uuid import UUID

import psycopg

from agents.runtime import tasks
from agents.runtime.deps import process_deps
from storage import item_stats

REFRESH_TASK = "course.item_health"


@tasks.app.task(name=REFRESH_TASK)
def refresh_item_health(org_id: str, course_id: str) -> int:
    """Recompute a course's item statistics (one SQL pass over its first attempts); answers arriving
    while it waits are counted when it runs."""
    with process_deps().pool.connection() as conn:
        return item_stats.refresh_course(conn, UUID(org_id), UUID(course_id))


def defer_item_health(conn: psycopg.Connection, org_id: UUID, course_id: UUID) -> bool:
    return tasks.defer(REFRESH_TASK, conn, f"item-health:{course_id}", org_id=str(org_id), course_id=str(course_id))
