"""Ingestion of every format and every bad input, on a real PostgreSQL with local embeddings."""

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import docx
import pytest
from fpdf import FPDF
from pypdf import PdfReader, PdfWriter

from agents.ingestion.chunking import chunk
from agents.ingestion.pipeline import IngestError, ingest_file, parse
from storage import documents, sources, users

POLICY_MD = """# Expense policy

## Per diem
Employees travelling on company business receive a per diem of 50 EUR per day for meals.
Receipts are not required for the per diem.

## Hotels
Hotel stays must be booked through the travel desk at least 7 days in advance. The nightly cap is 120 EUR.
"""


def _pdf(pages: list[str], title: str = "Warehouse safety") -> bytes:
    pdf = FPDF()
    pdf.set_title(title)
    pdf.set_font("helvetica", size=11)
    for text in pages:
        pdf.add_page()
        if text:
            pdf.multi_cell(0, 6, text)
    return bytes(pdf.output())


def _docx(heading: str, body: str) -> bytes:
    document = docx.Document()
    document.add_heading(heading, level=1)
    document.add_heading("Scope", level=2)
    document.add_paragraph(body)
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()


@pytest.fixture(scope="module")
def org(pool):
    with pool.connection() as conn:
        return users.ensure_org(conn, "ingest-test")


@pytest.fixture(scope="module")
def other_org(pool):
    with pool.connection() as conn:
        return users.ensure_org(conn, "ingest-other")


def _table_counts(pool) -> tuple[int, int]:
    with pool.connection() as conn:
        return (
            conn.execute("SELECT count(*) FROM documents").fetchone()[0],
            conn.execute("SELECT count(*) FROM document_chunks").fetchone()[0],
        )


def test_markdown_title_chunks_language_and_reingest(pool, org, tmp_path):
    path = tmp_path / "expenses.md"
    path.write_text(POLICY_MD)
    first = ingest_file(pool, org.id, path)
    assert (first.title, first.language, first.status) == ("Expense policy", "en", "ingested")
    with pool.connection() as conn:
        chunks = documents.document_chunks(conn, org.id, first.document_id)
        assert chunks and all(c.heading.startswith("Expense policy") for c in chunks)
        config = conn.execute(
            "SELECT DISTINCT ts_config::text FROM document_chunks WHERE document_id = %s", (first.document_id,)
        ).fetchone()[0]
    assert config == "english"
    assert ingest_file(pool, org.id, path).status == "unchanged"
    path.write_text(POLICY_MD.replace("50 EUR", "55 EUR"))
    replaced = ingest_file(pool, org.id, path)
    assert replaced.status == "replaced" and replaced.document_id == first.document_id
    with pool.connection() as conn:
        text = " ".join(c.content for c in documents.document_chunks(conn, org.id, first.document_id))
    assert "55 EUR" in text and "50 EUR" not in text


def test_pdf_keeps_page_numbers_and_metadata_title(pool, org, tmp_path):
    path = tmp_path / "safety.pdf"
    path.write_bytes(
        _pdf(
            [
                "Forklifts may only be driven by certified staff. " * 20,
                "Helmets are mandatory in aisle 4 and the loading dock. " * 20,
            ]
        )
    )
    result = ingest_file(pool, org.id, path)
    assert (result.title, result.pages) == ("Warehouse safety", 2)
    with pool.connection() as conn:
        chunks = documents.document_chunks(conn, org.id, result.document_id)
    assert {c.page_start for c in chunks} == {1, 2}
    assert any("Helmets" in c.content and c.page_start == 2 for c in chunks)


def test_docx_spanish_and_html(pool, org, tmp_path):
    path = tmp_path / "onboarding.docx"
    path.write_bytes(
        _docx(
            "Bienvenida a la empresa",
            "Durante la primera semana cada empleado nuevo "
            "recibe su tarjeta de acceso y completa la formación de seguridad. " * 5,
        )
    )
    result = ingest_file(pool, org.id, path)
    assert (result.title, result.language) == ("Bienvenida a la empresa", "es")
    html = tmp_path / "faq.html"
    html.write_text(
        "<html><head><title>FAQ</title><script>evil()</script></head><body><h1>Help centre</h1>"
        "<p>Reset your password from the sign-in page.</p></body></html>"
    )
    html_result = ingest_file(pool, org.id, html)
    assert html_result.title == "Help centre"
    with pool.connection() as conn:
        assert "evil" not in documents.get_full_text(conn, org.id, html_result.document_id)


def test_text_file_title_is_the_stem(pool, org, tmp_path):
    path = tmp_path / "holiday-calendar.txt"
    path.write_text("The office closes on 24 and 31 December.\n\nSummer hours run from July to August.")
    assert ingest_file(pool, org.id, path).title == "holiday-calendar"


def _encrypted_pdf() -> bytes:
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(_pdf(["secret text " * 30]))))
    writer.encrypt("pw")
    buffer = io.BytesIO()
    writer.write(buffer)
    return buffer.getvalue()


