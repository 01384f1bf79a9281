"""Shared fixtures: one real PostgreSQL per test session, a fresh database per test module.

DATABASE_URL switches from the embedded server to an external one. Databases are cloned from
templates (migrated; migrated + demo organisation) so each module starts from a known state fast.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import uuid
from pathlib import Path

import psycopg
import pytest
from psycopg.conninfo import make_conninfo

pytest_plugins = ["tests.fake_openai"]

# Tests run the offline engine unless a test points the model at the fake server itself.
for _var in (
    "OPENAI_API_KEY",
    "OPENAI_BASE_URL",
    "LLM_MODEL",
    "LANGCHAIN_TRACING_V2",
    "TAVILY_API_KEY",
    "GITHUB_TOKEN",
    "EMBEDDINGS_BASE_URL",
    "EMBEDDINGS_API_KEY",
):
    os.environ.pop(_var, None)
os.environ["EMBEDDINGS"] = "local"
# Content tests run jobs themselves; an app-started worker would race them for the same jobs.
os.environ["SKILLNET_CONTENT_WORKER"] = "off"
# The admin assistant's 20 requests a minute has its own test (tests/untrusted); other tests ask more.
os.environ.setdefault("SKILLNET_ADMIN_RATE_PER_MINUTE", "100000")
os.environ.setdefault("SKILLNET_CONTENT_JOBS_PER_HOUR", "100000")  # suites start many jobs in one organisation
# Passage vectors survive across test runs on one machine (a fresh machine builds them once).
os.environ.setdefault("SKILLNET_EMBED_CACHE", os.path.expanduser("~/.cache/skillnet/embeddings"))

MIGRATED_TEMPLATE = "skillnet_tpl_migrated"
SEEDED_TEMPLATE = "skillnet_tpl_seeded"


def _admin_execute(server_url: str, sql: str) -> None:
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(sql)


def clone_database(server_url: str, template: str) -> str:
    """A new database copied from ``template``; returns its conninfo."""
    name = f"t_{uuid.uuid4().hex[:12]}"
    _admin_execute(server_url, f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
    return make_conninfo(server_url, dbname=name)


@pytest.fixture(scope="session", autouse=True)
def data_dir():
    # Not under pytest's 0700 tmp root: as root, the embedded server runs as the "pgserver" user,
    # which must reach its data directory to stop cleanly.
    path = Path(tempfile.mkdtemp(prefix="skillnet-test-"))
    path.chmod(0o755)
    os.environ["SKILLNET_DATA_DIR"] = str(path)
    yield path
    from storage import db

    db.reset_pools()
    db.stop_embedded_servers()
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture(scope="session")
def pg_server_url(data_dir):
    """The maintenance URL of the server the tests use (external or embedded)."""
    external = os.environ.get("DATABASE_URL")
    if external:
        yield external
        return
    from storage.db import start_embedded_server

    yield start_embedded_server(data_dir / "pg")


@pytest.fixture(scope="session")
def migrated_template(pg_server_url):
    from storage.db import migrate

    _admin_execute(pg_server_url, f'DROP DATABASE IF EXISTS "{MIGRATED_TEMPLATE}" WITH (FORCE)')
    _admin_execute(pg_server_url, f'CREATE DATABASE "{MIGRATED_TEMPLATE}"')
    migrate(make_conninfo(pg_server_url, dbname=MIGRATED_TEMPLATE))
    return MIGRATED_TEMPLATE


@pytest.fixture(scope="session")
def seeded_template(pg_server_url, migrated_template):
    """A template database holding the demo organisation (loaded once per test session)."""
    from agents.runtime.deps import process_embedder
    from seeds.loader import load_demo
    from storage.db import open_pool

    _admin_execute(pg_server_url, f'DROP DATABASE IF EXISTS "{SEEDED_TEMPLATE}" WITH (FORCE)')
    _admin_execute(pg_server_url, f'CREATE DATABASE "{SEEDED_TEMPLATE}" TEMPLATE "{migrated_template}"')
    pool = open_pool(make_conninfo(pg_server_url, dbname=SEEDED_TEMPLATE))
    try:
        load_demo(pool, embedder=process_embedder())
    finally:
        pool.close()
    return SEEDED_TEMPLATE


def _use_database(url: str):
    """Point the process (pages, CLIs, app_pool) at ``url`` for the module's duration."""
    from storage import db

    previous = os.environ.get("DATABASE_URL")
    os.environ["DATABASE_URL"] = url
    db.reset_pools()
    return previous


