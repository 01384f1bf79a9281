"""Style (CONVENTIONS §7): the tree is formatted by ruff, passes its lint rules and the type checker (all three
configured in pyproject.toml), and no product file is over 350 lines (§5)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _ruff(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ruff", *args], cwd=ROOT, capture_output=True, text=True)


def test_the_tree_is_formatted():
    result = _ruff("format", "--check", ".")
    assert result.returncode == 0, f"run `python -m ruff format .`:\n{result.stdout}{result.stderr}"


def test_the_lint_rules_pass():
    result = _ruff("check", "--output-format", "concise", ".")
    assert result.returncode == 0, f"run `python -m ruff check .`:\n{result.stdout}{result.stderr}"


@pytest.mark.slow  # a minute on a clean clone (no mypy cache yet)
def test_the_type_checker_passes():
    """mypy over the product's packages, app.py and chat.py, no module skipped; its strictness is in
    pyproject.toml."""
    result = subprocess.run([sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, f"run `python -m mypy`:\n{result.stdout[-4000:]}{result.stderr[-2000:]}"


# CONVENTIONS §5: one module, one purpose, no file over 350 lines (issue 27). Split a long file by meaning: a
# module per concern, named for what it holds.
MAX_LINES = 350
PRODUCT = ["app.py", "chat.py", "agents", "pages", "ui", "storage", "seeds", "core"]


def _line_counts(root: Path) -> dict[str, int]:
    paths = [
        p for entry in PRODUCT for p in ([root / entry] if entry.endswith(".py") else (root / entry).rglob("*.py"))
    ]
    return {
        p.relative_to(root).as_posix(): len(p.read_text(encoding="utf-8").splitlines()) for p in paths if p.exists()
    }


def _over_the_limit(root: Path) -> dict[str, int]:
    return {name: lines for name, lines in sorted(_line_counts(root).items()) if lines > MAX_LINES}


def test_no_product_file_is_over_350_lines():
    over = _over_the_limit(ROOT)
    assert over == {}, f"split these by concern (a module per purpose, named for what it holds): {over}"


def test_the_line_count_sees_a_long_file(tmp_path):
    (tmp_path / "agents" / "feature").mkdir(parents=True)
    (tmp_path / "agents" / "feature" / "long.py").write_text("x = 1\n" * (MAX_LINES + 1))
    (tmp_path / "agents" / "feature" / "short.py").write_text("x = 1\n" * MAX_LINES)
    (tmp_path / "chat.py").write_text("x = 1\n" * (MAX_LINES + 1))
    assert _over_the_limit(tmp_path) == {"agents/feature/long.py": MAX_LINES + 1, "chat.py": MAX_LINES + 1}
