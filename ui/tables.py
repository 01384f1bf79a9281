"""A table every page can show the same way: a dataframe with its CSV download beside it.

What the reader sees goes through the catalogue: headers (``col.<name>``), enum codes
(``code.<kind>.<code>`` by column), dates, percentages and numbers formatted for the reader's
locale, empty cells empty. Every column gets the width its header and widest cell need (the grid sizes its
columns from its first ten rows only, and cut "Lucía Fernández" in the twelfth); a table wider than the page
narrows its widest text columns and ends their long cells with "…", whole in the CSV and below the table when
the reader picks the row (``fitted``, ``row_detail``). The CSV carries the headers the page shows, in the
reader's language (the file goes into that person's report or spreadsheet, where ``full_name`` means
nothing), and keeps the codes, plain numbers and ISO dates, which a spreadsheet sorts and sums as they are.
Names (skills, departments, courses) are in the reader's language too, as on screen.
"""

from __future__ import annotations

import csv
import math
import re
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any, Literal

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


# The grid's font (Source Sans, 14 px): each character's advance rounded up to half a pixel, measured with
# the browser's canvas; others take 9 px (Latin) or 16 (wider scripts, symbols). Never less than the real
# width: a column sized from it holds its text (tests/grids.py measures the real one in the crawl).
_ADVANCE = {
    3.0: " ",
    3.5: "',.:;ij|·ìíîï‘’",
    4.0: "IlÌÍÎÏ",
    4.5: "!()-[]f{}¡",
    5.0: "/\\rt°",
    6.0: '"*?sz¿“”',
    6.5: "cx«»ç",
    7.0: "0123456789#$+<=>FJLY^_ekvy~èéêëýÿ–€",
    7.5: "ESTVXagÈÉÊËàáâãäå",
    8.0: "ACPRZ`bdhnopquÀÁÂÃÄÅÇñòóôõöøùúûü",
    8.5: "BKß",
    9.0: "&DG",
    9.5: "HNOQUÑÒÓÔÕÖØÙÚÛÜ",
    10.5: "Mw",
    11.0: "Wæ",
    11.5: "—",
    12.0: "%@m",
    13.5: "…",
}
_WIDTHS = {char: px for px, chars in _ADVANCE.items() for char in chars}
PADDING = 16  # the grid's cell padding, both sides
ROOM = 930  # px a table may take: beside the sidebar in a 1400-px window the page is 938 px wide
SELECTION = 32  # px of the checkbox column a table whose rows can be picked adds
NARROWEST = 120  # px: a text column is never narrowed below this to make a table fit
ELLIPSIS = "…"
_MARKUP = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$])")  # a picked row's cells are shown as written, not as Markdown


def text_px(text: str) -> int:
    """How many pixels ``text`` takes in the grid's font, rounded up."""
    return math.ceil(sum(_WIDTHS.get(char, 9 if char < "\u2000" else 16) for char in text))


def _shortened(text: str, room: int) -> str:
    """``text`` cut at a word boundary to fit ``room`` px with its "…" (mid-word only for a single long word)."""
    room -= text_px(ELLIPSIS)
    kept = ""
    for word in text.split(" "):
        longer = f"{kept} {word}" if kept else word
        if text_px(longer) > room:
            break
        kept = longer
    if not kept:
        kept = word
        while kept and text_px(kept) > room:
            kept = kept[:-1]
    return kept.rstrip(" ,;:.-–—(«“") + ELLIPSIS


@dataclass
class Fitted:
    frame: pd.DataFrame  # the cells as the grid shows them: a long one ends in "…"
    config: dict[str, Any]  # each column's header and width in pixels
    shortened: bool  # some cell was cut: pick its row to read it whole (``row_detail``)


def _narrowed(widths: dict, need: dict, room: int, columns: list) -> dict:
    """``widths`` with ``columns`` no wider than one cap (nor narrower than ``need`` or ``NARROWEST``), the
    widest cap that brings the total within ``room``."""

    def within(cap: int) -> dict:
        return {c: min(w, max(cap, need[c])) if c in columns else w for c, w in widths.items()}

    cap = max((widths[c] for c in columns), default=0)
    while cap > NARROWEST and sum(within(cap).values()) > room:
        cap -= 4
    return within(cap)


