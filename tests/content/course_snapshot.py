"""What the offline pipeline publishes for each demo document, in a form two runs can be compared by: every
course (outline, lessons, citations, exercises with their sources) and manual, with chunk ids written as
"document title #position" (ingestion gives chunks new ids each run).

    python -m tests.content.course_snapshot OUT.json       runs the real pipeline (graph, checkpoints, worker)
    diff <(python -m json.tool A.json) <(python -m json.tool B.json)

In a fresh embedded database under a temporary data directory, with the offline engine; the refactors of the
pipeline's plumbing (issue 27) must leave this output unchanged.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path
from uuid import UUID

DEMO = Path(__file__).resolve().parents[2] / "seeds" / "documents"


def _ids_as_positions(value, names: dict[str, str]):
    if isinstance(value, dict):
        return {k: _ids_as_positions(v, names) for k, v in value.items() if k not in ("course_id", "manual_id")}
    if isinstance(value, list):
        return [_ids_as_positions(v, names) for v in value]
    if isinstance(value, str):
        for chunk_id, name in names.items():
            value = value.replace(chunk_id, name)
    return value


def snapshot() -> dict:
    from agents.content.__main__ import main
    from agents.content.courses import course_json
    from agents.runtime.deps import process_deps
    from storage import documents, manuals, users
    from tests.people import upsert_user

    deps = process_deps()
    with deps.pool.connection() as conn:
        org = users.ensure_org(conn, "snap", "Snapshot")
        upsert_user(conn, org.id, email="admin@snap.test", full_name="Ana", role="admin", password="secret-pass")
    out = {}
    for path in sorted(p for p in DEMO.iterdir() if p.suffix in (".md", ".pdf", ".docx")):
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            code = main(["generate", str(path), "--org", "snap", "--by", "admin@snap.test", "--approve-all", "--json"])
        summary = json.loads(printed.getvalue().strip().splitlines()[-1])
        assert code == 0 and summary["status"] == "published", summary
        course = course_json(deps.pool, org.id, UUID(summary["course_id"]))
        with deps.pool.connection() as conn:
            manual = manuals.get_manual(conn, org.id, UUID(summary["manual_id"]))
            doc_ids = {d.id for d in documents.list_documents(conn, org.id) if d.source_name == path.name}
            names = {
                str(c.id): f"{c.document_title} #{c.position}"
                for d in doc_ids
                for c in documents.document_chunks(conn, org.id, d)
            }
        summary = {k: v for k, v in summary.items() if k not in ("job_id", "course_id", "manual_id")}
        manual_data = {"title": manual.title, "toc": manual.toc, "content_md": manual.content_md} if manual else None
        out[path.name] = _ids_as_positions({"summary": summary, "course": course, "manual": manual_data}, names)
    return out


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    for var in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "LLM_MODEL", "DATABASE_URL"):
        os.environ.pop(var, None)
    os.environ.update(EMBEDDINGS="local", SKILLNET_CONTENT_WORKER="off", SKILLNET_CONTENT_JOBS_PER_HOUR="1000")
    data_dir = Path(tempfile.mkdtemp(prefix="skillnet-snapshot-"))
    data_dir.chmod(0o755)  # as root, the embedded server runs as another user that must reach it
    os.environ["SKILLNET_DATA_DIR"] = str(data_dir)
    try:
        result = snapshot()
        Path(sys.argv[1]).write_text(json.dumps(result, ensure_ascii=False, indent=1, sort_keys=True))
        print(f"{sys.argv[1]}: {len(result)} documents")
    finally:
        from storage import db

        db.reset_pools()
        db.stop_embedded_servers()
        shutil.rmtree(data_dir, ignore_errors=True)
