"""Replay the tutor's answer decision on recorded retrieval: python tests/bench/answer_replay.py record|replay FILE

`record` runs the answer eval's train split (agents.tutor.answer_eval.evaluate, the CLI's figures) and keeps, for
every question the documents were searched for, the passages the answer check was given (the retrieval of the
turn, which no change of the sentence choice moves); FILE (a pickle) holds them with the CLI's results.
`replay` decides each recorded question again with the code as it is now (answer_check.answers_question,
unwritten.about_the_unwritten, answers.grounded, then the citations as post_process numbers and pins them) and
prints the eval's figures per slice (older questions = the documents' wording, s16-s21 = an employee's) beside
the recording's, and with --changed the questions whose answer changed. Replayed on the recording's own code
it gives the CLI's figures question for question (checked before trusting it); the lines the tutor adds for the
learner after an answer (a lesson to reread, reviews due) are not replayed, so many answers differ in words only.
"""

from __future__ import annotations

import argparse
import dataclasses
import pickle
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from agents.offline import extractive  # noqa: E402
from agents.retrieval.passages import Passage  # noqa: E402
from agents.runtime.deps import process_deps  # noqa: E402
from agents.tutor import answer_eval, key_terms, latent_terms, retrieve  # noqa: E402
from agents.tutor.answer_check import answers_question  # noqa: E402
from agents.tutor.answers import grounded  # noqa: E402
from agents.tutor.citations import pinpoint, renumbered, validate  # noqa: E402
from agents.tutor.unwritten import about_the_unwritten  # noqa: E402
from storage import documents, users  # noqa: E402
from storage.db import reading  # noqa: E402

QUESTIONS = ROOT / "seeds/eval/answers/questions.jsonl"
SLICES = ("older", "s16", "s17", "s18", "s19", "s20", "s21")


def slice_of(item: dict) -> str:
    return next((name for name in SLICES[1:] if item["pair"].startswith(f"{name}-")), "older")


def _users(deps) -> dict:
    with deps.pool.connection() as conn:
        return {
            "es": users.get_user_by_email(conn, "lucia@acme.test"),
            "en": users.get_user_by_email(conn, "james@acme.test"),
        }


def record(path: Path, split: str) -> None:
    deps, seen = process_deps(), {}
    checked = retrieve.answers_question

    def recording(message: str, passages: tuple[Passage, ...], embedder, organisation: str = "") -> bool:
        seen[message] = passages
        return checked(message, passages, embedder, organisation)

    retrieve.answers_question = recording  # the turn runs as it is; its passages are kept on the way
    items = answer_eval.load(QUESTIONS, split)
    report = answer_eval.evaluate(deps, _users(deps), items)
    path.write_bytes(pickle.dumps({"report": report, "passages": seen}))
    print(answer_eval.table(report))


def _decide(deps, org_id, org_name: str, item: dict, passages: tuple[Passage, ...], answering: set[str]) -> dict:
    """The tutor's outcome for ``item`` from its recorded passages, as the turn computes it."""
    question, language = item["question"], item["lang"]
    answered = answers_question(question, passages, deps, org_name) and not about_the_unwritten(
        deps.pool, org_id, question
    )
    if not answered:
        outcome = {"answer": "", "rung": "general", "abstained": True, "first_chunk": None, "first_document": None}
        return answer_eval._score(item, outcome, answering)
    draft = grounded(question, list(passages), "chunks", org_name, language, embedder=deps)
    order: list[int] = []
    response, _, _ = validate(draft, {p.index for p in passages}, order)
    shown = renumbered({p.index: p for p in passages}, order)
    with reading(deps.pool) as conn:
        cited = pinpoint(conn, org_id, response, [shown[n] for n in range(1, len(order) + 1)])
    first = cited[0] if cited else None
    outcome = {
        "answer": response,
        "rung": "chunks",
        "abstained": not cited,
        "first_chunk": first and first.source_id,
        "first_document": first and first.document,
    }
    return answer_eval._score(item, outcome, answering)