@pytest.mark.parametrize(
    "name, data, reason",
    [
        ("empty.md", b"", "empty"),
        ("slides.pptx", b"PK\x03\x04 not supported", "unsupported file type"),
        ("broken.pdf", b"%PDF-1.4 garbage that is not a pdf", "corrupt"),
        ("locked.pdf", None, "encrypted"),
        ("scan.pdf", None, "no text layer"),
        ("latin1.txt", "Política de devolución".encode("latin-1"), "UTF-8"),
        ("broken.docx", b"PK\x03\x04 not a zip", "corrupt"),
        ("blank.md", b"   \n\n  ", "no text"),
    ],
)
def test_bad_input_gets_one_line_and_changes_nothing(pool, org, tmp_path, name, data, reason):
    if data is None:
        data = _encrypted_pdf() if name == "locked.pdf" else _pdf(["", ""])
    path = tmp_path / name
    path.write_bytes(data)
    before = _table_counts(pool)
    with pytest.raises(IngestError) as info:
        ingest_file(pool, org.id, path)
    assert reason in str(info.value) and "\n" not in str(info.value)
    assert _table_counts(pool) == before


def test_size_limit_is_configurable(pool, org, tmp_path, monkeypatch):
    monkeypatch.setenv("SKILLNET_MAX_UPLOAD_MB", "0.001")
    path = tmp_path / "big.md"
    path.write_text("# Big\n\n" + "word " * 1000)
    with pytest.raises(IngestError, match="limit is"):
        ingest_file(pool, org.id, path)


def test_documents_are_scoped_to_their_organisation(pool, org, other_org, tmp_path):
    path = tmp_path / "expenses.md"
    path.write_text(POLICY_MD)
    mine = ingest_file(pool, org.id, path)
    theirs = ingest_file(pool, other_org.id, path)
    assert theirs.status == "ingested" and theirs.document_id != mine.document_id
    with pool.connection() as conn:
        assert documents.get_document(conn, other_org.id, mine.document_id) is None
        assert {d.id for d in documents.list_documents(conn, other_org.id)} == {theirs.document_id}
        mine_chunks = [c.id for c in documents.document_chunks(conn, org.id, mine.document_id)]
        assert sources.chunks_by_id(conn, other_org.id, mine_chunks) == []


def test_chunks_stay_within_token_bounds():
    long_section = "# Manual\n\n## Procedure\n\n" + "\n\n".join(
        f"Step {i}: check the pallet label against the delivery note and sign the form." for i in range(120)
    )
    parsed = parse(Path("manual.md"), long_section.encode())
    chunks = chunk(parsed.paragraphs)
    assert len(chunks) > 3
    assert all(c.token_count <= 500 for c in chunks)
    assert all(c.token_count >= 200 for c in chunks[:-1])
    assert [c.position for c in chunks] == list(range(len(chunks)))


def test_cli_prints_one_json_line_per_document(db_url, tmp_path):
    first = tmp_path / "a.md"
    first.write_text("# Alpha\n\nAlpha text about returns within 30 days.")
    second = tmp_path / "b.md"
    second.write_text("# Beta\n\nBeta text about travel per diem.")
    command = [sys.executable, "-m", "storage", "ingest", str(first), str(second), "--org", "cli-org", "--json"]
    env = {**os.environ, "DATABASE_URL": db_url}
    out = subprocess.run(command, capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    lines = [json.loads(line) for line in out.stdout.splitlines()]
    assert [(line["title"], line["status"]) for line in lines] == [("Alpha", "ingested"), ("Beta", "ingested")]
    again = subprocess.run(command, capture_output=True, text=True, env=env, timeout=120)
    assert [json.loads(line)["status"] for line in again.stdout.splitlines()] == ["unchanged", "unchanged"]
    bad = subprocess.run(
        command[:4] + [str(tmp_path / "missing.pdf"), "--org", "cli-org"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert bad.returncode != 0 and bad.stderr.strip().count("\n") == 0


def test_vectors_command_writes_the_pack_ingestion_then_embeds_nothing_with(pool, org, tmp_path, capsys):
    from agents.ingestion.embeddings import VectorPack, embedding_calls
    from storage.__main__ import main

    path, pack = tmp_path / "expenses.md", tmp_path / "vectors.npz"
    path.write_text(POLICY_MD)
    assert main(["vectors", str(path), "-o", str(pack)]) == 0
    assert capsys.readouterr().out.startswith(f"{pack}: ")
    before = embedding_calls()["passages"]
    ingest_file(pool, org.id, path, known_vectors=VectorPack.load(pack))
    assert embedding_calls()["passages"] == before
    assert main(["vectors", str(tmp_path / "missing.md"), "-o", str(pack)]) == 2
    assert capsys.readouterr().err.strip().count("\n") == 0
