"""The retrieval QA notebook (docs/retrieval_qa.ipynb) runs on a real Jupyter kernel against the demo
organisation and shows one row per question; the Python API beneath it answers as the CLIs do."""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from agents.tutor import notebook as qa
from tests.conftest import make_deps

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = ROOT / "docs" / "retrieval_qa.ipynb"
QUESTIONS = 4  # a handful: the kernel, the imports and the model load are most of the time


def _tagged(notebook, tag: str):
    return next(cell for cell in notebook.cells if tag in cell.metadata.get("tags", []))


def _table_rows(cell) -> int:
    """Body rows of the DataFrame the cell displayed (its HTML table)."""
    shown = next(o for o in cell.outputs if o.output_type == "execute_result")
    body = shown.data["text/html"].split("<tbody>", 1)[1]
    return len(re.findall(r"<tr>", body))


@pytest.mark.slow
def test_notebook_runs_on_a_kernel_and_shows_every_question(seeded_db_url):
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    _tagged(notebook, "parameters").source += f"\nLIMIT = {QUESTIONS}"
    # the kernel inherits this process's environment: DATABASE_URL is the module's demo database
    NotebookClient(
        notebook, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(ROOT / "docs")}}
    ).execute()

    errors = [o for cell in notebook.cells for o in cell.get("outputs", []) if o.output_type == "error"]
    assert errors == []
    assert _table_rows(_tagged(notebook, "retrieval-per-question")) == QUESTIONS
    assert _table_rows(_tagged(notebook, "answers-per-question")) == 2 * QUESTIONS  # the tutor and the anchor
    asked = _tagged(notebook, "ask").outputs[0].data["text/plain"]
    assert "No encontré nada" in asked and "Returns and Refunds Policy" in asked


def test_api_frames_match_the_eval_files(seeded_pool):
    deps = make_deps(seeded_pool)
    hits = qa.search("¿Cuántos días tengo para devolver un producto?", k=3, deps=deps)
    assert list(hits["rank"]) == [1, 2, 3] and hits["text"].str.len().min() > 0

    retrieval = qa.retrieval_eval(ROOT / "seeds/eval/retrieval.jsonl", limit=5, deps=deps)
    assert len(retrieval) == 5 and retrieval.attrs["report"]["n"] == 5
    assert retrieval["hit_at_k"].mean() == retrieval.attrs["report"]["recall_at_k"]

    asked = qa.ask("How long is a gift receipt valid?", user="james@acme.test", deps=deps)
    assert asked.loc[0, "engine"] == "offline" and asked.loc[0, "rung"] == "chunks"
    assert "90 days" in asked.loc[0, "answer"] and asked.loc[0, "first_cited"] == "Returns and Refunds Policy"
    with pytest.raises(ValueError, match="no user"):
        qa.ask("hola", user="nobody@acme.test", deps=deps)
