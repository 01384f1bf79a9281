"""python -m storage ingest PATH... --org SLUG [--by EMAIL] [--json] (exit 2 when a document is refused)
python -m storage config [--json]: the settings in effect and where each comes from
python -m storage migrate: apply pending migrations to the configured database (an upgrade's first step)
python -m storage database: the embedded server alone, migrated, until stopped (deploy/Procfile's `db`)
python -m storage vectors PATH... -o FILE.npz: write the passage vectors ingesting PATH... embeds (a VectorPack
shipped beside data, e.g. seeds/eval/react_docs/vectors.npz, so loading it embeds nothing)"""

from __future__ import annotations

import json
import signal
import sys
from pathlib import Path

from agents.ingestion.embeddings import VectorPack
from agents.ingestion.pipeline import IngestError, ingest_file, passage_texts
from core import config, variables
from core.inputs import OneLineParser, Refusal, refused_arguments
from storage import users
from storage.db import (
    DatabaseError,
    app_pool,
    data_dir,
    database_url,
    migrate,
    start_embedded_server,
)


def main(argv: list[str] | None = None) -> int:
    if (refused := refused_arguments(sys.argv[1:] if argv is None else argv)) is not None:
        print(f"error: {refused}", file=sys.stderr)  # one line; nothing has run yet
        return 2
    parser = OneLineParser(prog="python -m storage")
    commands = parser.add_subparsers(dest="command", required=True)
    ingest = commands.add_parser("ingest", help="ingest documents into an organisation (created if missing)")
    ingest.add_argument("paths", nargs="+", metavar="PATH")
    ingest.add_argument("--org", required=True, help="organisation slug")
    ingest.add_argument("--by", help="email of the uploader (optional)")
    ingest.add_argument("--json", action="store_true", help="one JSON line per document")
    show_config = commands.add_parser(
        "config",
        help="every configuration variable: the README table, or the current values with --json (secrets hidden)",
    )
    show_config.add_argument("--json", action="store_true")
    vectors = commands.add_parser(
        "vectors",
        help="write the passage vectors of documents to a VectorPack file "
        "(rewrite it after chunking or sanitising changes)",
    )
    vectors.add_argument("paths", nargs="+", metavar="PATH")
    vectors.add_argument("-o", "--output", required=True, metavar="FILE.npz")
    commands.add_parser("migrate", help="apply pending migrations to the configured database, then exit")
    commands.add_parser(
        "database",
        help="run the embedded PostgreSQL alone (other processes share it) until SIGTERM; prints its DATABASE_URL",
    )
    args = parser.parse_args(argv)
    if args.command in ("migrate", "database"):
        return _migrate(serve=args.command == "database")
    if args.command == "config":
        return _print_config(args.json)
    if args.command == "vectors":
        return _write_vectors(args.paths, args.output)

    if missing := [path for path in args.paths if not Path(path).is_file()]:
        print(f"error: no such file: {missing[0]}", file=sys.stderr)  # before an organisation is created for it
        return 2
    try:
        pool = app_pool()
        with pool.connection() as conn:
            org = users.ensure_org(conn, args.org)
            uploader = users.get_user_by_email(conn, args.by) if args.by else None
    except (DatabaseError, Refusal) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.by and (uploader is None or uploader.org_id != org.id):
        print(f"error: no user {args.by} in organisation {args.org}", file=sys.stderr)
        return 2

    failures = 0
    for path in args.paths:
        try:
            result = ingest_file(pool, org.id, path, uploaded_by=uploader.id if uploader else None)
        except IngestError as exc:
            failures += 1
            print(f"error: {path}: {exc}", file=sys.stderr)
            continue
        if args.json:
            print(json.dumps({"path": path, **result.as_json()}, ensure_ascii=False))
        else:
            print(f"{result.status:9} {result.title} — {result.pages} pages, {result.chunks} chunks, {result.language}")
    return 2 if failures else 0  # a refused document is bad input; the others were ingested


def _migrate(*, serve: bool) -> int:
    try:
        url = start_embedded_server(data_dir() / "pg") if serve else database_url()
        applied = migrate(url)
    except DatabaseError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(json.dumps({"applied": applied, **({"DATABASE_URL": url} if serve else {})}), flush=True)
    if serve:  # holding the server's handle: it stops when the last process using it has let go
        stop = {signal.SIGTERM, signal.SIGINT}
        signal.pthread_sigmask(signal.SIG_BLOCK, stop)
        signal.sigwait(stop)
    return 0


def _write_vectors(paths: list[str], output: str) -> int:
    try:
        texts = [text for path in paths for text in passage_texts(path)]
    except (OSError, IngestError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"{output}: {VectorPack.write(output, texts)} passage vectors from {len(paths)} documents")
    return 0


def _print_config(as_json: bool) -> int:
    if not as_json:
        print(config.markdown_table())
        return 0
    try:
        values = {
            v.name: ("***" if v.secret and config.get(v.name) else config.get(v.name)) for v in variables.VARIABLES
        }
    except config.ConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(values, ensure_ascii=False, default=list))
    return 0


if __name__ == "__main__":
    sys.exit(main())
