"""python -m agents.helpdesk ask "TEXT" --user EMAIL [--session ID] [--reply TEXT] [--confirm] [--json]
python -m agents.helpdesk tickets [--mine] [--show N] --user EMAIL [--json]
python -m agents.helpdesk duplicates [--json]
python -m agents.helpdesk eval [--show-trace] [--json]
python -m agents.helpdesk admin list [--org SLUG] [--user EMAIL | --user-id-hash H] [--json]
python -m agents.helpdesk admin show|abort --session-id ID [--org SLUG]
python -m agents.helpdesk admin gc | sweep"""

from __future__ import annotations

import json
import sys

from agents.i18n import t
from agents.runtime.cli import deps_or_none, fail, signed_in
from agents.runtime.refusals import refusal
from core.inputs import OneLineParser, refused_arguments


def _eval(args) -> int:
    from agents.helpdesk.eval import run_all
    from agents.runtime.deps import process_model

    report = run_all(process_model())  # scripted scenarios and mock tools: no database to open
    if args.json:
        print(
            json.dumps(
                {k: report[k] for k in ("scenarios", "passed", "failed", "failures")}, ensure_ascii=False, default=str
            )
        )
    else:
        for result in report["results"]:
            mark = "PASS" if result["passed"] else "FAIL"
            print(
                f"{mark} {result['id']}: {result['kind']} via {' → '.join(result['actions']) or '-'} "
                f"({result['ms']:.0f} ms)"
            )
            for failure in result["failures"]:
                print(f"     {failure}")
            if args.show_trace and (not result["passed"] or args.show_trace == "all"):
                for step in result["trace"]:
                    print(f"     · {json.dumps(step, ensure_ascii=False)}")
        print(f"{report['passed']}/{report['scenarios']} scenarios passed")
    return 0 if report["failed"] == 0 else 1


def _admin(args) -> int:
    from agents.helpdesk import admin, upkeep
    from storage import users
    from storage.db import DatabaseError

    if (deps := deps_or_none()) is None:
        return 2
    try:
        if args.action == "gc":
            result = upkeep.gc(deps)
            print(
                json.dumps(result)
                if args.json
                else f"deleted {result['checkpoints_deleted']} checkpoints, "
                f"aborted {result['sessions_aborted']} expired sessions"
            )
            return 0
        if args.action == "sweep":
            count = upkeep.sweep_orphans(deps)
            print(json.dumps({"aborted": count}) if args.json else f"aborted {count} orphaned sessions")
            return 0
        with deps.pool.connection() as conn:
            org = users.get_org_by_slug(conn, args.org)
            user = users.get_user_by_email(conn, args.user) if args.user else None
    except DatabaseError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if org is None:
        print(f"error: no organisation with slug {args.org}", file=sys.stderr)
        return 2
    if args.user and user is None:
        return fail(t("common.no_user_with_email", None, email=args.user))
    if args.action == "list":
        rows = admin.list_sessions(deps, org.id, user_id=user.id if user else None, user_id_hash=args.user_id_hash)
        if args.json:
            print(json.dumps(rows, ensure_ascii=False))
        for row in [] if args.json else rows:
            print(
                f"{row['session_id']}  {row['status']:<16} {row['outcome'] or '-':<18} {row['kind'] or '-':<12} "
                f"turns={row['turns']} user={row['user_id_hash']} {row['created_at'][:19]}"
            )
        return 0
    if not args.session_id:
        print("error: --session-id is required", file=sys.stderr)
        return 2
    if args.action == "show":
        shown = admin.show_session(deps, org.id, args.session_id)
        if shown is None:
            print("error: no such session", file=sys.stderr)
            return 2
        print(json.dumps(shown, ensure_ascii=False, indent=None if args.json else 2, default=str))
        return 0
    stopped = admin.abort_session(deps, org.id, args.session_id)
    print(json.dumps({"aborted": stopped}) if args.json else ("aborted" if stopped else "nothing to abort"))
    return 0 if stopped else 1


def _print(data, as_json: bool, text: str) -> None:
    print(json.dumps(data, ensure_ascii=False, default=str) if as_json else text)


def _duplicates(args) -> int:
    from agents.helpdesk.duplicates import evaluate
    from agents.runtime.deps import process_embedder

    report = evaluate(process_embedder())
    lines = [
        (
            f"{report['pairs']} report pairs ({report['same']} same problem, {report['different']} different; "
            f"{report['cross_language_pairs']} across languages, {report['multi_sentence_pairs']} multi-sentence)"
        )
    ]
    for name in ("centred", "raw_cosine", "baseline_before"):
        figures = report[name]
        held, every, long = figures["held_out"], figures["all"], figures["multi_sentence"]
        corpus = figures.get("corpus")
        lines.append(
            f"{name:<16} held-out P {held['precision']:.3f} R {held['recall']:.3f} · all pairs "
            f"P {every['precision']:.3f} R {every['recall']:.3f} · multi-sentence "
            f"P {long['precision']:.3f} R {long['recall']:.3f}"
            + (f" · corpus P {corpus['precision']:.3f} R {corpus['recall']:.3f}" if corpus else "")
            + f" · thresholds {figures['served_thresholds']}"
        )
    _print(report, args.json, "\n".join(lines))
    return 0


