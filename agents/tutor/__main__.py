"""python -m agents.tutor ask "MESSAGE" --user EMAIL [--course TITLE] [--lesson TITLE] [--session ID]
[--from-exercise EXERCISE_ID] [--json]
python -m agents.tutor gaps --org SLUG [--days N] [--json]
python -m agents.tutor eval FILE [--json] | answers FILE [--split train|heldout] [--json]"""

from __future__ import annotations

import json
import sys

from agents.runtime.cli import deps_or_none, fail, signed_in
from agents.runtime.refusals import refusal
from agents.tutor import service
from core.inputs import OneLineParser, refused_arguments
from core.turns import Citations, Done, Error, Fallback, Grounding, Suggestions, Token, TurnEvent, as_json
from storage import users
from storage.db import DatabaseError


def main(argv: list[str] | None = None) -> int:
    if (refused := refused_arguments(sys.argv[1:] if argv is None else argv)) is not None:
        print(f"error: {refusal(refused, None)}", file=sys.stderr)  # one line; nothing has run yet
        return 2
    parser = OneLineParser(prog="python -m agents.tutor", description="Ask the employee tutor.")
    commands = parser.add_subparsers(dest="command", required=True)
    ask = commands.add_parser("ask", help="send one message and print the answer's events")
    ask.add_argument("message")
    ask.add_argument("--user", required=True, help="the learner's email")
    ask.add_argument("--course", help="course title or id (the course in view)")
    ask.add_argument("--lesson", help="lesson title or id (the lesson in view)")
    ask.add_argument("--session", help="continue this conversation (an id from an earlier answer)")
    ask.add_argument(
        "--from-exercise",
        metavar="EXERCISE_ID",
        help="asked from the course player with this exercise on screen (hints only while it is open)",
    )
    ask.add_argument("--json", action="store_true", help="one JSON event per line")
    gaps = commands.add_parser("gaps", help="questions no document answers, grouped by topic")
    gaps.add_argument("--org", required=True, help="organisation slug")
    gaps.add_argument("--days", type=int, default=30, help="look back this many days (default 30)")
    gaps.add_argument("--json", action="store_true")
    evaluation = commands.add_parser("eval", help="first-citation accuracy, language match and sentence precision")
    evaluation.add_argument("file", help="JSONL: question, lang, document, passage")
    evaluation.add_argument("--es-user", default="lucia@acme.test", help="who asks the Spanish questions")
    evaluation.add_argument("--en-user", default="james@acme.test", help="who asks the English questions")
    evaluation.add_argument("--json", action="store_true", help="every item's result too")
    answers = commands.add_parser(
        "answers",
        help="facts in the answer, abstention and false grounding, beside a naive extractive anchor (issue 29)",
    )
    answers.add_argument("file", help="JSONL: id, pair, lang, question, document, facts, set, split")
    answers.add_argument("--split", choices=("train", "heldout"), help="only this split (default: both)")
    answers.add_argument("--es-user", default="lucia@acme.test", help="who asks the Spanish questions")
    answers.add_argument("--en-user", default="james@acme.test", help="who asks the English questions")
    answers.add_argument("--json", action="store_true", help="the figures and every item's answers as JSON")
    args = parser.parse_args(argv)
    if args.command in ("eval", "answers"):
        return _eval(args)
    if args.command == "gaps":
        # scikit-learn loads only for this command
        from agents.insights.gaps import cli as gaps_cli

        if (deps := deps_or_none()) is None:
            return 2
        try:
            return gaps_cli(deps, args.org, args.days, args.json)
        except DatabaseError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2

    if (found := signed_in(args.user)) is None:
        return 2
    deps, user = found
    failed = False
    for event in service.run_turn(
        deps,
        user,
        args.message,
        session_id=args.session,
        course=args.course,
        lesson=args.lesson,
        from_exercise=args.from_exercise,
    ):
        failed = failed or isinstance(event, Error)
        if args.json:
            print(json.dumps(as_json(event), ensure_ascii=False, default=str), flush=True)
        else:
            _print_human(event)
    if not failed and not args.json:
        # the turn's session is the user's most recently updated one
        session_id = args.session or service.list_sessions(deps, user)[0].id
        print(f"(session {session_id})", file=sys.stderr)
    return 2 if failed else 0  # an error event is a refusal (the one line above): the CLI contract's exit 2


def _eval(args) -> int:
    from agents.tutor import answer_eval, evaluation

    if (deps := deps_or_none()) is None:
        return 2
    try:
        items = answer_eval.load(args.file, args.split) if args.command == "answers" else evaluation.load(args.file)
        with deps.pool.connection() as conn:
            askers = {
                "es": users.get_user_by_email(conn, args.es_user),
                "en": users.get_user_by_email(conn, args.en_user),
            }
    except (OSError, ValueError, DatabaseError) as exc:
        return fail(exc)
    if None in askers.values():
        return fail("no user with that email")
    if args.command == "answers":
        try:
            report = answer_eval.evaluate(deps, askers, items)
        except ValueError as exc:
            return fail(exc)
        print(json.dumps(report, ensure_ascii=False) if args.json else answer_eval.table(report))
        return 0
    report = evaluation.evaluate(deps, askers, items)
    if not args.json:
        report = {key: value for key, value in report.items() if key != "items"}
    print(json.dumps(report, ensure_ascii=False, indent=None if args.json else 2))
    return 0


def _print_human(event: TurnEvent) -> None:
    match event:
        case Token(text):
            print(text, end="", flush=True)
        case Fallback(message=message):  # the model's text shown so far is void; the twin's answer follows
            print(f"\n\n[{message}]\n", flush=True)
        case Grounding(rung, source, notice):
            print(f"[{rung} · {source}]", file=sys.stderr)
            if notice:
                print(f"({notice})\n", flush=True)
        case Citations(citations) if citations:
            print("\n")
            for c in citations:
                page = f", p. {c['page']}" if c.get("page") else ""
                print(f"[{c['index']}] {c['document']}{' › ' + c['section'] if c.get('section') else ''}{page}")
        case Suggestions(suggestions, actions) if suggestions or actions:
            print("\n→ " + "\n→ ".join(suggestions + [a["label"] for a in actions]))
        case Done():
            print(
                f"\n({event.engine} · {event.tokens_used} tokens · first token after {event.ttft_ms} ms"
                f"{' · fallback: ' + event.fallback if event.fallback else ''})",
                file=sys.stderr,
            )
        case Error(message):
            print(f"error: {message}", file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
