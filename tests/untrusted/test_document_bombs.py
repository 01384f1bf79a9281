"""Archives and parsers: a zip-bomb DOCX and a billion-laughs DOCX are refused in one line within 5 s,
before python-docx parses them, and the database is unchanged.

Before: a 329 KB DOCX became 73.7 MB of text and 54,000 chunks (79 s of parsing inside the upload
request); the billion-laughs file ended in an lxml XMLSyntaxError traceback.
"""

from __future__ import annotations

import io
import subprocess
import sys
import zipfile
from pathlib import Path

import docx
import pytest

from agents.ingestion.pipeline import IngestError, ingest_file
from storage import users
from tests.untrusted.conftest import row_counts, within

ROOT = Path(__file__).resolve().parents[2]
_PARAGRAPH = (
    b"<w:p><w:r><w:t>" + b"Lorem ipsum dolor sit amet, consectetur adipiscing elit. " * 20 + b"</w:t></w:r></w:p>"
)
_LAUGHS = (
    b'<?xml version="1.0"?>\n<!DOCTYPE lolz [<!ENTITY lol "lol">'
    + b"".join(b'<!ENTITY lol%d "%s">' % (n, (b"&lol%d;" % (n - 1) if n > 1 else b"&lol;") * 10) for n in range(1, 10))
    + b']>\n<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">'
    b"<w:body><w:p><w:r><w:t>&lol9;</w:t></w:r></w:p></w:body></w:document>"
)


def _docx_with_body(document_xml: bytes) -> bytes:
    """A real Word document (python-docx's template) whose word/document.xml is replaced."""
    template = io.BytesIO()
    docx.Document().save(template)
    out = io.BytesIO()
    with zipfile.ZipFile(template) as source, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as bomb:
        for item in source.infolist():
            data = document_xml if item.filename == "word/document.xml" else source.read(item)
            bomb.writestr(item.filename, data)
    return out.getvalue()


@pytest.fixture(scope="module")
def zip_bomb() -> bytes:
    head = b'<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>'
    body = _PARAGRAPH * (30 * 1_048_576 // len(_PARAGRAPH))  # ~30 MB unpacked, over the 25 MB default
    data = _docx_with_body(head + body + b"</w:body></w:document>")
    assert len(data) < 1_048_576  # small on disk: only the compressed size was capped before
    return data


@pytest.fixture(scope="module")
def org_id(pool):
    with pool.connection() as conn:
        return users.ensure_org(conn, "bombs", "Bombs Inc").id


@pytest.mark.parametrize(
    "kind, expected", [("zip_bomb", "unpacks to more than 25 MB"), ("laughs", "declares XML entities")]
)
def test_bombs_are_refused_in_one_line_within_5s(pool, org_id, zip_bomb, kind, expected):
    data = zip_bomb if kind == "zip_bomb" else _docx_with_body(_LAUGHS)
    before = row_counts(pool)
    with within(5.0), pytest.raises(IngestError) as caught:
        ingest_file(pool, org_id, f"{kind}.docx", source_name=f"{kind}.docx", data=data)
    assert expected in str(caught.value) and "\n" not in str(caught.value)
    assert caught.value.code in ("decompressed_too_big", "xml_entities")
    assert row_counts(pool) == before


def test_cli_refuses_the_bombs_in_one_line(pool, org_id, zip_bomb, tmp_path, db_url):
    (tmp_path / "bomb.docx").write_bytes(zip_bomb)
    (tmp_path / "laughs.docx").write_bytes(_docx_with_body(_LAUGHS))
    before = row_counts(pool)
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "storage",
            "ingest",
            str(tmp_path / "bomb.docx"),
            str(tmp_path / "laughs.docx"),
            "--org",
            "bombs",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 2 and done.stdout == ""  # refused input: the CLI contract
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 2 and "Traceback" not in done.stderr
    assert "unpacks to more than" in lines[0] and "XML entities" in lines[1]
    assert row_counts(pool) == before


def test_nul_bytes_in_a_document_are_stripped(pool, org_id):
    result = ingest_file(
        pool,
        org_id,
        "nul.md",
        source_name="nul.md",
        data=b"# Safety rules\n\nAlways wear\x00 gloves in the\x00 warehouse.\n",
    )
    with pool.connection() as conn:
        text = conn.execute("SELECT full_text FROM documents WHERE id = %s", (result.document_id,)).fetchone()[0]
    assert "\x00" not in text and "Always wear gloves" in text


def test_page_and_chunk_caps_refuse_in_one_line(pool, org_id, monkeypatch):
    monkeypatch.setenv("SKILLNET_MAX_CHUNKS_PER_DOCUMENT", "3")
    long_text = "\n\n".join(f"## Part {n}\n\n" + "A sentence about the warehouse rules. " * 60 for n in range(10))
    with pytest.raises(IngestError) as caught:
        ingest_file(pool, org_id, "long.md", source_name="long.md", data=long_text.encode())
    assert caught.value.code == "too_many_chunks" and "the limit is 3" in str(caught.value)
    monkeypatch.setenv("SKILLNET_MAX_PAGES", "1")
    pdf = (ROOT / "seeds").rglob("*.pdf")
    sample = next(p for p in pdf if _pages(p) > 1)
    with pytest.raises(IngestError) as caught:
        ingest_file(pool, org_id, sample)
    assert caught.value.code == "too_many_pages" and "\n" not in str(caught.value)


def _pages(path: Path) -> int:
    from pypdf import PdfReader

    return len(PdfReader(path).pages)
