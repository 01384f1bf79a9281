"""python -m seeds [--reset] [--json]: load the demo organisation (idempotent).
python -m seeds --write-vectors: rewrite the shipped demo passage vectors (after editing a demo document)."""

from __future__ import annotations

import json
import sys

from agents.runtime.deps import process_deps
from agents.runtime.refusals import refusal
from core.inputs import OneLineParser, refused_arguments
from seeds.loader import load_demo, reset_demo, write_vectors


def main(argv: list[str] | None = None) -> int:
    if (refused := refused_arguments(sys.argv[1:] if argv is None else argv)) is not None:
        print(f"error: {refusal(refused, None)}", file=sys.stderr)  # one line; nothing has run yet
        return 2
    parser = OneLineParser(prog="python -m seeds", description="Load the demo organisation (Acme Retail).")
    parser.add_argument("--reset", action="store_true", help="delete the demo organisation first, then reload it")
    parser.add_argument(
        "--json",
        action="store_true",
        help="print {org, counts, users, sign_ins} as JSON: every sign-in with role, language and password",
    )
    parser.add_argument(
        "--write-vectors",
        action="store_true",
        help="rewrite seeds/vectors.npz (the demo's passage vectors) for the current model",
    )
    args = parser.parse_args(argv)
    if args.write_vectors:
        print(f"seeds/vectors.npz: {write_vectors()} passage vectors")
        return 0
    try:
        deps = process_deps()
        summary = reset_demo(deps.pool, embedder=deps) if args.reset else load_demo(deps.pool, embedder=deps)
    except Exception as exc:  # any failure: one line for a person, non-zero exit
        message = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        print(f"error: {message}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(summary, ensure_ascii=False))
        return 0
    counts = ", ".join(f"{table} {rows}" for table, rows in summary["counts"].items())
    print(f"Demo organisation '{summary['org']}' ready: {counts}")
    for person in summary["sign_ins"]:
        print(
            f"Sign in as {person['role']} ({person['language']}): {person['email']} / {person['password']}"
            f"  {person['name']}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
