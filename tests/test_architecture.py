"""The layers of CONVENTIONS §2 hold: import-linter's contracts (pyproject.toml) for the packages,
and the same rules for the Streamlit pages and chat.py, which are scripts rather than packages."""

from __future__ import annotations

import ast
import graphlib
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FORBIDDEN_IN_PAGES = ("psycopg", "psycopg_pool", "langgraph", "langchain_openai", "openai")


def _imports(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def test_import_contracts_hold():
    command = shutil.which("lint-imports")
    if command is None:
        pytest.fail("import-linter is not installed (pip install -r requirements.txt)")
    result = subprocess.run(
        [command, "--no-cache"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        env={"PYTHONPATH": str(ROOT), "PATH": str(Path(sys.executable).parent)},
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]


@pytest.mark.parametrize(
    "script",
    sorted(p.relative_to(ROOT).as_posix() for p in [*ROOT.glob("pages/*.py"), ROOT / "chat.py", ROOT / "app.py"]),
)
def test_pages_use_services_only(script):
    bad = sorted(
        name for name in _imports(ROOT / script) if name.split(".")[0] in FORBIDDEN_IN_PAGES or ".prompts" in name
    )
    assert bad == [], f"{script} imports {bad}: call a service function instead"


def _type_checking_lines(path: Path) -> set[int]:
    """Lines of imports made only for the type checker (``if TYPE_CHECKING:``): no import at run time."""
    lines: set[int] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            lines.update(range(node.lineno, (node.end_lineno or node.lineno) + 1))
    return lines


def _run_time_import_graph() -> dict[str, set[str]]:
    grimp = pytest.importorskip("grimp")
    graph = grimp.build_graph("core", "storage", "agents", "ui", "seeds")
    edges: dict[str, set[str]] = {}
    for module in graph.modules:
        source = ROOT / (module.replace(".", "/") + ".py")
        source = source if source.exists() else ROOT / module.replace(".", "/") / "__init__.py"
        typing_only = _type_checking_lines(source)
        edges[module] = {
            imported
            for imported in graph.find_modules_directly_imported_by(module)
            if any(
                detail["line_number"] not in typing_only
                for detail in graph.get_import_details(importer=module, imported=imported)
            )
        }
    return edges


def test_no_import_cycles_among_the_products_modules():
    """Imports inside functions count too (grimp sees them): a cycle hidden there is still a cycle."""
    try:
        graphlib.TopologicalSorter(_run_time_import_graph()).prepare()
    except graphlib.CycleError as error:
        pytest.fail(f"import cycle: {' -> '.join(error.args[1])}")
