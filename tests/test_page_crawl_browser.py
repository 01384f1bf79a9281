"""Every page of the menu, opened in a real browser as each of the four demo people (Marta and Oliver,
admins; Lucía and James, employees), shows nothing a person should not read: words of the other
language, ids, ISO timestamps, snake_case codes, "None" (tests/crawl.py says how each is found).

One app and one browser for all four; each page is read once it has settled. Screenshots of every page
go to the test's tmp_path (looked at while fixing what this found)."""

from __future__ import annotations

import time

from tests.browser import (
    STEP,
    chromium_page,
    needs_chromium,
    running_app,
    settle,
    sign_in,
    sign_out,
)
from tests.crawl import findings, foreign_words

PEOPLE = [
    ("admin@acme.test", "skillnet-admin", "es", "Salir"),
    ("oliver@acme.test", "skillnet-admin", "en", "Sign out"),
    ("lucia@acme.test", "skillnet-demo", "es", "Salir"),
    ("james@acme.test", "skillnet-demo", "en", "Sign out"),
]


def page_text(page) -> str:
    """What the page shows: not icons (Material icon names such as "keyboard_arrow_right" are text in the
    page, drawn as glyphs) nor Streamlit's own running indicator ("Stop", English)."""
    text, icons = page.evaluate("""() => [document.body.innerText,
        [...document.querySelectorAll('[data-testid^="stIcon"]')].map(e => e.innerText)]""")
    for icon in set(icons):
        text = text.replace(icon, " ")
    return text.replace("Stop\n", "")


@needs_chromium
def test_every_page_reads_right_for_the_four_demo_people(seeded_db_url, tmp_path):
    problems, visited = {}, 0
    started = time.perf_counter()
    with running_app(seeded_db_url) as base, chromium_page() as page:
        for email, password, lang, sign_out_label in PEOPLE:
            foreign = foreign_words(lang)
            sign_in(page, base, email, password)
            links = page.locator('[data-testid="stSidebarNavLink"]')
            addresses = list(dict.fromkeys(links.nth(i).get_attribute("href") for i in range(links.count())))
            for address in addresses:
                page.goto(address)
                page.get_by_text(email).wait_for(timeout=STEP)
                settle(page)
                name = address.rstrip("/").rsplit("/", 1)[-1] or "home"
                page.screenshot(path=str(tmp_path / f"{email.split('@')[0]}-{name}.png"), full_page=True)
                if found := findings(page_text(page), lang, foreign):
                    problems[f"{email} {name}"] = found
                visited += 1
            sign_out(page, sign_out_label)
    print(f"\ncrawl: {visited} pages as 4 people in {time.perf_counter() - started:.0f} s; screenshots in {tmp_path}")
    for where, found in problems.items():
        print(f"  {where}: {found}")
    assert visited >= 4 * 8 and not problems, problems
