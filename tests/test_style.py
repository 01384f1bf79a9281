"""Style (CONVENTIONS §7): the tree is formatted by ruff and passes its lint rules (configured in pyproject.toml)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _ruff(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ruff", *args], cwd=ROOT, capture_output=True, text=True)


def test_the_tree_is_formatted():
    result = _ruff("format", "--check", ".")
    assert result.returncode == 0, f"run `python -m ruff format .`:\n{result.stdout}{result.stderr}"


def test_the_lint_rules_pass():
    result = _ruff("check", "--output-format", "concise", ".")
    assert result.returncode == 0, f"run `python -m ruff check .`:\n{result.stdout}{result.stderr}"