_ACTIONS = {"link", "not_same", "solved", "not_solved", "abort"}


def _ask(args) -> int:
    from agents.helpdesk import service

    if (found := signed_in(args.user)) is None:
        return 2
    deps, user = found
    try:
        if not args.session:
            turn = service.start(deps, user, args.text, trigger="cli")
        elif args.confirm:
            turn = service.confirm(
                deps, user, args.session, question_id=service.get_turn(deps, user, args.session).question_id
            )
        else:
            answer = (args.reply if args.reply is not None else args.text).strip()
            current = service.get_turn(deps, user, args.session)
            action = answer if answer in _ACTIONS else "reply"
            turn = service.resume(deps, user, args.session, question_id=current.question_id, action=action, text=answer)
    except service.HelpdeskError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    choices = f"\n  choices: {', '.join(turn.choices)}" if turn.choices else ""
    _print(turn.to_dict(), args.json, f"[{turn.kind}] {turn.message}{choices}\n  session: {turn.session_id}")
    return 0


def _tickets(args) -> int:
    from agents.helpdesk import following
    from agents.helpdesk.turns import HelpdeskError

    if (found := signed_in(args.user)) is None:
        return 2
    deps, user = found
    try:
        data: dict | list[dict]
        if args.show is not None:
            data = following.ticket_for(deps, user, args.show)
        else:
            data = following.my_tickets(deps, user) if args.mine else following.visible_tickets(deps, user)
    except HelpdeskError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    rows = [data] if isinstance(data, dict) else data
    text = "\n".join(
        f"#{r['number']} [{r['status']}] {r['title']}" + (f" · {r['affected']} affected" if "affected" in r else "")
        for r in rows
    )
    _print(data, args.json, text or "no tickets")
    return 0


def main(argv: list[str] | None = None) -> int:
    if (refused := refused_arguments(sys.argv[1:] if argv is None else argv)) is not None:
        print(f"error: {refusal(refused, None)}", file=sys.stderr)  # one line; nothing has run yet
        return 2
    parser = OneLineParser(prog="python -m agents.helpdesk", description="Helpdesk agent tools.")
    commands = parser.add_subparsers(dest="command", required=True)
    run_eval = commands.add_parser("eval", help="run the YAML trajectory scenarios")
    run_eval.add_argument(
        "--show-trace",
        nargs="?",
        const="failed",
        choices=["failed", "all"],
        help="dump the supervisor decision log (failed scenarios, or all)",
    )
    run_eval.add_argument("--json", action="store_true")
    ops = commands.add_parser("admin", help="operate sessions: list, show, abort, gc, sweep")
    ops.add_argument("action", choices=["list", "show", "abort", "gc", "sweep"])
    ops.add_argument("--org", default="acme", help="organisation slug (default: acme)")
    ops.add_argument("--user", help="only this user's sessions (email)")
    ops.add_argument("--user-id-hash", help="only sessions of the user with this hash prefix")
    ops.add_argument("--session-id")
    ops.add_argument("--json", action="store_true")
    ask = commands.add_parser("ask", help="drive one helpdesk session from the shell, one turn per call")
    ask.add_argument("text", help="the problem (a new session) or, with --session, the answer")
    ask.add_argument("--user", required=True, help="email of the person asking")
    ask.add_argument("--session", help="continue this session")
    ask.add_argument("--reply", help="the answer to the pending turn: text, or link|not_same|solved|not_solved|abort")
    ask.add_argument("--confirm", action="store_true", help="file the pending draft")
    ask.add_argument("--json", action="store_true")
    listing = commands.add_parser("tickets", help="tickets as this person may see them")
    listing.add_argument("--user", required=True)
    listing.add_argument("--mine", action="store_true", help="only the tickets you reported or linked to")
    listing.add_argument("--show", type=int, metavar="N", help="one ticket by number")
    listing.add_argument("--json", action="store_true")
    dups = commands.add_parser("duplicates", help="precision and recall of duplicate offers on the report pairs")
    dups.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    handlers = {"eval": _eval, "admin": _admin, "ask": _ask, "tickets": _tickets, "duplicates": _duplicates}
    return handlers[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
