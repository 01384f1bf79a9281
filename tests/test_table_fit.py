"""Tables fit the page (ui/tables.py): each column as wide as its text needs, a table too wide for the page
narrowed by cutting its longest text with "…" (whole in the picked row and the CSV); and the crawl's judge
(tests/grids.py) calls a table clipped when it is wider than its space or a text wider than its column."""

from __future__ import annotations

import pandas as pd

from tests.grids import clipped
from ui.tables import ELLIPSIS, NARROWEST, PADDING, ROOM, fitted, text_px

# Widths in Chromium with the grid's font (canvas measureText, 14 px Source Sans), rounded up: the crawl's
# readings of the demo's widest cells.
MEASURED = {
    "Lucía Fernández": 96,
    "Learning & Development Manager": 198,
    "administración de RR. HH.": 153,
    "certificación por caducar": 145,
    "4 Dec 2026, 11:33": 100,
}


def _widths(fit) -> dict[str, int]:
    return {column: config["width"] for column, config in fit.config.items()}


def test_text_is_never_measured_narrower_than_the_browser_draws_it_nor_much_wider():
    for text, px in MEASURED.items():
        assert px <= text_px(text) <= px * 1.08, text


def test_a_table_that_fits_keeps_every_cell_whole_in_columns_as_wide_as_their_text():
    frame = pd.DataFrame({"full_name": ["Ana Morales", "Lucía Fernández"], "skills_count": [3, 12]})
    fit = fitted(frame, {"full_name": "Nombre", "skills_count": "Habilidades"})
    assert not fit.shortened and fit.frame.equals(frame)
    assert _widths(fit) == {
        "full_name": text_px("Lucía Fernández") + PADDING,
        "skills_count": text_px("Habilidades") + PADDING,
    }
    assert fit.config["full_name"]["label"] == "Nombre"


def test_a_wide_table_fits_the_page_and_its_cut_cells_end_in_an_ellipsis():
    long = "Quedan 15 días (fecha límite 19 dic 2026) y el progreso es del 38 % en el curso entero"
    frame = pd.DataFrame(
        {
            "kind": ["plazo en riesgo", "vencido"],
            "course": ["Devoluciones y reembolsos: lo esencial para tiendas", "Seguridad en el almacén"],
            "detail": [long, "Venció hace 2 días"],
            "severity": ["alta", "media"],
        }
    )
    fit = fitted(frame, {})
    widths = _widths(fit)
    assert fit.shortened and sum(widths.values()) <= ROOM
    assert widths["kind"] == text_px("plazo en riesgo") + PADDING  # short columns keep their width
    for column in ("course", "detail"):
        assert NARROWEST <= widths[column]
        for shown, whole in zip(fit.frame[column], frame[column]):
            assert text_px(shown) + PADDING <= widths[column]
            assert shown == whole or (shown.endswith(ELLIPSIS) and whole.startswith(shown[:-1]))
    assert fit.frame["detail"][1] == "Venció hace 2 días" and fit.frame["detail"][0] != long


def test_free_text_gives_way_before_the_columns_a_reader_scans():
    note = "nota: " + "el cliente volvió a llamar y pidió el reembolso completo " * 4
    frame = pd.DataFrame(
        {
            "action": ["estado del ticket cambiado"],
            "entity_name": ["#5 · El ascensor del edificio norte hace un ruido fuerte"],
            "before": [note],
            "after": [note],
        }
    )
    fit = fitted(frame, {}, cut_first=("before", "after"))
    assert fit.frame["action"][0] == "estado del ticket cambiado"
    assert fit.frame["entity_name"][0] == frame["entity_name"][0]
    assert fit.frame["after"][0].endswith(ELLIPSIS) and sum(_widths(fit).values()) <= ROOM


def test_the_crawl_calls_clipped_a_table_wider_than_its_space_or_a_text_wider_than_its_column():
    column = {"title": "Gravedad", "width": 73, "header": 73, "widest": 53, "text": "alta", "cut": 0, "texts": []}
    fits = {"space": 938, "width": 938, "columns": [column]}
    assert clipped(fits) == []
    assert clipped({**fits, "width": 963}) == ["clipped: table 963 px wide in 938 px"]
    narrow = {**column, "width": 60, "cut": 2, "widest": 120, "text": "crítica y urgente"}
    assert clipped({**fits, "columns": [narrow]}) == [
        "clipped: header 'Gravedad' needs 73 px, has 60",
        "clipped: 2 cell(s) of 'Gravedad' (60 px), widest 120 px: 'crítica y urgente'",
    ]
