"""Ingestion throughput with local embeddings: the demo documents and a generated 100-page PDF.

    python tests/bench/ingest.py

Runs on a throw-away embedded database and prints chunks per second (parse + chunk + embed + write).
The embedding cache is switched off so every chunk is really embedded.
"""
from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.pop("SKILLNET_EMBED_CACHE", None)
os.environ.pop("DATABASE_URL", None)
os.environ["EMBEDDINGS"] = "local"
os.environ["SKILLNET_DATA_DIR"] = tempfile.mkdtemp(prefix="skillnet-bench-")

from fpdf import FPDF  # noqa: E402

from storage import users  # noqa: E402
from storage.db import app_pool  # noqa: E402
from storage.ingest import ingest_file  # noqa: E402

SENTENCES = [
    "Every pallet received at the dock is checked against the delivery note before it is signed.",
    "Forklift operators renew their certificate every two years and log each shift in the register.",
    "Damaged goods are photographed, tagged in red and moved to the quarantine area within one hour.",
    "Customers may return unopened items within thirty days when they show the original receipt.",
    "Travel expenses above 500 EUR need the written approval of the department head in advance.",
    "Passwords are at least twelve characters long and are never shared by email or chat.",
]


def hundred_page_pdf(path: Path) -> None:
    pdf = FPDF()
    pdf.set_title("Operations handbook")
    for page in range(100):
        pdf.add_page()
        pdf.set_font("helvetica", "B", 14)
        pdf.cell(0, 10, f"{page + 1}. Section {page + 1}", new_x="LMARGIN", new_y="NEXT")
        pdf.set_font("helvetica", size=11)
        text = " ".join(SENTENCES[(page + i) % len(SENTENCES)] for i in range(24))
        pdf.multi_cell(0, 6, text)
    pdf.output(str(path))


def timed_ingest(pool, org_id, paths: list[Path]) -> tuple[int, float]:
    started, chunks = time.perf_counter(), 0
    for path in paths:
        chunks += ingest_file(pool, org_id, path).chunks
    return chunks, time.perf_counter() - started


def main() -> None:
    pool = app_pool()
    with pool.connection() as conn:
        org = users.ensure_org(conn, "bench-ingest")
    demo = sorted(p for p in (ROOT / "seeds" / "documents").glob("*") if p.suffix in {".md", ".pdf", ".docx"})
    if demo:
        chunks, seconds = timed_ingest(pool, org.id, demo)
        print(f"demo documents: {len(demo)} files, {chunks} chunks in {seconds:.1f} s "
              f"-> {chunks / seconds:.1f} chunks/s")
    with tempfile.TemporaryDirectory() as folder:
        pdf = Path(folder) / "handbook-100-pages.pdf"
        hundred_page_pdf(pdf)
        chunks, seconds = timed_ingest(pool, org.id, [pdf])
        print(f"100-page PDF: {chunks} chunks in {seconds:.1f} s -> {chunks / seconds:.1f} chunks/s")


if __name__ == "__main__":
    main()