def _kept_vectors(deps, path: Path):
    """The vectors and latent terms of earlier replays (a replay is then ~1 minute, not 5): loaded into the
    processes' own caches, and the embedder's query vectors kept by text."""
    kept = pickle.loads(path.read_bytes()) if path.exists() else {}
    caches = {
        "sentences": extractive._vector_caches.setdefault(deps.embed_passages, {}),
        "words": key_terms._word_vectors.setdefault(deps.embed_queries, {}),
        "latent": latent_terms._kept,
        "queries": kept.get("queries", {}),
    }
    for name, cache in caches.items():
        cache.update(kept.get(name, {}))
    queries, embed = caches["queries"], deps.embed_query

    def embed_query(text: str):
        if text not in queries:
            queries[text] = embed(text)
        return queries[text]

    def save() -> None:
        path.write_bytes(pickle.dumps(caches))

    return dataclasses.replace(deps, embed_query=embed_query), save


def replay(path: Path, changed: bool) -> None:
    recorded = pickle.loads(path.read_bytes())
    deps, save = _kept_vectors(process_deps(), path.with_suffix(".vectors"))
    lucia = _users(deps)["es"]
    org_id = lucia.org_id
    items = {item["id"]: item for item in answer_eval.load(QUESTIONS)}
    with deps.pool.connection() as conn:
        titles = {d.title: d.id for d in documents.list_documents(conn, org_id)}
        _, org_name = users.get_user_and_org_name(conn, org_id, lucia.id) or (lucia, "")
        answering = {
            key: answer_eval._answering_chunks(conn, org_id, titles, item)
            for key, item in items.items()
            if item["document"]
        }
    before, after, same_text = [], [], 0
    for row in recorded["report"]["items"]:
        passages = recorded["passages"].get(row["question"])
        new = dict(row)
        if passages:
            new["tutor"] = _decide(deps, org_id, org_name, items[row["id"]], passages, answering.get(row["id"], set()))
        same_text += new["tutor"]["answer"] == row["tutor"]["answer"]
        before.append(row)
        after.append(new)
        if changed and _key(row["tutor"]) != _key(new["tutor"]):
            print(f"--- {row['id']} [{slice_of(row)}] {row['question']}")
            print(f"  before {_key(row['tutor'])}: {row['tutor']['answer'][:600]!r}")
            print(f"  after  {_key(new['tutor'])}: {new['tutor']['answer'][:600]!r}")
    save()
    print(f"answers the same word for word: {same_text} of {len(before)}")
    print(f"{'slice':6} {'n':>4} {'facts':>13} {'abstention':>13} {'false':>13} {'first cite':>13}  anchor facts")
    for name in SLICES:
        one = [row for row in before if slice_of(row) == name]
        two = [row for row in after if slice_of(row) == name]
        if one:
            print(f"{name:6} {len(one):4d} " + " ".join(_cells(one, two)))


def _key(outcome: dict) -> tuple:
    return (outcome["holds"], outcome["abstained"], outcome["first_ok"])


def _counts(rows: list[dict], engine: str = "tutor") -> list[str]:
    answerable = [row[engine] for row in rows if row["document"]]
    unanswerable = [row[engine] for row in rows if not row["document"]]
    answered = [r for r in answerable if not r["abstained"]]
    return [
        f"{sum(r['holds'] for r in answerable)}/{len(answerable)}",
        f"{sum(r['abstained'] for r in answerable)}/{len(answerable)}",
        f"{sum(not r['abstained'] for r in unanswerable)}/{len(unanswerable)}",
        f"{sum(r['first_ok'] for r in answered)}/{len(answered)}",
    ]


def _cells(before: list[dict], after: list[dict]) -> list[str]:
    old, new = _counts(before), _counts(after)
    return [f"{a}->{b}".rjust(13) if a != b else a.rjust(13) for a, b in zip(old, new)] + [
        _counts(before, "anchor")[0].rjust(9)
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=("record", "replay"))
    parser.add_argument("file", type=Path)
    parser.add_argument("--split", default="train", choices=("train", "heldout"))
    parser.add_argument("--changed", action="store_true", help="print the questions whose answer changed")
    args = parser.parse_args()
    if args.command == "record":
        record(args.file, args.split)
    else:
        replay(args.file, args.changed)


if __name__ == "__main__":
    main()
