"""A throwaway database for a benchmark: created on the configured server, made the process's
DATABASE_URL for the ``with`` block, dropped after it whatever happened."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

import psycopg
from psycopg.conninfo import make_conninfo

from storage import db


@contextmanager
def scratch_database(prefix: str) -> Iterator[None]:
    server = db.database_url()
    name = f"{prefix}_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(server, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    os.environ["DATABASE_URL"] = make_conninfo(server, dbname=name)
    db.reset_pools()
    try:
        yield
    finally:
        db.reset_pools()
        with psycopg.connect(server, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
