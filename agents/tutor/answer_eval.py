"""The answer eval (issue 29): does the answer hold the facts asked, and does the tutor know when no
document answers? Measured beside a naive extractive anchor in the same run.

    python -m agents.tutor answers seeds/eval/answers/questions.jsonl [--split heldout] [--json]

Lines (seeds/eval/answers/README.md states the labelling rule): ``{"id", "pair", "lang", "question",
"document", "facts", "set", "split"}``; ``document`` is null and ``facts`` empty when no document of
the organisation answers. Figures, per engine (``tutor``, ``anchor``) and per slice (all, es, en, and
each document set):

- facts: answerable questions whose answer holds every fact (a regex, matched accent- and case-folded)
- abstention: answerable questions answered with no citation ("not found")
- false_grounding: unanswerable questions answered with a citation
- first_citation: of the answered answerable ones, the first citation on a chunk of the labelled
  document that holds the facts (the chunk of the answering sentence)
- parity: pairs (the same question in Spanish and English) whose answers hold the same facts and cite
  the same document first (unanswerable pairs: both abstain or both answer)

The anchor is the product's search (the tutor's k), then the three sentences of the retrieved passages
most similar to the question by embedding, in retrieval order; it never abstains.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np

from agents.offline import answer_candidates, sentence_vectors
from agents.retrieval.grounding import SEMANTIC_K
from agents.retrieval.passages import CITATION_MARKER
from agents.retrieval.search import search
from agents.tutor import service
from core.text import fold
from core.turns import Citations, Fallback, Grounding, Token
from storage import documents, sources

ANCHOR_SENTENCES = 3
RATE_LIMIT = 1_000_000  # the eval asks far more than a person may in a minute
_SPACE = re.compile(r"\s+")
ENGINES = ("tutor", "anchor")


def load(path: str | Path, split: str | None = None) -> list[dict]:
    rows = [json.loads(line) for line in Path(path).read_text(encoding="utf-8").splitlines() if line.strip()]
    return [row for row in rows if split is None or row["split"] == split]


def _plain(text: str) -> str:
    return _SPACE.sub(" ", fold(CITATION_MARKER.sub(" ", (text or "").replace("**", "")))).strip()


def held(text: str, facts: list[str]) -> list[bool]:
    """Which facts the text holds (each a regex, matched on the folded text)."""
    plain = _plain(text)
    return [bool(re.search(fold(fact), plain)) for fact in facts]


def ask_tutor(deps, user, question: str) -> dict:
    text, citations, rung = "", [], None
    for event in service.run_to_answer(deps, user, question, rate_limit=RATE_LIMIT):
        if isinstance(event, Token):
            text += event.text
        elif isinstance(event, Fallback):
            text = ""
        elif isinstance(event, Citations):
            citations = event.citations
        elif isinstance(event, Grounding):
            rung = event.rung
    first = citations[0] if citations else None
    return {
        "answer": text,
        "rung": rung,
        "abstained": not citations,
        "first_chunk": first and first.get("source_id"),
        "first_document": first and first.get("document"),
    }


def ask_anchor(deps, org_id, question: str) -> dict:
    hits = search(org_id, question, k=SEMANTIC_K, pool=deps.pool, embedder=deps)
    candidates = answer_candidates([(n, hit.content) for n, hit in enumerate(hits)])
    if not candidates:
        return {"answer": "", "rung": "general", "abstained": True, "first_chunk": None, "first_document": None}
    similarity = sentence_vectors([sentence for _, sentence in candidates], deps) @ deps.embed_query(question)
    best = [int(i) for i in np.argsort(-similarity)[:ANCHOR_SENTENCES]]
    top = hits[candidates[best[0]][0]]
    return {
        "answer": " ".join(candidates[i][1] for i in sorted(best)),
        "rung": "chunks",
        "abstained": False,
        "first_chunk": str(top.chunk_id),
        "first_document": top.document_title,
    }


def _answering_chunks(conn, org_id, titles: dict, item: dict) -> set[str]:
    document_id = titles.get(item["document"])
    if document_id is None:
        return set()
    return {
        str(c.id)
        for c in sources.document_chunks_by_document(conn, org_id, document_id)
        if all(held(c.content, item["facts"]))
    }


def _score(item: dict, outcome: dict, answering: set[str]) -> dict:
    facts = held(outcome["answer"], item["facts"]) if item["document"] else []
    return {
        **outcome,
        "facts": facts,
        "holds": bool(facts) and all(facts) and not outcome["abstained"],
        "first_ok": outcome["first_chunk"] in answering,
    }


def evaluate(deps, users_by_language: dict, items: list[dict], *, engines=ENGINES) -> dict:
    """Ask every question of each engine; the figures per slice and each item's results."""
    org_id = next(iter(users_by_language.values())).org_id
    with deps.pool.connection() as conn:
        titles = {d.title: d.id for d in documents.list_documents(conn, org_id)}
        answering = {item["id"]: _answering_chunks(conn, org_id, titles, item) for item in items if item["document"]}
    missing = sorted({item["document"] for item in items if item["document"] and item["document"] not in titles})
    if missing:
        raise ValueError(f"the organisation holds no document titled {missing[0]!r}")
    results = []
    for item in items:
        row = {key: item[key] for key in ("id", "pair", "lang", "question", "document", "set", "split")}
        for engine in engines:
            outcome = (
                ask_tutor(deps, users_by_language[item["lang"]], item["question"])
                if engine == "tutor"
                else ask_anchor(deps, org_id, item["question"])
            )
            row[engine] = _score(item, outcome, answering.get(item["id"], set()))
        results.append(row)
    return {"n": len(results), "figures": figures(results, engines), "items": results}


