"""The learner's actions from a shell (notebook-style QA and scripted checks), as the pages do them:

    python -m agents.learning courses --user EMAIL [--json]
    python -m agents.learning start EXERCISE_ID --user EMAIL [--json]      opens an attempt (the course player)
    python -m agents.learning answer EXERCISE_ID --user EMAIL --answer JSON [--key KEY] [--json]
    python -m agents.learning reviews --user EMAIL [--json]

Bad input exits 2 with one line in the user's language; nothing is changed.
"""

from __future__ import annotations

import argparse
import json
import sys
import uuid

from agents.i18n import t
from agents.learning import service
from agents.runtime.cli import fail, signed_in
from agents.runtime.deps import AppDeps
from agents.runtime.refusals import refusal
from core.inputs import OneLineParser, refused_arguments
from storage.users import User


def _courses(deps: AppDeps, user: User) -> list[dict]:
    out = []
    for enrollment in service.my_courses(deps, user):
        view = service.course_view(deps, user, enrollment.course_id)
        out.append(
            {
                "course_id": str(enrollment.course_id),
                "title": enrollment.course_title,
                "status": enrollment.status,
                "progress": enrollment.progress,
                "score": enrollment.score,
                "lessons": [
                    {
                        "lesson_id": str(lesson.id),
                        "title": lesson.title,
                        "done": lesson.id in view.completed_lessons,
                        "exercises": [
                            {
                                "exercise_id": str(x.id),
                                "type": x.type,
                                "prompt": x.prompt,
                                "answered": x.id in view.answers,
                                "tries": view.tries.get(x.id, 0),
                            }
                            for x in lesson.exercises
                        ],
                    }
                    for lesson in view.lessons
                ],
            }
        )
    return out


def _feedback(result: service.Feedback) -> dict:
    return {
        "correct": result.correct,
        "score": result.score,
        "feedback": result.feedback,
        "tries": result.tries,
        "revealed": result.revealed,
        "solution": result.solution if result.revealed else None,
        "explanation": result.explanation if result.revealed else None,
        "sources": [
            {"document": s.document, "section": s.section, "page": s.page, "chunk_id": s.chunk_id}
            for s in result.sources
        ],
        "counted": result.counted,
        "progress": result.progress,
        "status": result.status,
        "skills_raised": result.skills_raised,
        "engine": result.engine,
        "next_review": result.next_review.isoformat() if result.next_review else None,
    }


def _run(deps: AppDeps, user: User, args: argparse.Namespace) -> object:
    if args.command == "courses":
        return _courses(deps, user)
    if args.command == "start":
        service.open_exercise(deps, user, args.exercise_id)
        return {"exercise_id": args.exercise_id, "attempt": "open"}
    if args.command == "answer":
        try:
            answer = json.loads(args.answer)
        except json.JSONDecodeError as exc:
            raise service.LearningError(t("learning.error.bad_json", user.language, reason=exc.msg)) from None
        return _feedback(service.submit_answer(deps, user, args.exercise_id, answer, args.key or uuid.uuid4().hex))
    return [
        {
            "exercise_id": str(item.exercise.id),
            "course": item.course_title,
            "type": item.exercise.type,
            "prompt": item.exercise.prompt,
            "due": item.due.isoformat(),
            "reps": item.reps,
        }
        for item in service.due_reviews(deps, user)
    ]


def main(argv: list[str] | None = None) -> int:
    if (refused := refused_arguments(sys.argv[1:] if argv is None else argv)) is not None:
        print(f"error: {refusal(refused, None)}", file=sys.stderr)  # one line; nothing has run yet
        return 2
    parser = OneLineParser(prog="python -m agents.learning", description="Learner actions.")
    commands = parser.add_subparsers(dest="command", required=True)
    for name, needs_exercise in (("courses", False), ("start", True), ("answer", True), ("reviews", False)):
        command = commands.add_parser(name)
        if needs_exercise:
            command.add_argument("exercise_id")
        command.add_argument("--user", required=True, help="the learner's email")
        command.add_argument("--json", action="store_true", help="print JSON")
        if name == "answer":
            command.add_argument("--answer", required=True, help='the answer as JSON: 1, true, ["a", "b"], "text"')
            command.add_argument("--key", help="idempotency key (the same key twice counts once)")
    args = parser.parse_args(argv)
    if (found := signed_in(args.user)) is None:
        return 2
    try:
        result = _run(*found, args)
    except service.LearningError as exc:
        return fail(exc)
    print(json.dumps(result, ensure_ascii=False, indent=None if args.json else 2, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
