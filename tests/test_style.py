"""Style (CONVENTIONS §7): the tree is formatted by ruff, passes its lint rules and the type checker (all three
configured in pyproject.toml)."""

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
