"""Sliding-window rate limits per subject and endpoint, counted in their own table.

A subject is whose budget it is: a user's id (the tutor, the admin assistant, the helpdesk) or an
organisation's (content generation jobs). ``take`` records a request and says whether it fits: the
check and the write are one statement (an upsert whose row lock serialises concurrent requests for
the same subject and endpoint), so a burst of 45 concurrent requests against a limit of 30 serves
exactly 30.
"""

from __future__ import annotations

import math
from uuid import UUID

import psycopg

from storage.rows import one_row

_TAKE = """
INSERT INTO rate_limit_hits AS r (subject_id, endpoint, hits, updated_at)
VALUES (%(subject_id)s, %(endpoint)s, ARRAY[clock_timestamp()], clock_timestamp())
ON CONFLICT (subject_id, endpoint) DO UPDATE
SET hits = COALESCE((SELECT array_agg(h ORDER BY h) FROM unnest(r.hits) AS h
                     WHERE h > clock_timestamp() - make_interval(secs => %(window)s)), '{}')
           || clock_timestamp(),
    updated_at = clock_timestamp()
WHERE (SELECT count(*) FROM unnest(r.hits) AS h
       WHERE h > clock_timestamp() - make_interval(secs => %(window)s)) < %(limit)s
RETURNING cardinality(hits) AS used
"""

_RETRY_AFTER = """
SELECT extract(epoch FROM min(h) + make_interval(secs => %(window)s) - clock_timestamp()) AS wait
FROM rate_limit_hits, unnest(hits) AS h
WHERE subject_id = %(subject_id)s AND endpoint = %(endpoint)s
  AND h > clock_timestamp() - make_interval(secs => %(window)s)
"""


def take(conn: psycopg.Connection, subject_id: UUID, endpoint: str, limit: int, window_seconds: float) -> int | None:
    """Record one request; None when it is within the limit, else the seconds to wait (>= 1)."""
    params = {"subject_id": subject_id, "endpoint": endpoint, "limit": limit, "window": float(window_seconds)}
    if conn.execute(_TAKE, params).fetchone() is not None:
        return None
    row = one_row(conn.execute(_RETRY_AFTER, params))
    wait = row[0] if not isinstance(row, dict) else row["wait"]
    return max(1, math.ceil(float(wait or 1)))
