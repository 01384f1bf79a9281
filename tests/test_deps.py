"""One dependency object: only agents/runtime/deps.py (and the entry points named below) reach for the
process-wide pool, checkpointer, model, embedder or clock; services get them passed in as ``deps``
(CONVENTIONS §5), so a test hands its own through the seam production uses."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PRODUCT = ["app.py", "chat.py", "agents", "pages", "ui", "storage", "seeds", "core"]
# what each kind of bypass calls: the process's pool/checkpointer, its model, its embedder, the wall clock
BYPASSES = {
    "pool": {"app_pool", "checkpointer"},
    "model": {"get_llm"},
    "embedder": {"embed_query", "embed_queries", "embed_passages"},
    "clock": {"now", "today", "utcnow", "time"},
}
CLOCK_OWNERS = {"datetime", "date", "time"}  # datetime.now(), date.today(), time.time(); not deps.now()
# where they are defined, or built into AppDeps; the app's start prepares the database before anything else;
# storage's CLI cannot see agents, the model check opens no database; the ingestion package is the embedder
# itself, and the demo's activity is dated from today
BUILDERS = {"agents/runtime/deps.py", "storage/db.py", "ui/startup.py", "storage/__main__.py", "agents/llm/__main__.py"}
OWNERS = {"embedder": ("agents/ingestion/",), "clock": ("seeds/",)}
# shrinks to empty: each file moved onto AppDeps leaves its list (a listed file with no such call fails)
NOT_YET_ON_APPDEPS: dict[str, set[str]] = {
    "pool": set(),
    "model": set(),
    "embedder": set(),
    "clock": set(),
}


def _product_files() -> list[Path]:
    files: list[Path] = []
    for entry in PRODUCT:
        path = ROOT / entry
        files.extend([path] if path.is_file() else sorted(path.rglob("*.py")))
    return files


def _called_on(func: ast.expr) -> str | None:
    """The name a call is made on: "datetime" in datetime.now(), "embeddings" in
    agents.ingestion.embeddings.embed_query(), "embedder" in self.embedder.embed_query(); None for a bare name."""
    if not isinstance(func, ast.Attribute):
        return None
    value = func.value
    return value.id if isinstance(value, ast.Name) else value.attr if isinstance(value, ast.Attribute) else ""


def bypasses(source: str) -> dict[str, list[str]]:
    """Each kind of process-wide dependency ``source`` reaches for directly, with the lines."""
    found: dict[str, list[str]] = {}
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
        for kind, names in BYPASSES.items():
            if name not in names:
                continue
            owner = _called_on(func)
            if kind == "clock" and owner not in CLOCK_OWNERS:
                continue
            if kind == "embedder" and owner not in (None, "embeddings"):  # deps.embed_query is the way in
                continue
            found.setdefault(kind, []).append(f"{name}() line {node.lineno}")
    return found


def _offenders(kind: str) -> dict[str, list[str]]:
    offenders = {}
    for path in _product_files():
        name = path.relative_to(ROOT).as_posix()
        if name in BUILDERS or name.startswith(OWNERS.get(kind, ("//",))):
            continue
        if calls := bypasses(path.read_text(encoding="utf-8")).get(kind):
            offenders[name] = calls
    return offenders


@pytest.mark.parametrize("kind", sorted(BYPASSES))
def test_only_the_builders_reach_for_the_process_wide_dependencies(kind):
    offenders = {name: calls for name, calls in _offenders(kind).items() if name not in NOT_YET_ON_APPDEPS[kind]}
    assert offenders == {}, f"take deps: AppDeps instead of reaching for the process's {kind}: {offenders}"


@pytest.mark.parametrize("kind", sorted(BYPASSES))
def test_the_not_yet_lists_only_shrink(kind):
    done = sorted(set(NOT_YET_ON_APPDEPS[kind]) - set(_offenders(kind)))
    assert done == [], f"these no longer reach for the {kind}: take them off NOT_YET_ON_APPDEPS: {done}"


PLANTED = {  # one bypass of each kind, as a new service might write it
    "pool": "from storage.db import app_pool\ndef f():\n    with app_pool().connection() as conn:\n        pass\n",
    "model": "from agents.llm import get_llm\ndef f():\n    return get_llm().engine\n",
    "embedder": "from agents.ingestion import embeddings\ndef f(q):\n    return embeddings.embed_query(q)\n",
    "clock": "from datetime import datetime, timezone\ndef f():\n    return datetime.now(timezone.utc)\n",
}


@pytest.mark.parametrize("kind", sorted(PLANTED))
def test_a_planted_bypass_of_each_kind_is_caught(kind):
    assert set(bypasses(PLANTED[kind])) == {kind}
    assert bypasses("def f(deps):\n    return deps.now(), deps.embed_query('q'), deps.pool, deps.llm\n") == {}
    # an embedder handed down is called on its holder; the module called by its full path is still the process's
    assert bypasses("def f(self, q):\n    return self.embedder.embed_query(q)\n") == {}
    assert set(bypasses("import agents.ingestion.embeddings\nagents.ingestion.embeddings.embed_query('q')\n")) == {
        "embedder"
    }


def test_process_deps_are_built_once_and_follow_a_reset(db_url):
    from agents.runtime.deps import process_deps
    from storage import db

    first = process_deps()
    assert process_deps() is first and first.pool is db.app_pool()
    db.reset_pools()
    again = process_deps()
    assert again is not first and again.pool is db.app_pool() and again.is_current() and not first.is_current()
