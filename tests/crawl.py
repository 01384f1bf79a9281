"""What a page must never show a person (issue 32's crawl): words of the other language, raw ids, ISO
timestamps, snake_case codes and "None", in its text and in its tables' cells; and text clipped by its
table's column (tests/grids.py).

The other language's words come from the catalogue: a word that only the other language's messages use
(never the reader's, never the demo's own data, which is bilingual by design: an English course on a
Spanish page is content, not chrome) is a message that was not translated.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlsplit

from agents.i18n.catalog import MESSAGES

ROOT = Path(__file__).resolve().parents[1]
UUID = re.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b")
# raw ids cut short still read as ids: "1e3060d7…"
SHORT_ID = re.compile(r"\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{8}\b")
ISO_TIME = re.compile(r"\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}")
SNAKE = re.compile(r"(?<![\w./@-])[a-z]+(?:_[a-z0-9]+)+(?![\w./@(-])")
NONE = re.compile(r"(?<!\w)(None|null|nan|NaN)(?!\w)")
WORD = re.compile(r"[^\W\d_]{5,}")


def _words(text: str) -> set[str]:
    return {w.casefold() for w in WORD.findall(text)}


def _message_words(text: str) -> set[str]:
    """A message's words, without its placeholders' names ("{count}") and plural blocks' keywords."""
    return _words(re.sub(r"\{\w+(?:, plural,)?|\b(?:zero|one|two|few|many|other)\s*\{", " ", text))


def _data_words() -> set[str]:
    """Every word of the demo organisation's data (people, skills, courses, documents, tickets)."""
    found: set[str] = set()
    for folder in (ROOT / "seeds" / "data", ROOT / "seeds" / "documents"):
        for path in folder.rglob("*"):
            if path.is_file() and path.suffix in (".yaml", ".yml", ".md", ".json", ".jsonl", ".txt"):
                found |= _words(path.read_text(errors="ignore"))
    return found


def foreign_words(lang: str) -> set[str]:
    """Words only the other language's messages use (Spanish for an English reader, and back)."""
    other = "en" if lang == "es" else "es"
    mine, theirs = set(), set()
    for entry in MESSAGES.values():
        mine |= _message_words(entry.get(lang, ""))
        theirs |= _message_words(entry.get(other, ""))
    return theirs - mine - _data_words()


def findings(text: str, lang: str, foreign: set[str]) -> list[str]:
    """What in ``text`` a person should not read, one line each."""
    found = [
        f"{kind}: {m.group(0)!r}"
        for kind, pattern in (
            ("uuid", UUID),
            ("short id", SHORT_ID),
            ("iso time", ISO_TIME),
            ("code", SNAKE),
            ("none", NONE),
        )
        for m in pattern.finditer(text)
    ]
    found += [f"other language: {word!r}" for word in sorted(_words(text) & foreign)]
    return found


def page_text(page) -> str:
    """What the page shows: not icons (Material icon names such as "keyboard_arrow_right" are text in the
    page, drawn as glyphs) nor Streamlit's own running indicator ("Stop", English)."""
    text, icons = page.evaluate("""() => [document.body.innerText,
        [...document.querySelectorAll('[data-testid^="stIcon"]')].map(e => e.innerText)]""")
    for icon in set(icons):
        text = text.replace(icon, " ")
    return text.replace("Stop\n", "")


def walk(base: str, page, people: list[tuple[str, str, str, str]], shots: Path) -> tuple[int, int, dict]:
    """Sign in as each person (email, password, language, sign-out label), open every page of their menu once
    it has settled, screenshot it into ``shots`` and read it; returns the pages visited, the tables read and
    what was found."""
    from tests.browser import STEP, settle, sign_in, sign_out
    from tests.grids import READY, clipped, tables

    problems, visited, read = {}, 0, 0
    for email, password, lang, sign_out_label in people:
        foreign = foreign_words(lang)
        sign_in(page, base, email, password)
        links = page.locator('[data-testid="stSidebarNavLink"]')
        addresses = list(dict.fromkeys(links.nth(i).get_attribute("href") for i in range(links.count())))
        for address in addresses:
            page.goto(address)
            page.get_by_text(email).wait_for(timeout=STEP)
            settle(page)
            page.wait_for_function(READY, polling="raf", timeout=STEP)  # its tables drawn, for the screenshot
            name = urlsplit(address).path.strip("/") or "home"
            page.screenshot(path=str(shots / f"{email.split('@')[0]}-{name}.png"), full_page=True)
            shown = tables(page, STEP)
            cells = "\n".join(line for table in shown for c in table["columns"] for line in [c["title"], *c["texts"]])
            found = findings(f"{page_text(page)}\n{cells}", lang, foreign) + [
                line for table in shown for line in clipped(table)
            ]
            if found:
                problems[f"{email} {name}"] = found
            visited, read = visited + 1, read + len(shown)
        sign_out(page, sign_out_label)
    return visited, read, problems


def crawl(database_url: str, people: list[tuple[str, str, str, str]], shots: Path) -> None:
    """One app and one browser: ``walk`` every page of each person's menu, then fail on anything found."""
    import time

    from tests.browser import chromium_page, running_app

    started = time.perf_counter()
    with running_app(database_url) as base, chromium_page() as page:
        visited, read, problems = walk(base, page, people, shots)
    print(
        f"\ncrawl: {visited} pages and {read} tables as {len(people)} people in"
        f" {time.perf_counter() - started:.0f} s; shots in {shots}"
    )
    for where, found in problems.items():
        print(f"  {where}: {found}")
    # every person's home shows a table: none read means the tables' reader no longer finds them
    assert visited >= len(people) * 8 and read >= len(people) and not problems, problems
