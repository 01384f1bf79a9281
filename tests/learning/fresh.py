"""Test set-up: put a demo learner back at the start of a course they may already have taken."""

from __future__ import annotations

from datetime import date
from uuid import UUID

from storage import enrollments


def enroll_from_scratch(conn, org_id: UUID, user_id: UUID, course_id: UUID, *, deadline: date | None = None) -> UUID:
    """Enroll the user and wipe the enrollment's state (the product's enroll keeps progress, as an
    admin re-assigning a course needs); lessons and attempts are left to the caller."""
    enrollment_id = enrollments.enroll(conn, org_id, user_id, course_id, deadline=deadline)
    conn.execute(
        """UPDATE enrollments SET status = 'assigned', progress = 0, score = NULL, assigned_by = NULL,
                        started_at = NULL, completed_at = NULL, last_activity_at = NULL
                    WHERE id = %s""",
        (enrollment_id,),
    )
    return enrollment_id
