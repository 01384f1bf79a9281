"""python -m agents.content: generate a course + manual from documents, resume a job, or run a worker.

  generate PATH... --org SLUG --by EMAIL [--approve-all] [--manual-only] [--json]
  resume JOB_ID --org SLUG --by EMAIL (--approve | --refine | --reject) [--approve-all] [--json]
  status JOB_ID --org SLUG [--json]
  show COURSE_ID [--org SLUG] [--json]
  worker [--once]                           a task-queue worker; start as many as you like
  stale --org SLUG [--json]                 lessons and exercises whose source passages changed
  export COURSE_ID --format scorm12 -o FILE.zip   a published course as a SCORM 1.2 package
  health COURSE_ID [--lang es|en] [--json]  item analysis: facility, discrimination, option picks, flags
Without --approve-all a run stops at the next human checkpoint and prints how to resume. --approve-all
also publishes modules the offline template wrote in place of an unusable model answer (the page's tick;
audit-logged, and listed in the summary's template_modules).
"""

from __future__ import annotations

import json
import logging
import sys
from uuid import UUID

from agents.content import decisions, service
from agents.content.courses import course_json
from agents.ingestion.pipeline import IngestError, ingest_file
from agents.runtime.deps import process_deps
from agents.runtime.refusals import refusal
from core.inputs import OneLineParser, refused_arguments
from storage import courses as course_store
from storage import jobs, users
from storage.db import DatabaseError


class CliError(Exception):
    pass


def _admin(pool, slug: str, email: str):
    with pool.connection() as conn:
        org = users.get_org_by_slug(conn, slug)
        if org is None:
            raise CliError(f"no organisation {slug!r}")
        user = users.get_user_by_email(conn, email.lower())
    if user is None or user.org_id != org.id:
        raise CliError(f"no user {email!r} in {slug!r}")
    if not user.is_admin:
        raise CliError(f"{email} is not an admin")
    return org, user


def _drive(deps, user, job_id: UUID, approve_all: bool):
    """Run until published/failed/rejected, approving both checkpoints when asked to."""
    while True:
        job = service.run_job(deps, user.org_id, job_id)
        if job.status in jobs.FINISHED or not approve_all:
            return job
        if job.status == "awaiting_structure_review":
            decisions.review_structure(deps, user, job_id, "approve")
        elif job.status == "awaiting_final_review":
            decisions.review_final(deps, user, job_id, "approve", accept_template_modules=True)


def _report(deps, org_id, job, args) -> int:
    summary = service.job_summary(deps, org_id, job.id)
    if args.json:
        print(json.dumps(summary, ensure_ascii=False))
    else:
        print(
            f"job {summary['job_id']}: {summary['status']} · {summary['modules']} modules · "
            f"{summary['lessons']} lessons · exercises {summary['exercises_by_type']} · "
            f"review score {summary['review_score']}"
        )
        if job.error:
            print(f"error: {job.error}")
    if job.status.startswith("awaiting_"):
        print(
            f"waiting for the {job.status.split('_')[1]} review; resume with: python -m agents.content resume "
            f"{job.id} --org {args.org} --by {args.by} --approve   (or --refine / --reject)",
            file=sys.stderr,
        )
    return 1 if job.status == "failed" else 0


def _print_stale(deps, args) -> int:
    from agents.content.stale import report

    with deps.pool.connection() as conn:
        org = users.get_org_by_slug(conn, args.org)
    if org is None:
        raise CliError(f"no organisation {args.org!r}")
    flags = report(deps, org.id)
    if args.json:
        print(json.dumps({"org": args.org, "stale": flags}, ensure_ascii=False))
        return 0
    for flag in flags:
        print(
            f"{flag['course']} › {flag['module']} · {flag['type']} “{flag['title']}” · {flag['change']} "
            f"({flag['document']} › {flag['section']})"
        )
    return 0


def _show(pool, args) -> int:
    try:
        course_id = UUID(args.course_id)
    except ValueError:
        raise CliError(f"not a course id: {args.course_id!r}") from None
    with pool.connection() as conn:
        org = users.get_org_by_slug(conn, args.org) if args.org else None
        if args.org and org is None:
            raise CliError(f"no organisation {args.org!r}")
        org_id = org.id if org else course_store.course_org_id(conn, course_id)
    course = course_json(pool, org_id, course_id) if org_id else None
    if course is None:
        raise CliError(f"no course {args.course_id}")
    if args.json:
        print(json.dumps(course, ensure_ascii=False))
        return 0
    print(f"{course['title']} ({course['status']}, {course['language']})")
    for n, module in enumerate(course["modules"], 1):
        print(f"{n}. {module['title']}")
        for lesson in module["lessons"]:
            findings = sum(len(e["quality"]) for e in lesson["exercises"])
            print(
                f"   - [{lesson['kind']}] {lesson['title']} · {len(lesson['citations'])} sources · "
                f"{len(lesson['exercises'])} exercises · {findings} findings"
            )
    return 0


