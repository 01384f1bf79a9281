"""python -m agents.admin ask "MESSAGE" --user EMAIL [--session ID] [--confirm ID] [--cancel] [--json]

A write is only previewed; run it by asking again with ``--session`` and ``--confirm <pending id>``.
"""

from __future__ import annotations

import json
import sys

from agents.admin.service import AdminAccessError, AdminInputError, ask
from agents.runtime.cli import fail, signed_in
from agents.runtime.refusals import refusal
from core.inputs import OneLineParser, refused_arguments
from storage.db import DatabaseError


def _print_human(reply) -> None:
    print(reply.response)
    for call in reply.tool_calls:
        rows = len(call["result"].get("rows", []))
        print(f"  · {call['tool']}({json.dumps(call['arguments'], ensure_ascii=False)}) → {rows} rows")
    if reply.pending:
        print(
            f"\npending {reply.pending['id']}: confirm with --session {reply.session} --confirm {reply.pending['id']}"
        )
    print(f"\nsession {reply.session}")


def main(argv: list[str] | None = None) -> int:
    if (refused := refused_arguments(sys.argv[1:] if argv is None else argv)) is not None:
        print(f"error: {refusal(refused, None)}", file=sys.stderr)  # one line; nothing has run yet
        return 2
    parser = OneLineParser(prog="python -m agents.admin", description="The HR admin assistant.")
    commands = parser.add_subparsers(dest="command", required=True)
    ask_cmd = commands.add_parser("ask", help="send a message (or a confirm) to the assistant")
    ask_cmd.add_argument("message", nargs="?", default="")
    ask_cmd.add_argument("--user", required=True, help="the admin's email")
    ask_cmd.add_argument("--session", help="continue this session")
    decision = ask_cmd.add_mutually_exclusive_group()  # both at once: refused, nothing runs
    decision.add_argument("--confirm", metavar="ID", help="confirm the pending action with this id")
    decision.add_argument("--cancel", action="store_true", help="cancel the pending action")
    ask_cmd.add_argument("--json", action="store_true", help="print the reply as JSON")
    args = parser.parse_args(argv)
    if (signed := signed_in(args.user)) is None:
        return 2
    deps, user = signed
    try:
        reply = ask(deps, user, args.message, session_id=args.session, confirm=args.confirm, cancel=args.cancel)
    except (AdminAccessError, AdminInputError, DatabaseError) as exc:
        return fail(exc)
    if args.json:
        print(json.dumps(reply.as_json(), ensure_ascii=False, default=str))
    else:
        _print_human(reply)
    return 0


if __name__ == "__main__":
    sys.exit(main())
