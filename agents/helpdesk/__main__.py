"""python -m agents.helpdesk eval [--show-trace] [--json]
python -m agents.helpdesk admin list [--org SLUG] [--user EMAIL | --user-id-hash H] [--json]
python -m agents.helpdesk admin show|abort --session-id ID [--org SLUG]
python -m agents.helpdesk admin gc | sweep"""
from __future__ import annotations

import argparse
import json
import sys


def _eval(args) -> int:
    from agents.helpdesk.eval import run_all

    report = run_all()
    if args.json:
        print(json.dumps({k: report[k] for k in ("scenarios", "passed", "failed", "failures")}, ensure_ascii=False,
                         default=str))
    else:
        for result in report["results"]:
            mark = "PASS" if result["passed"] else "FAIL"
            print(f"{mark} {result['id']}: {result['kind']} via {' → '.join(result['actions']) or '-'} "
                  f"({result['ms']:.0f} ms)")
            for failure in result["failures"]:
                print(f"     {failure}")
            if args.show_trace and (not result["passed"] or args.show_trace == "all"):
                for step in result["trace"]:
                    print(f"     · {json.dumps(step, ensure_ascii=False)}")
        print(f"{report['passed']}/{report['scenarios']} scenarios passed")
    return 0 if report["failed"] == 0 else 1


def _admin(args) -> int:
    from agents.helpdesk import admin, service
    from storage import users
    from storage.db import DatabaseError, app_pool

    try:
        if args.action == "gc":
            result = service.gc()
            print(json.dumps(result) if args.json else f"deleted {result['checkpoints_deleted']} checkpoints, "
                  f"aborted {result['sessions_aborted']} expired sessions")
            return 0
        if args.action == "sweep":
            count = service.sweep_orphans()
            print(json.dumps({"aborted": count}) if args.json else f"aborted {count} orphaned sessions")
            return 0
        with app_pool().connection() as conn:
            org = users.get_org_by_slug(conn, args.org)
            user = users.get_user_by_email(conn, args.user) if args.user else None
    except DatabaseError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if org is None:
        print(f"error: no organisation with slug {args.org}", file=sys.stderr)
        return 2
    if args.user and user is None:
        print(f"error: no user with email {args.user}", file=sys.stderr)
        return 2
    if args.action == "list":
        rows = admin.list_sessions(org.id, user_id=user.id if user else None, user_id_hash=args.user_id_hash)
        if args.json:
            print(json.dumps(rows, ensure_ascii=False))
        for row in ([] if args.json else rows):
            print(f"{row['session_id']}  {row['status']:<16} {row['outcome'] or '-':<18} {row['kind'] or '-':<12} "
                  f"turns={row['turns']} user={row['user_id_hash']} {row['created_at'][:19]}")
        return 0
    if not args.session_id:
        print("error: --session-id is required", file=sys.stderr)
        return 2
    if args.action == "show":
        shown = admin.show_session(org.id, args.session_id)
        if shown is None:
            print("error: no such session", file=sys.stderr)
            return 1
        print(json.dumps(shown, ensure_ascii=False, indent=None if args.json else 2, default=str))
        return 0
    stopped = admin.abort_session(org.id, args.session_id)
    print(json.dumps({"aborted": stopped}) if args.json else ("aborted" if stopped else "nothing to abort"))
    return 0 if stopped else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m agents.helpdesk", description="Helpdesk agent tools.")
    commands = parser.add_subparsers(dest="command", required=True)
    run_eval = commands.add_parser("eval", help="run the YAML trajectory scenarios")
    run_eval.add_argument("--show-trace", nargs="?", const="failed", choices=["failed", "all"],
                          help="dump the supervisor decision log (failed scenarios, or all)")
    run_eval.add_argument("--json", action="store_true")
    ops = commands.add_parser("admin", help="operate sessions: list, show, abort, gc, sweep")
    ops.add_argument("action", choices=["list", "show", "abort", "gc", "sweep"])
    ops.add_argument("--org", default="acme", help="organisation slug (default: acme)")
    ops.add_argument("--user", help="only this user's sessions (email)")
    ops.add_argument("--user-id-hash", help="only sessions of the user with this hash prefix")
    ops.add_argument("--session-id")
    ops.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    return _eval(args) if args.command == "eval" else _admin(args)


if __name__ == "__main__":
    sys.exit(main())
