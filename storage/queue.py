"""The task queue's tables (procrastinate's own schema) and the few questions we ask them.

Procrastinate ships its schema and its upgrade scripts; ``install_schema`` applies them through our
migration run (same advisory lock, same ``schema_migrations`` record, so it is idempotent and two
starting processes never race), instead of copying procrastinate's SQL into ``migrations/``.
Queue jobs are keyed by a lock per piece of work (``generation:<job id>``, ``ingestion:<id>``):
procrastinate never runs two jobs holding one lock at once, and that is what makes a generation job
run in exactly one worker at a time however many share the database.
"""

from __future__ import annotations

import re
from importlib.metadata import version
from pathlib import Path

import psycopg

from storage.rows import scalar

SCHEMA_RECORD = "procrastinate "  # + version, in schema_migrations
_MIGRATION_NAME = re.compile(r"^(\d+)\.(\d+)\.(\d+)_(\d+)_")


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", text)[:3])


def install_schema(conn: psycopg.Connection) -> str | None:
    """Create procrastinate's tables on first start, or upgrade them to the installed version with
    procrastinate's own migration scripts; returns what was applied (None: already current).
    ``conn`` is autocommit and holds the migration lock."""
    from procrastinate.schema import SchemaManager

    installed = version("procrastinate")
    recorded = [
        row[0]
        for row in conn.execute(
            "SELECT name FROM schema_migrations WHERE name LIKE %(prefix)s", {"prefix": SCHEMA_RECORD + "%"}
        )
    ]
    current = max((_version(name) for name in recorded), default=None)
    if current == _version(installed):
        return None
    with conn.transaction():
        if current is None:
            if scalar(conn, "SELECT to_regclass('procrastinate_jobs')") is None:
                conn.execute(SchemaManager.get_schema())
        else:
            scripts = sorted(Path(SchemaManager.get_migrations_path()).glob("*.sql"))
            for script in scripts:
                match = _MIGRATION_NAME.match(script.name)
                if match and current < tuple(map(int, match.groups()[:3])) <= _version(installed):
                    conn.execute(script.read_text())
        conn.execute(
            "INSERT INTO schema_migrations (name) VALUES (%(name)s) ON CONFLICT DO NOTHING",
            {"name": SCHEMA_RECORD + installed},
        )
    return SCHEMA_RECORD + installed


def open_job_status(conn: psycopg.Connection, lock: str) -> str | None:
    """``doing`` when a worker runs a queue job holding ``lock``, ``todo`` when one waits, else None
    (the work the lock names is settled)."""
    row = conn.execute(
        """SELECT status::text FROM procrastinate_jobs WHERE lock = %(lock)s
                          AND status IN ('todo', 'doing') ORDER BY status = 'doing' DESC LIMIT 1""",
        {"lock": lock},
    ).fetchone()
    return row[0] if row else None
