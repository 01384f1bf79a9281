"""Every page of the menu, opened in a real browser as the demo's admins (Marta in Spanish, Oliver in English),
shows nothing a person should not read: words of the other language, ids, ISO timestamps, snake_case
codes, "None" (tests/crawl.py says how each is found). One app and one browser; each page is read once
it has settled; screenshots of every page go to the test's tmp_path. Admins and employees are two files,
so the two test workers crawl at once."""

from __future__ import annotations

import time

from tests.browser import chromium_page, needs_chromium, running_app
from tests.crawl import walk

PEOPLE = [
    ("admin@acme.test", "skillnet-admin", "es", "Salir"),
    ("oliver@acme.test", "skillnet-admin", "en", "Sign out"),
]


@needs_chromium
def test_every_page_reads_right_for_the_two_admins(seeded_db_url, tmp_path):
    started = time.perf_counter()
    with running_app(seeded_db_url) as base, chromium_page() as page:
        visited, problems = walk(base, page, PEOPLE, tmp_path)
    print(
        f"\ncrawl: {visited} pages as {len(PEOPLE)} people in {time.perf_counter() - started:.0f} s; "
        f"screenshots in {tmp_path}"
    )
    for where, found in problems.items():
        print(f"  {where}: {found}")
    assert visited >= len(PEOPLE) * 8 and not problems, problems
