"""Where the answer eval's answerable questions are lost: python tests/bench/answer_losses.py EVAL.json

EVAL.json is `python -m agents.tutor answers seeds/eval/answers/questions.jsonl --split train --json` run against
the same organisation (SKILLNET_DATA_DIR or DATABASE_URL, the nine documents ingested). For each answerable train
question (held-out ones are skipped: their answers are not for tuning) it finds the answering chunk (the
labelled document's chunk holding every fact, as the eval does) and
- its rank in the tutor's search (agents.retrieval.grounding.search_both_languages): the question as asked and as
  glossed, k 20, the two lists taken in turns, no relevance floor; and in the question's own list alone (what
  the eval's anchor searches);
- whether a passage the answer check is given (ground(): k 5, the floors, neighbours, the context budget) holds
  every fact.
It prints recall@1/3/5/8/20 and the share "in the passages" per slice (language, document set, the "-said"
rewordings, the answering document in the question's language or the other), then the failure split joined with
the eval's answers: facts held, retrieval miss (not in the top 20 / ranked but not in the passages), the check
abstaining with the fact in a passage, the wrong sentence chosen. Session 16's table is in
seeds/eval/answers/TUNING.md (recall5).
"""

from __future__ import annotations

import argparse
import json
import sys
from itertools import zip_longest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from agents.retrieval.grounding import glossed_query, ground  # noqa: E402
from agents.retrieval.passages import trim_passages  # noqa: E402
from agents.retrieval.search import search_each  # noqa: E402
from agents.runtime.deps import process_deps  # noqa: E402
from agents.tutor.answer_eval import _answering_chunks, held, load  # noqa: E402
from storage import documents, users  # noqa: E402

QUESTIONS = ROOT / "seeds/eval/answers/questions.jsonl"
DEEP = 20
CONTEXT_TOKENS = 3000  # the offline tutor's retrieved-context budget (agents/llm/memory.py)
LOSSES = ("facts held", "not in top 20", "ranked, not in passages", "check abstained", "wrong sentence")


def _rank(hits: list, answering: set[str]) -> int | None:
    return next((n for n, hit in enumerate(hits, 1) if str(hit.chunk_id) in answering), None)


def _in_turns(lists: list[list], k: int = DEEP) -> list:
    """The lists' hits taken in turns, each chunk once, the first ``k`` (search_both_languages without its floors)."""
    taken: list = []
    for hit in (hit for turn in zip_longest(*lists) for hit in turn if hit is not None):
        if all(kept.chunk_id != hit.chunk_id for kept in taken):
            taken.append(hit)
    return taken[:k]


def measure(deps, asker_email: str) -> list[dict]:
    """Each answerable train question's ranks and whether the tutor's passages hold its facts."""
    items = [item for item in load(QUESTIONS, "train") if item["document"]]
    with deps.pool.connection() as conn:
        org_id = users.get_user_by_email(conn, asker_email).org_id
        by_title = {d.title: d for d in documents.list_documents(conn, org_id)}
        titles = {title: d.id for title, d in by_title.items()}
        answering = {item["id"]: _answering_chunks(conn, org_id, titles, item) for item in items}
    rows = []
    for item in items:
        question, chunks = item["question"], answering[item["id"]]
        own, glossed = search_each(org_id, [question, glossed_query(question)], k=DEEP, pool=deps.pool, embedder=deps)
        grounding = ground(deps.pool, org_id, None, question, llm=deps.llm, embedder=deps)
        passages = trim_passages(grounding.passages, CONTEXT_TOKENS)
        rows.append(
            {
                "id": item["id"],
                "lang": item["lang"],
                "set": item["set"],
                "said": item["pair"].endswith("-said"),
                "cross": by_title[item["document"]].language != item["lang"],
                "own": _rank(own, chunks),
                "tutor": _rank(_in_turns([own, glossed]), chunks),
                "in_passages": any(all(held(p.text, item["facts"])) for p in passages),
            }
        )
    return rows


def _slices(rows: list[dict]) -> dict[str, list[dict]]:
    return {
        "all": rows,
        "es": [r for r in rows if r["lang"] == "es"],
        "en": [r for r in rows if r["lang"] == "en"],
        "demo": [r for r in rows if r["set"] == "demo"],
        "public": [r for r in rows if r["set"] == "public"],
        "-said": [r for r in rows if r["said"]],
        "rest": [r for r in rows if not r["said"]],
        "same language": [r for r in rows if not r["cross"]],
        "cross-language": [r for r in rows if r["cross"]],
    }


def _loss(row: dict, answer: dict) -> str:
    if answer["holds"]:
        return "facts held"
    if not row["in_passages"]:
        return "not in top 20" if row["tutor"] is None else "ranked, not in passages"
    return "check abstained" if answer["abstained"] else "wrong sentence"


def report(rows: list[dict], answers: dict[str, dict]) -> str:
    def share(subset: list[dict], key: str, k: int) -> str:
        return f"{sum(1 for r in subset if r[key] is not None and r[key] <= k) / len(subset):.2f}"

    lines = [
        f"{'slice':15} {'n':>4}  own R@5  tutor R@1   @3   @5   @8  @20  passages  | "
        + " | ".join(f"{loss:>23}" for loss in LOSSES)
    ]
    for name, subset in _slices(rows).items():
        if not subset:
            continue
        recall = "  ".join(share(subset, "tutor", k) for k in (1, 3, 5, 8, DEEP))
        passages = sum(r["in_passages"] for r in subset) / len(subset)
        losses = [sum(_loss(r, answers[r["id"]]) == loss for r in subset) for loss in LOSSES]
        lines.append(
            f"{name:15} {len(subset):4d}  {share(subset, 'own', 5):>7}  {recall}  {passages:8.2f}  | "
            + " | ".join(f"{count:23d}" for count in losses)
        )
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("eval_json", help="the output of `python -m agents.tutor answers ... --split train --json`")
    parser.add_argument("--user", default="lucia@acme.test", help="a user of the organisation the eval ran on")
    parser.add_argument("--out", help="write each question's ranks here (JSON)")
    args = parser.parse_args()
    answers = {
        item["id"]: item["tutor"]
        for item in json.loads(Path(args.eval_json).read_text(encoding="utf-8"))["items"]
        if item["split"] == "train"
    }
    rows = [row for row in measure(process_deps(), args.user) if row["id"] in answers]
    if args.out:
        Path(args.out).write_text(json.dumps(rows, ensure_ascii=False), encoding="utf-8")
    print(report(rows, answers))
    return 0


if __name__ == "__main__":
    sys.exit(main())
