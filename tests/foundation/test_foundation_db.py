"""Migrations and the database seam, on a real PostgreSQL."""
import threading

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
        upsert_user(conn, org.id, email="old@acme.test", full_name="Old", role="employee",
                    password="pw-old-1", is_active=False)
    with pool.connection() as conn:
        assert users.authenticate(conn, "ana@acme.test", "pw-ana-1").is_admin
        assert users.authenticate(conn, "ana@acme.test", "wrong") is None
        assert users.authenticate(conn, "old@acme.test", "pw-old-1") is None
        assert users.authenticate(conn, "nobody@acme.test", "x") is None
        other = users.ensure_org(conn, "other")
        ana = users.get_user_by_email(conn, "ana@acme.test")
        assert users.get_user(conn, other.id, ana.id) is None
