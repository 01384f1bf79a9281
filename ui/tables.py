"""A table every page can show the same way: a dataframe with its CSV download beside it.

What the reader sees goes through the catalogue: headers (``col.<name>``), enum codes
(``code.<kind>.<code>`` by column), dates, percentages and numbers formatted for the reader's
locale, empty cells empty. The CSV carries the headers the page shows, in the reader's language (the
file goes into that person's report or spreadsheet, where ``full_name`` means nothing), and keeps the
codes, plain numbers and ISO dates, which a spreadsheet sorts and sums as they are. Names (skills,
departments, courses) are in the reader's language too, as on screen.
"""

from __future__ import annotations

import csv
import math
from datetime import date, datetime

import pandas as pd
import streamlit as st

from agents.i18n import code_label, format_date, format_datetime, format_percent, has, t
from ui.session import current_user

# Columns whose values are enum codes, and the code kind each one holds.
CODE_COLUMNS = {
    "severity": "severity",
    "status": "status",
    "level": "level",
    "mentee_level": "level",
    "min_level": "level",
    "kind": "kind",
    "role": "user_role",
    "source": "source",
    "outcome": "answer",
    "type": "exercise_type",
    "language": "language",
    "is_active": "yes_no",
    "same_department": "yes_no",
    "method": "discrimination_method",
    "key": "yes_no",
    "new_status": "status",
    "new_level": "level",
    "new_is_active": "yes_no",
}  # a write's preview rows
# Ratios (0–1) shown as one percentage format everywhere.
PERCENT_COLUMNS = {
    "completion_rate",
    "progress",
    "avg_progress",
    "failure_rate",
    "score",
    "avg_score",
    "facility",
    "mean_facility",
    "flagged_share",
    "share",
}
DATE_COLUMNS = {"deadline", "due", "new_deadline"}


def _is_empty(value) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value)) or value is pd.NaT


def _cell(column: str, value, lang: str, kinds: dict[str, str]):
    if _is_empty(value):
        return ""
    if column in kinds:
        return code_label(kinds[column], str(value).lower() if isinstance(value, bool) else value, lang)
    if column in PERCENT_COLUMNS and isinstance(value, (int, float)):
        return format_percent(value, lang)
    if column in DATE_COLUMNS or isinstance(value, date) and not isinstance(value, datetime):
        return format_date(value, lang)
    if column.endswith("_at") or column == "at" or isinstance(value, datetime):
        return format_datetime(value, lang)
    return value


def shown_frame(frame: pd.DataFrame, lang: str, codes: dict[str, str] | None = None) -> pd.DataFrame:
    """``frame`` as the reader sees it (headers are set apart, by ``column_labels``)."""
    kinds = {**CODE_COLUMNS, **(codes or {})}
    shown = frame.copy()
    for column in shown.columns:
        shown[column] = [_cell(str(column), v, lang, kinds) for v in frame[column]]
    return shown


def column_labels(frame: pd.DataFrame, lang: str) -> dict[str, str]:
    """Each column's header in the reader's language; a column that names data (a skill) stays as is."""
    return {c: t(f"col.{c}", lang) for c in frame.columns if isinstance(c, str) and has(f"col.{c}")}


# OWASP's CSV-injection rule: a cell a spreadsheet would read as a formula starts with a quote instead.
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _defused(cell):
    return "'" + cell if isinstance(cell, str) and cell.startswith(_FORMULA_STARTS) else cell


def csv_bytes(frame: pd.DataFrame, headers: dict[str, str] | None = None) -> bytes:
    """``frame`` as UTF-8 CSV that no spreadsheet runs: text cells starting =, +, -, @, tab or CR get a ' first.

    ``headers`` renames columns: the page's own headers (``column_labels`` or its ``column_config``)."""
    # Text cells quoted too (OWASP's other half): a CR or tab inside one cannot start a row or a cell.
    return (
        frame.map(_defused)
        .rename(columns=headers or {})
        .to_csv(index=False, quoting=csv.QUOTE_NONNUMERIC)
        .encode("utf-8")
    )


def table_with_csv(
    frame: pd.DataFrame,
    name: str,
    *,
    key: str | None = None,
    height: int | None = None,
    empty: str | None = None,
    codes: dict[str, str] | None = None,
) -> None:
    """Render ``frame`` and a "Download CSV" button (file ``<name>.csv``); a note when it's empty.

    ``codes`` names more columns holding enum codes (the skills matrix: every skill column is a level).
    """
    user = current_user()
    lang = user.language if user else "en"
    if frame is None or frame.empty:
        st.caption(empty if empty is not None else t("common.nothing_to_show", lang))
        return
    headers = column_labels(frame, lang)
    st.dataframe(
        shown_frame(frame, lang, codes),
        hide_index=True,
        column_config=headers or None,
        height=height or "auto",
    )
    st.download_button(
        f"⬇ {t('common.download_csv', lang)}",
        csv_bytes(frame, headers),
        file_name=f"{name}.csv",
        mime="text/csv",
        key=key or f"csv_{name}",
    )
