"""Migrations and the database seam, on a real PostgreSQL."""

import threading
import time

import psycopg
import pytest
from psycopg.conninfo import make_conninfo

from storage import db, users
from tests.conftest import _admin_execute
from tests.people import upsert_user


def test_migrations_are_recorded_and_idempotent(db_url):
    with psycopg.connect(db_url) as conn:
        names = [row[0] for row in conn.execute("SELECT name FROM schema_migrations ORDER BY name")]
    assert names and names[0] == "001_core.sql"
    assert db.migrate(db_url) == []


def test_two_concurrent_starts_migrate_once(pg_server_url):
    _admin_execute(pg_server_url, 'CREATE DATABASE "concurrent_start"')
    url = make_conninfo(pg_server_url, dbname="concurrent_start")
    results, errors = [], []

    def start():
        try:
            results.append(db.migrate(url))
        except Exception as exc:  # recorded, asserted below
            errors.append(exc)

    threads = [threading.Thread(target=start) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert sorted(len(applied) for applied in results)[0] == 0
    with psycopg.connect(url) as conn:
        count = conn.execute("SELECT count(*) FROM schema_migrations").fetchone()[0]
    assert count == max(len(applied) for applied in results)
    _admin_execute(pg_server_url, 'DROP DATABASE "concurrent_start" WITH (FORCE)')


def test_a_migrator_waiting_its_turn_never_blocks_the_running_ones_concurrent_index_build(db_url):
    """LangGraph's checkpoint migrations build indexes CONCURRENTLY (on another connection than the one
    holding the lock), and such a build waits for every statement running when it starts: a second process
    waiting inside pg_advisory_lock and the first one's build waited for each other for good."""
    connect = lambda: psycopg.connect(db_url, autocommit=True)  # noqa: E731
    with connect() as holder, connect() as builder, connect() as waiter:
        builder.execute("CREATE TABLE lock_probe (x int)")
        turns: list[str] = []

        def wait_for_the_lock():
            with db.migrators_lock(waiter):
                turns.append("waiter")

        with db.migrators_lock(holder):
            thread = threading.Thread(target=wait_for_the_lock)
            thread.start()
            deadline = time.monotonic() + 10
            while (
                time.monotonic() < deadline
                and not holder.execute(  # the waiter has asked at least once
                    "SELECT count(*) FROM pg_stat_activity WHERE pid = %s AND query LIKE '%%advisory_lock%%'",
                    (waiter.info.backend_pid,),
                ).fetchone()[0]
            ):
                time.sleep(0.02)
            builder.execute("SET statement_timeout = '15s'")
            builder.execute("CREATE INDEX CONCURRENTLY lock_probe_x ON lock_probe (x)")  # timed out before
            turns.append("holder")
        thread.join(10)
    assert turns == ["holder", "waiter"]


def test_pgvector_is_new_enough(db_url):
    with psycopg.connect(db_url) as conn:
        assert db._pgvector_version(conn) >= (0, 8)


def test_unreachable_database_gives_one_line_reason():
    with pytest.raises(db.DatabaseError) as info:
        db.migrate("postgresql://nobody@127.0.0.1:1/none?connect_timeout=2")
    assert "\n" not in str(info.value) and "cannot connect" in str(info.value)


def test_sign_in_rules(pool):
    with pool.connection() as conn:
        org = users.ensure_org(conn, "acme", "Acme")
        upsert_user(conn, org.id, email="Ana@Acme.test", full_name="Ana", role="admin", password="pw-ana-1")
        upsert_user(
            conn, org.id, email="old@acme.test", full_name="Old", role="employee", password="pw-old-1", is_active=False
        )
    with pool.connection() as conn:
        assert users.authenticate(conn, "ana@acme.test", "pw-ana-1").is_admin
        assert users.authenticate(conn, "ana@acme.test", "wrong") is None
        assert users.authenticate(conn, "old@acme.test", "pw-old-1") is None
        assert users.authenticate(conn, "nobody@acme.test", "x") is None
        other = users.ensure_org(conn, "other")
        ana = users.get_user_by_email(conn, "ana@acme.test")
        assert users.get_user(conn, other.id, ana.id) is None


def test_a_block_of_reads_runs_each_statement_alone_and_gives_the_connection_back_as_it_came(pool):
    with db.reading(pool) as conn:
        assert conn.execute("SELECT 1").fetchone() == (1,)
        assert conn.info.transaction_status == psycopg.pq.TransactionStatus.IDLE  # no BEGIN, so no COMMIT to send
    assert not conn.autocommit  # the pool's next user opens a transaction, as with pool.connection()
    with pytest.raises(psycopg.errors.UndefinedTable), db.reading(pool) as conn:
        conn.execute("SELECT * FROM no_such_table")
    assert not conn.closed and not conn.autocommit