def _restore_database(previous: str | None) -> None:
    from storage import db

    db.reset_pools()
    if previous is None:
        os.environ.pop("DATABASE_URL", None)
    else:
        os.environ["DATABASE_URL"] = previous


@pytest.fixture(scope="module")
def db_url(pg_server_url, migrated_template):
    """A fresh, migrated, empty database for this module; DATABASE_URL points at it."""
    url = clone_database(pg_server_url, migrated_template)
    previous = _use_database(url)
    yield url
    _restore_database(previous)


@pytest.fixture(scope="module")
def seeded_db_url(pg_server_url, seeded_template):
    """A fresh database holding the demo organisation; DATABASE_URL points at it."""
    url = clone_database(pg_server_url, seeded_template)
    previous = _use_database(url)
    yield url
    _restore_database(previous)


@pytest.fixture(scope="module")
def pool(db_url):
    from storage.db import open_pool

    pool = open_pool(db_url)
    yield pool
    pool.close()


@pytest.fixture(scope="module")
def seeded_pool(seeded_db_url):
    from storage.db import open_pool

    pool = open_pool(seeded_db_url)
    yield pool
    pool.close()


def make_deps(pool, **overrides):
    """AppDeps on a test's own pool: the process's model (offline unless the test set one) unless given."""
    from agents.llm import get_llm
    from agents.runtime.deps import AppDeps

    return AppDeps(pool=pool, llm=overrides.pop("llm", None) or get_llm(), **overrides)


def _model_first(request) -> None:
    """A test that also asks for the fake model server gets deps holding that server's model."""
    if "fake_openai" in request.fixturenames:
        request.getfixturevalue("fake_openai")


@pytest.fixture
def app_deps(pool, request):
    """AppDeps on this module's empty database (built per test: a test may point the model elsewhere first)."""
    _model_first(request)
    return make_deps(pool)


@pytest.fixture
def seeded_deps(seeded_pool, request):
    """AppDeps on this module's demo database."""
    _model_first(request)
    return make_deps(seeded_pool)


def real_model_server() -> tuple[str, str] | None:
    """(base URL, model id) of the real model server at SKILLNET_REAL_MODEL_URL, if one answers there."""
    import json
    import urllib.request

    from core import config

    url = (config.get("SKILLNET_REAL_MODEL_URL") or "").rstrip("/")
    if not url:
        return None
    try:
        with urllib.request.urlopen(f"{url}/models", timeout=5) as response:
            models = json.load(response).get("data") or []
    except (OSError, ValueError):
        return None
    return (url, models[0]["id"]) if models and models[0].get("id") else None


def pytest_collection_modifyitems(config, items):
    """Files holding a ``slow`` test run first (each worker then ends on short files, not on a 40 s one);
    tests marked ``real_model`` skip unless a real model server answers at SKILLNET_REAL_MODEL_URL."""
    slow_files = {item.path for item in items if item.get_closest_marker("slow")}
    items.sort(key=lambda item: item.path not in slow_files)  # stable: files and tests keep their order
    marked = [item for item in items if item.get_closest_marker("real_model")]
    if marked and real_model_server() is None:
        skip = pytest.mark.skip(reason="no model server answers at SKILLNET_REAL_MODEL_URL")
        for item in marked:
            item.add_marker(skip)
