"""Every page of the menu, opened in a real browser as the demo's employees (Lucía in Spanish, James in English),
shows nothing a person should not read: words of the other language, ids, ISO timestamps, snake_case
codes, "None" (tests/crawl.py says how each is found). One app and one browser; each page is read once
it has settled; screenshots of every page go to the test's tmp_path. Admins and employees are two files,
so the two test workers crawl at once."""

from __future__ import annotations

from tests.browser import needs_chromium
from tests.crawl import crawl


@needs_chromium
def test_every_page_reads_right_for_the_two_employees(seeded_db_url, tmp_path):
    crawl(
        seeded_db_url,
        [
            ("lucia@acme.test", "skillnet-demo", "es", "Salir"),
            ("james@acme.test", "skillnet-demo", "en", "Sign out"),
        ],
        tmp_path,
    )
