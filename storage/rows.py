"""The rows a statement must return: one row, or its first column.

A leaf of storage/ (db.py imports queue.py, which needs these too). ``fetchone()`` is ``None`` when a
statement returned no row; where the SQL guarantees one (``count(*)``, ``EXISTS``, ``RETURNING`` of an
insert without ``ON CONFLICT DO NOTHING``, a row this transaction just wrote), these say so, and a
broken guarantee raises ``NoRow`` instead of a ``TypeError`` about ``None`` further on.
"""

from __future__ import annotations

from typing import Any

import psycopg
from psycopg import sql
from psycopg.abc import Params
from psycopg.rows import Row


class NoRow(LookupError):
    """A statement that always returns a row returned none."""


def one_row(cursor: psycopg.Cursor[Row]) -> Row:
    """The next row of an executed statement that always returns one."""
    row = cursor.fetchone()
    if row is None:
        raise NoRow("a statement that always returns a row returned none (see the caller in the traceback)")
    return row


def scalar(conn: psycopg.Connection, query: str | bytes | sql.SQL | sql.Composed, params: Params | None = None) -> Any:
    """The first column of the one row ``query`` returns (a count, an EXISTS, a RETURNING id)."""
    return one_row(conn.execute(query, params))[0]
