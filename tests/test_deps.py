"""One dependency object: only agents/deps.py (and the entry points named below) reach for the
process-wide pool, checkpointer or model; services get them passed in as ``deps`` (CONVENTIONS §5)."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PRODUCT = ["app.py", "agents", "pages", "ui", "storage", "seeds"]
GLOBALS = {"app_pool", "checkpointer", "get_llm"}
# where they are defined, or built into AppDeps; storage's CLI cannot see agents, the model check opens no database
BUILDERS = {"agents/deps.py", "storage/db.py", "storage/__main__.py", "agents/llm/__main__.py"}
# shrinks to empty: each file moved onto AppDeps leaves this list (a listed file with no call fails)
NOT_YET_ON_APPDEPS: set[str] = set()


def _product_files() -> list[Path]:
    files: list[Path] = []
    for entry in PRODUCT:
        path = ROOT / entry
        files.extend([path] if path.is_file() else sorted(path.rglob("*.py")))
    return files


def _reaches_for_globals(path: Path) -> list[str]:
    calls = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
            if name in GLOBALS:
                calls.append(f"{name}() line {node.lineno}")
    return calls


def test_only_the_builders_reach_for_the_process_pool_and_model():
    offenders = {}
    for path in _product_files():
        name = path.relative_to(ROOT).as_posix()
        if name not in BUILDERS and name not in NOT_YET_ON_APPDEPS and (calls := _reaches_for_globals(path)):
            offenders[name] = calls
    assert offenders == {}, f"take deps: AppDeps instead of calling the process-wide globals: {offenders}"


def test_the_not_yet_list_only_shrinks():
    done = sorted(name for name in NOT_YET_ON_APPDEPS if not _reaches_for_globals(ROOT / name))
    assert done == [], f"these no longer reach for globals: take them off NOT_YET_ON_APPDEPS: {done}"


def test_process_deps_are_built_once_and_follow_a_reset(db_url):
    from agents.deps import process_deps
    from storage import db

    first = process_deps()
    assert process_deps() is first and first.pool is db.app_pool()
    db.reset_pools()
    again = process_deps()
    assert again is not first and again.pool is db.app_pool() and again.is_current() and not first.is_current()
