"""The committed demo documents: real text layers, page counts, and reproducible from their sources."""

import hashlib

import docx
import pytest
from pypdf import PdfReader

from seeds import build_documents
from seeds.loader import document_paths


def test_pdfs_have_text_pages_and_titles():
    pdfs = [path for path in document_paths() if path.suffix == ".pdf"]
    assert len(pdfs) >= 2
    for path in pdfs:
        reader = PdfReader(path)
        assert len(reader.pages) > 5
        assert reader.metadata.title and reader.metadata.title in reader.pages[0].extract_text()
        assert all(len(page.extract_text()) > 500 for page in reader.pages[:-1])


def test_docx_files_open_with_headings():
    files = [path for path in document_paths() if path.suffix == ".docx"]
    assert files
    for path in files:
        document = docx.Document(str(path))
        assert document.core_properties.title
        assert any(p.style.name == "Heading 2" for p in document.paragraphs)


def test_both_languages_and_long_documents():
    words = {path.stem: len(path.read_text(encoding="utf-8").split()) for path in build_documents.SOURCES.glob("*.md")}
    assert sum(count > 2500 for count in words.values()) >= 2
    assert {"manual_seguridad_almacen", "information_security_policy"} <= set(words)


@pytest.mark.skipif(not (build_documents.FONT_DIR / "DejaVuSans.ttf").exists(), reason="DejaVu font not installed")
def test_build_reproduces_committed_files(tmp_path):
    for built in build_documents.build_all(tmp_path):
        committed = build_documents.DOCUMENTS / built.name
        assert hashlib.sha256(built.read_bytes()).digest() == hashlib.sha256(committed.read_bytes()).digest(), (
            f"{built.name} is stale: run python -m seeds.build_documents"
        )
