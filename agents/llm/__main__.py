"""python -m agents.llm check [--json]: probe the configured model server's capabilities."""

from __future__ import annotations

import json
import sys

from agents.llm.client import get_llm
from core.inputs import OneLineParser


def main(argv: list[str] | None = None) -> int:
    parser = OneLineParser(prog="python -m agents.llm", description="The model server seam.")
    commands = parser.add_subparsers(dest="command", required=True)
    check = commands.add_parser("check", help="probe streaming, usage, JSON mode, tool calling, speed")
    check.add_argument("--json", action="store_true", help="print the probe as one JSON object")
    args = parser.parse_args(argv)

    llm = get_llm()
    caps = llm.capabilities()
    report = caps.as_dict()
    if args.json:
        print(json.dumps(report, ensure_ascii=False))
    else:
        for key, value in report.items():
            print(f"{key:18} {value}")
    if llm.offline:
        print(
            "no model configured (OPENAI_BASE_URL / OPENAI_API_KEY unset): the offline engine answers", file=sys.stderr
        )
        return 0
    if not caps.reachable:
        print(
            f"error: model server not reachable at {llm.settings.base_url}: "
            f"{next(iter(caps.errors.values()), 'no answer')}",
            file=sys.stderr,
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