def _share(hits: list[bool]) -> float | None:
    return round(sum(hits) / len(hits), 3) if hits else None


def _parity(rows: list[dict], engine: str) -> float | None:
    pairs: dict[str, list[dict]] = {}
    for row in rows:
        pairs.setdefault(row["pair"], []).append(row)
    same = []
    for pair in pairs.values():
        if len(pair) != 2:
            continue
        one, other = (row[engine] for row in pair)
        if pair[0]["document"]:
            same.append(one["facts"] == other["facts"] and one["first_document"] == other["first_document"])
        else:
            same.append(one["abstained"] == other["abstained"])
    return _share(same)


def _slice(rows: list[dict], engine: str) -> dict:
    answerable = [row[engine] for row in rows if row["document"]]
    unanswerable = [row[engine] for row in rows if not row["document"]]
    answered = [r for r in answerable if not r["abstained"]]
    return {
        "n": len(rows),
        "facts": _share([r["holds"] for r in answerable]),
        "abstention": _share([r["abstained"] for r in answerable]),
        "false_grounding": _share([not r["abstained"] for r in unanswerable]),
        "first_citation": _share([r["first_ok"] for r in answered]),
        "parity": _parity(rows, engine),
    }


def figures(results: list[dict], engines=ENGINES) -> dict:
    slices = {"all": results}
    for lang in ("es", "en"):
        slices[lang] = [row for row in results if row["lang"] == lang]
    for name in sorted({row["set"] for row in results}):
        slices[name] = [row for row in results if row["set"] == name or not row["document"] and name == "none"]
    return {engine: {name: _slice(rows, engine) for name, rows in slices.items() if rows} for engine in engines}


def table(report: dict) -> str:
    """The figures as text: one line per engine and slice."""
    lines = [f"{'engine':7} {'slice':7} {'n':>4} {'facts':>6} {'abst':>6} {'false':>6} {'cite1':>6} {'parity':>6}"]
    for engine, slices in report["figures"].items():
        for name, f in slices.items():
            cells = [
                f"{f[key]:6.3f}" if f[key] is not None else f"{'-':>6}"
                for key in ("facts", "abstention", "false_grounding", "first_citation", "parity")
            ]
            lines.append(f"{engine:7} {name:7} {f['n']:4d} " + " ".join(cells))
    return "\n".join(lines)
