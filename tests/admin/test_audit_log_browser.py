"""In a real browser, for a Spanish and an English admin: the audit log names what an entry touched and
reads its change, and its CSV, downloaded, carries the page's headers in the admin's language with the
raw id and JSON beside the readable columns. The employee's review forecast ticks whole reviews."""

import csv
import io
import re
from pathlib import Path

from agents.helpdesk import staff
from agents.learning import review_planning
from storage import users
from tests.browser import chromium_page, needs_chromium, open_page, running_app, settle, sign_in, sign_out
from tests.conftest import make_deps

ADMINS = [
    (
        "admin@acme.test",
        "Registro de auditoría",
        "Derecho de supresión",
        "Salir",
        ["Cuándo", "Quién", "Acción", "Qué", "Cuál", "Cuál (id)", "Antes", "Después", "Antes (JSON)", "Después (JSON)"],
        "retención deseada: 90 % → 85 %",
        "estado: abierto → en curso · nota: Lo miramos",
    ),
    (
        "oliver@acme.test",
        "Audit log",
        "Right to delete",
        "Sign out",
        ["When", "Who", "Action", "What", "Which", "Which (id)", "Before", "After", "Before (JSON)", "After (JSON)"],
        "desired retention: 90% → 85%",
        "status: open → in progress · note: Lo miramos",
    ),
]


def _plain(text: str) -> str:
    return text.replace("\u00a0", " ").replace("\u202f", " ")


@needs_chromium
def test_audit_log_and_its_csv_read_in_the_admins_language(seeded_db_url, seeded_pool, tmp_path):
    deps = make_deps(seeded_pool)
    with seeded_pool.connection() as conn:
        marta = users.get_user_by_email(conn, "admin@acme.test")
    review_planning.set_desired_retention(deps, marta, 0.85)
    ticket = next(t for t in staff.staff_tickets(deps, marta) if t["status"] == "open")
    staff.change_status(deps, marta, ticket["id"], "in_progress", "Lo miramos")
    with running_app(seeded_db_url) as base, chromium_page() as page:
        try:
            for email, nav, marker, leave, headers, retention, status in ADMINS:
                sign_in(page, base, email, "skillnet-admin")
                open_page(page, nav)
                page.get_by_text(marker).wait_for(timeout=120_000)
                settle(page)
                page.screenshot(path=str(tmp_path / f"audit_log_{email.split('@')[0]}.png"), full_page=True)
                with page.expect_download() as download:
                    page.locator('[data-testid="stDownloadButton"] button').first.click()  # ours, not the grid's
                text = Path(download.value.path()).read_text(encoding="utf-8")
                rows = list(csv.reader(io.StringIO(text, newline="")))
                assert rows[0] == headers
                found = [dict(zip(headers, r)) for r in rows[1:]]
                organisation = next(r for r in found if r[headers[7]].startswith(retention.split(":")[0]))
                assert _plain(organisation[headers[7]]) == retention and organisation[headers[4]] == "Acme Retail"
                assert '"desired_retention": 0.85' in organisation[headers[9]]  # raw JSON kept
                changed = next(r for r in found if r[headers[5]] == str(ticket["id"]))
                assert (
                    changed[headers[4]] == f"#{ticket['number']} · {ticket['title']}" and changed[headers[7]] == status
                )
                sign_out(page, leave)
        except Exception:
            page.screenshot(path=str(tmp_path / "failure.png"), full_page=True)
            raise


@needs_chromium
def test_the_review_forecast_ticks_whole_reviews(seeded_db_url, tmp_path):
    with running_app(seeded_db_url) as base, chromium_page() as page:
        for email, nav, title, leave in (
            ("lucia@acme.test", "Repasos", "Tus próximos 30 días", "Salir"),
            ("james@acme.test", "Reviews", "Your next 30 days", "Sign out"),
        ):
            sign_in(page, base, email, "skillnet-demo")
            open_page(page, nav)
            page.get_by_text(title).click()
            page.locator(".ytick text").first.wait_for(timeout=120_000)
            settle(page)
            page.screenshot(path=str(tmp_path / f"review_forecast_{email.split('@')[0]}.png"), full_page=True)
            ticks = page.locator(".ytick text").evaluate_all("texts => texts.map(t => t.textContent)")  # SVG
            assert ticks and all(re.fullmatch(r"\d+", tick) for tick in ticks), ticks  # never 0.5 reviews
            caption = page.get_by_text(re.compile(r"30 (días|days) ·")).inner_text()
            assert re.search(r"\(\d+\)$", caption), caption  # "(2)", never "(2,0)"
            sign_out(page, leave)