def _health(pool, args) -> int:
    from agents.content.health import course_health, health_json, refresh

    try:
        course_id = UUID(args.course_id)
    except ValueError:
        raise CliError(f"not a course id: {args.course_id!r}") from None
    with pool.connection() as conn:
        org_id = course_store.course_org_id(conn, course_id)
        course = course_store.get_course(conn, org_id, course_id) if org_id else None
    if org_id is None or course is None:
        raise CliError(f"no course {args.course_id}")
    refresh(pool, org_id, course_id)  # a person asked: the figures as of now, however many answers
    health = course_health(pool, org_id, course_id, args.lang or course.language, refresh_if_small=False)
    if args.json:
        print(json.dumps({"title": course.title, **health_json(health)}, ensure_ascii=False))
        return 0
    print(f"{course.title}: {len(health.items)} exercises, {sum(bool(i.flags) for i in health.items)} flagged")
    for item in health.items:
        figures = (
            f"n={item.attempts} facility={_fmt(item.facility)} "
            f"discrimination={_fmt(item.discrimination)} ({item.method or '-'})"
        )
        print(f"- [{item.type}] {item.text[:80]} · {figures}")
        for flag in item.flags:
            print(f"    ⚑ {flag.reason} {flag.evidence}")
        if item.note:
            print(f"    · {item.note}")
    return 0


def _fmt(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def main(argv: list[str] | None = None) -> int:
    if (refused := refused_arguments(sys.argv[1:] if argv is None else argv)) is not None:
        print(f"error: {refusal(refused, None)}", file=sys.stderr)  # one line; nothing has run yet
        return 2
    parser = OneLineParser(prog="python -m agents.content", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    gen = sub.add_parser("generate", help="documents -> course + manual")
    gen.add_argument("paths", nargs="+")
    res = sub.add_parser("resume", help="decide at a checkpoint and continue")
    res.add_argument("job_id")
    decision = res.add_mutually_exclusive_group(required=True)
    for flag in ("approve", "refine", "reject"):
        decision.add_argument(f"--{flag}", dest="decision", action="store_const", const=flag)
    for p in (gen, res):
        p.add_argument("--org", required=True)
        p.add_argument("--by", required=True, help="the admin's email")
        p.add_argument("--approve-all", action="store_true")
        p.add_argument("--json", action="store_true")
    gen.add_argument("--manual-only", action="store_true")
    st = sub.add_parser("status", help="a job's summary")
    st.add_argument("job_id")
    st.add_argument("--org", required=True)
    st.add_argument("--json", action="store_true")
    sh = sub.add_parser("show", help="a course: modules, lessons, exercises and their quality findings")
    sh.add_argument("course_id")
    sh.add_argument("--org", help="the course's organisation (default: the one it belongs to)")
    sh.add_argument("--json", action="store_true")
    wk = sub.add_parser("worker", help="run queued background jobs (generation, ingestion, sweeps) until stopped")
    wk.add_argument("--once", action="store_true", help="run what is queued, then exit")
    stale = sub.add_parser("stale", help="lessons and exercises whose source passages changed")
    stale.add_argument("--org", required=True)
    stale.add_argument("--json", action="store_true")
    export = sub.add_parser("export", help="a published course as a SCORM 1.2 package")
    export.add_argument("course_id")
    export.add_argument("--format", required=True, choices=["scorm12"])
    export.add_argument("-o", "--output", required=True, help="the .zip file to write")
    health = sub.add_parser("health", help="item analysis of a course: figures and flags per exercise")
    health.add_argument("course_id")
    health.add_argument("--lang", choices=["es", "en"], help="language of the reasons (default: the course's)")
    health.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")

    try:
        deps = process_deps()
        pool = deps.pool
        if args.command == "worker":
            from agents.runtime.metrics import start_metrics_server
            from agents.runtime.tasks import work

            start_metrics_server()  # generation's model calls: /metrics on SKILLNET_METRICS_PORT
            # one task-queue worker: generation, ingestion and the periodic sweeps; SIGTERM lets running jobs finish
            work(wait=not args.once, main_thread=True)
            return 0
        if args.command == "stale":
            return _print_stale(deps, args)
        if args.command == "export":
            from agents.content.scorm import build_package

            _, package = build_package(deps, None, args.course_id)
            with open(args.output, "wb") as out:
                out.write(package)
            print(f"{args.output}: {len(package)} bytes")
            return 0
        if args.command == "status":
            with pool.connection() as conn:
                org = users.get_org_by_slug(conn, args.org)
            if org is None:
                raise CliError(f"no organisation {args.org!r}")
            summary = service.job_summary(deps, org.id, UUID(args.job_id))
            print(json.dumps(summary, ensure_ascii=False) if args.json else summary)
            return 0
        if args.command == "show":
            return _show(pool, args)
        if args.command == "health":
            return _health(pool, args)
        org, user = _admin(pool, args.org, args.by)
        if args.command == "generate":
            doc_ids = [ingest_file(pool, org.id, path, uploaded_by=user.id).document_id for path in args.paths]
            job_id = service.start_job(deps, user, doc_ids, "manual_only" if args.manual_only else "course_and_manual")
        else:
            job_id = UUID(args.job_id)
            job = service.job_view(deps, user, job_id, with_state=False).job
            if job.status == "awaiting_structure_review":
                if args.decision == "refine":
                    raise CliError("--refine applies to the final review; the structure takes --approve or --reject")
                decisions.review_structure(deps, user, job_id, args.decision)
            else:
                decisions.review_final(deps, user, job_id, args.decision, accept_template_modules=args.approve_all)
        return _report(deps, org.id, _drive(deps, user, job_id, args.approve_all), args)
    except (CliError, IngestError, DatabaseError, service.ContentServiceError, ValueError, OSError) as exc:
        print(f"error: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
