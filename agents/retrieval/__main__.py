"""python -m agents.retrieval search "QUERY" --org SLUG [--k N] [--strategy S] [--json]
python -m agents.retrieval eval FILE.jsonl --org SLUG [--k N] [--strategy S] [--split tune|heldout]
                                [--no-anchors] [--json]

eval reports the served strategy next to the exact in-memory anchors (dense cosine, BM25, RRF)
measured in the same run on the same chunks, per language pair.
"""

from __future__ import annotations

import argparse
import json
import sys

from agents.retrieval.anchors import ANCHORS
from agents.retrieval.eval import SPLITS, evaluate, load
from agents.retrieval.fusion import STRATEGIES
from agents.retrieval.search import RetrievalError, search
from agents.runtime.deps import process_deps
from agents.runtime.refusals import refusal
from core.inputs import OneLineParser, refused_arguments
from storage.db import DatabaseError

REPORT_KEYS = ("n", "recall_at_1", "recall_at_k", "mrr", "p50_ms", "p95_ms")


def _parser() -> argparse.ArgumentParser:
    parser = OneLineParser(prog="python -m agents.retrieval", description="Search and evaluate SkillNet retrieval.")
    commands = parser.add_subparsers(dest="command", required=True)
    for name, target in (("search", "query"), ("eval", "file")):
        command = commands.add_parser(name)
        command.add_argument(target)
        command.add_argument("--org", required=True, help="organisation slug (or id)")
        command.add_argument("--k", type=int, default=5)
        command.add_argument("--strategy", default="hybrid", choices=[s for s in STRATEGIES if s != "course-tree"])
        command.add_argument("--json", action="store_true", help="print JSON")
        if name == "eval":
            command.add_argument("--split", choices=SPLITS, help="only the questions of this half")
            command.add_argument("--no-anchors", action="store_true", help="skip the in-memory anchors")
    return parser


def _print_search(hits, as_json: bool) -> None:
    if as_json:
        print(
            json.dumps(
                [
                    {
                        "chunk_id": str(h.chunk_id),
                        "document_id": str(h.document_id),
                        "document_title": h.document_title,
                        "heading": h.heading,
                        "page": h.page,
                        "position": h.position,
                        "score": h.score,
                        "scores": h.scores,
                        "content": h.content,
                    }
                    for h in hits
                ],
                ensure_ascii=False,
                indent=2,
            )
        )
        return
    if not hits:
        print("no results")
    for rank, hit in enumerate(hits, 1):
        page = f" p.{hit.page}" if hit.page else ""
        print(f"{rank}. [{hit.score:.3f}] {hit.document_title}{page} — {hit.heading}")
        print("   " + " ".join(hit.content.split())[:200])


def _print_eval(report: dict, as_json: bool) -> None:
    anchors = report.get("anchors", {})
    if as_json:
        print(
            json.dumps(
                {key: report[key] for key in REPORT_KEYS}
                | {
                    "k": report["k"],
                    "strategy": report["strategy"],
                    "by_pair": report["by_pair"],
                    "by_kind": report["by_kind"],
                    "anchors": anchors,
                    "misses": report["misses"],
                },
                ensure_ascii=False,
                indent=2,
            )
        )
        return
    print(
        f"{report['n']} questions, k={report['k']}, strategy={report['strategy']}: "
        f"recall@1 {report['recall_at_1']:.3f}  recall@{report['k']} {report['recall_at_k']:.3f}  "
        f"MRR {report['mrr']:.3f}  p50 {report['p50_ms']} ms  p95 {report['p95_ms']} ms"
    )
    names = [name for name in ANCHORS if name in anchors]
    print(f"  {'MRR':14} {report['strategy']:>8}" + "".join(f" {name:>8}" for name in names))
    rows = [("all", report, {name: anchors[name] for name in names})] + [
        (pair, figures, {name: anchors[name]["by_pair"][pair] for name in names})
        for pair, figures in report["by_pair"].items()
    ]
    for label, served, others in rows:
        print(
            f"  {label:8} n={served['n']:<4} {served['mrr']:8.3f}"
            + "".join(f" {others[name]['mrr']:8.3f}" for name in names)
        )
    for miss in report["misses"]:
        print(f"  miss: {miss['question']} (expected {', '.join(miss['expected'])}; got {', '.join(miss['got'])})")


def main(argv: list[str] | None = None) -> int:
    if (refused := refused_arguments(sys.argv[1:] if argv is None else argv)) is not None:
        print(f"error: {refusal(refused, None)}", file=sys.stderr)  # one line; nothing has run yet
        return 2
    args = _parser().parse_args(argv)
    try:
        deps = process_deps()
        if args.command == "search":
            _print_search(
                search(args.org, args.query, k=args.k, strategy=args.strategy, pool=deps.pool, embedder=deps), args.json
            )
        else:
            if args.k <= 0:
                raise RetrievalError(f"k must be positive, not {args.k}")
            _print_eval(
                evaluate(
                    args.org,
                    load(args.file, args.split),
                    k=args.k,
                    strategy=args.strategy,
                    anchors=not args.no_anchors,
                    pool=deps.pool,
                    embedder=deps,
                ),
                args.json,
            )
    except (RetrievalError, DatabaseError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