def fitted(shown: pd.DataFrame, headers: dict[str, str], *, room: int = ROOM, cut_first: tuple = ()) -> Fitted:
    """Widths for ``shown``'s columns (headers by ``headers``, else the column's name) within ``room`` px:
    each the width its header and widest cell need; when they add up to more, the widest text columns
    (``cut_first`` ones first: free text, whose row a reader picks to read) share what is left, never narrower
    than their header or ``NARROWEST``, and their longer cells end in "…"."""
    labels = {c: headers.get(c, str(c)) for c in shown.columns}
    need = {c: text_px(labels[c]) + PADDING for c in shown.columns}
    texts = {c: [v if isinstance(v, str) else str(v) for v in shown[c]] for c in shown.columns}
    widest = {c: max([need[c], *(text_px(v) + PADDING for v in texts[c])]) for c in shown.columns}
    widths = _narrowed(widest, need, room, list(cut_first) or list(widest))
    widths = _narrowed(widths, need, room, list(widths))
    frame = shown.copy()
    shortened = False
    for column, width in widths.items():
        if width < widest[column] and shown[column].map(lambda v: isinstance(v, str)).all():
            room = width - PADDING
            frame[column] = [v if text_px(v) <= room else _shortened(v, room) for v in texts[column]]
            shortened = True
    config = {c: st.column_config.Column(labels[c], width=widths[c]) for c in shown.columns}
    return Fitted(frame, config, shortened)


def row_detail(whole: pd.DataFrame, headers: dict[str, str], picked, lang: str) -> None:
    """The row the reader picked in a table whose cells were cut, every cell whole; else how to get it."""
    rows = picked.selection.rows if picked and picked.selection else []
    if not rows:
        st.caption(t("common.pick_row_to_read", lang))
        return
    lines = [
        f"**{headers.get(column, column)}:** {_as_written(str(value))}"
        for column, value in whole.iloc[rows[0]].items()
        if not _is_empty(value) and value != ""
    ]
    st.container(border=True).markdown("  \n".join(lines))


def _as_written(text: str) -> str:
    """``text`` for Markdown that shows it as written: its marks escaped, its line breaks kept."""
    return _MARKUP.sub(r"\\\1", text).replace("\n", "  \n")


def fitted_table(
    whole: pd.DataFrame,
    headers: dict[str, str],
    key: str,
    lang: str,
    *,
    columns: list[str] | None = None,
    height: int | Literal["auto"] = "auto",
    cut_first: tuple = (),
) -> None:
    """``whole`` (as the reader sees it; ``columns`` of it, if given) in a table that fits the page; when a cell
    had to be cut (``cut_first`` columns first), its rows can be picked (by ``key``) and the picked one shows
    whole below."""
    visible = whole[columns] if columns else whole
    fit = fitted(visible, headers, cut_first=cut_first)
    if fit.shortened:  # the checkbox column that picks a row takes its room
        fit = fitted(visible, headers, room=ROOM - SELECTION, cut_first=cut_first)
    if not fit.shortened:
        st.dataframe(fit.frame, hide_index=True, column_config=fit.config, height=height)
        return
    picked = st.dataframe(
        fit.frame,
        hide_index=True,
        column_config=fit.config,
        height=height,
        on_select="rerun",
        selection_mode="single-row",
        key=key,
    )
    row_detail(whole, headers, picked, lang)


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
    columns: list[str] | None = None,
) -> None:
    """Render ``frame`` and a "Download CSV" button (file ``<name>.csv``); a note when it's empty.

    ``codes`` names more columns holding enum codes (the skills matrix: every skill column is a level);
    ``columns``, the ones the page shows (the CSV and a picked row keep them all).
    """
    user = current_user()
    lang = user.language if user else "en"
    if frame is None or frame.empty:
        st.caption(empty if empty is not None else t("common.nothing_to_show", lang))
        return
    headers = column_labels(frame, lang)
    whole = shown_frame(frame, lang, codes)
    fitted_table(whole, headers, f"{key or name}_rows", lang, columns=columns, height=height or "auto")
    st.download_button(
        f"⬇ {t('common.download_csv', lang)}",
        csv_bytes(frame, headers),
        file_name=f"{name}.csv",
        mime="text/csv",
        key=key or f"csv_{name}",
    )
