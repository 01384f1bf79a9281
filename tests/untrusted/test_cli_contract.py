"""One CLI contract: every command in the README's list, given bad input, exits 2 with one line on stderr
in plain words (no database or Python internals, no library warnings, no traceback) and writes nothing;
contradictory flags are refused before anything runs."""

from __future__ import annotations

import importlib
import logging
import re
import uuid
import warnings
from pathlib import Path

from tests.untrusted.conftest import row_counts

NOBODY = str(uuid.UUID(int=7))  # a well-formed id that names nothing
# What a person should never read: database and Python internals, library warnings.
INTERNALS = re.compile(
    r"Traceback|violates|constraint|hexadecimal|UUID string|psycopg|relation \"|[A-Z]\w*Error\b|"
    r"Exception\b|pypdf|[Ww]arning|\.py\b|File \"|object has no|NoneType"
)


def _bad_files(folder: Path) -> dict[str, Path]:
    corrupt = folder / "broken.pdf"
    corrupt.write_bytes(b"%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\nxref\n0 2\ntrailer << >>\n%%EOF")
    lines = folder / "eval.jsonl"
    lines.write_text('{"question": "hotel"}\nnot json at all\n')
    return {"corrupt_pdf": corrupt, "bad_eval": lines, "missing": folder / "nowhere.md"}


def _cases(files: dict[str, Path]) -> dict[str, list[str]]:
    admin, lucia = "admin@acme.test", "lucia@acme.test"
    return {
        "seeds unknown flag": ["seeds", "--bogus"],
        "ingest missing file": ["storage", "ingest", str(files["missing"]), "--org", "acme"],
        "ingest corrupt pdf": ["storage", "ingest", str(files["corrupt_pdf"]), "--org", "acme"],
        "ingest no org": ["storage", "ingest", str(files["missing"])],
        "search unknown org": ["agents.retrieval", "search", "hotel", "--org", "no-such-org"],
        "search k below one": ["agents.retrieval", "search", "hotel", "--org", "acme", "--k", "0"],
        "eval bad lines": ["agents.retrieval", "eval", str(files["bad_eval"]), "--org", "acme"],
        "eval missing file": ["agents.retrieval", "eval", str(files["missing"]), "--org", "acme"],
        "tutor unknown user": ["agents.tutor", "ask", "hola", "--user", "nobody@acme.test"],
        "tutor bad session": ["agents.tutor", "ask", "hola", "--user", lucia, "--session", "not-an-id"],
        "tutor unknown session": ["agents.tutor", "ask", "hola", "--user", lucia, "--session", NOBODY],
        "tutor unknown course": ["agents.tutor", "ask", "hola", "--user", lucia, "--course", "No such course"],
        "tutor empty message": ["agents.tutor", "ask", "   ", "--user", lucia],
        "gaps unknown org": ["agents.tutor", "gaps", "--org", "no-such-org"],
        "admin not an admin": ["agents.admin", "ask", "who is behind?", "--user", lucia],
        "admin bad session": ["agents.admin", "ask", "--user", admin, "--session", "not-an-id", "--confirm", "x"],
        "admin confirm and cancel": [
            "agents.admin",
            "ask",
            "--user",
            admin,
            "--session",
            NOBODY,
            "--confirm",
            NOBODY,
            "--cancel",
        ],
        "admin unknown pending": ["agents.admin", "ask", "--user", admin, "--session", NOBODY, "--confirm", NOBODY],
        "generate missing file": ["agents.content", "generate", str(files["missing"]), "--org", "acme", "--by", admin],
        "generate by an employee": [
            "agents.content",
            "generate",
            str(files["missing"]),
            "--org",
            "acme",
            "--by",
            lucia,
        ],
        "show bad id": ["agents.content", "show", "not-an-id"],
        "show unknown course": ["agents.content", "show", NOBODY],
        "export bad id": [
            "agents.content",
            "export",
            "not-an-id",
            "--format",
            "scorm12",
            "-o",
            str(files["missing"].with_suffix(".zip")),
        ],
        "stale unknown org": ["agents.content", "stale", "--org", "no-such-org"],
        "health bad id": ["agents.content", "health", "not-an-id"],
        "helpdesk unknown user": ["agents.helpdesk", "ask", "my laptop", "--user", "nobody@acme.test"],
        "helpdesk bad session": ["agents.helpdesk", "ask", "yes", "--user", lucia, "--session", "not-an-id"],
        "helpdesk confirm nothing": ["agents.helpdesk", "ask", "ok", "--user", lucia, "--session", NOBODY, "--confirm"],
        "helpdesk bad trace": ["agents.helpdesk", "eval", "--show-trace", "everything"],
        "learning unknown user": ["agents.learning", "courses", "--user", "nobody@acme.test"],
        "learning bad exercise": ["agents.learning", "start", "not-an-id", "--user", lucia],
        "learning bad answer": ["agents.learning", "answer", NOBODY, "--user", lucia, "--answer", "{not json"],
        "llm unknown flag": ["agents.llm", "check", "--bogus"],
    }


def _run(module: str, argv: list[str], capsys, caplog) -> tuple[int, str, str]:
    """``python -m module argv`` in this process (a subprocess each costs seconds of imports): the exit
    code, stdout and stderr, with any warning a library logged counted as a line of stderr."""
    caplog.clear()
    with warnings.catch_warnings(record=True) as warned, caplog.at_level(logging.WARNING):
        warnings.simplefilter("always")
        try:
            code = importlib.import_module(f"{module}.__main__").main(argv)
        except SystemExit as exit_:
            code = exit_.code
    out, err = capsys.readouterr()
    noise = [f"{record.name}: {record.getMessage()}" for record in caplog.records]
    noise += [f"warning: {w.message}" for w in warned]
    return code, out, "\n".join([err.rstrip("\n"), *noise]).strip()


def test_every_cli_refuses_bad_input_in_one_plain_line_and_writes_nothing(seeded_pool, tmp_path, capsys, caplog):
    before = row_counts(seeded_pool)
    broken = {}
    for name, (module, *argv) in _cases(_bad_files(tmp_path)).items():
        code, out, err = _run(module, argv, capsys, caplog)
        if code != 2 or len(err.splitlines()) != 1 or INTERNALS.search(err) or out.strip():
            broken[name] = (code, err[-400:], out.strip()[-200:])
    assert broken == {}, "\n".join(f"{name}: {what}" for name, what in broken.items())
    assert row_counts(seeded_pool) == before
