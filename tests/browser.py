"""Real-browser helpers: the product served by `streamlit run app.py`, driven by headless Chromium.

Tests that use them skip when Debian's Chromium is not installed (`apt-get install -y chromium`).
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import expect

from ui import cookie_routes

CHROMIUM = "/usr/bin/chromium"
ROOT = Path(__file__).resolve().parents[1]
_chromium_missing = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed")


def needs_chromium(test):
    """Skips the test without Debian's Chromium; marks it slow (a real app and browser: scheduled first)."""
    return pytest.mark.slow(_chromium_missing(test))


# One script run or one job step on a machine at load 4-6 (the first render prepares the database; a job step
# is a worker poll, a graph run and a page refresh): every wait on the page gets this budget, in ms.
STEP = 180_000


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextlib.contextmanager
def running_app(
    database_url: str,
    *,
    extra_env: dict | None = None,
    timeout: float = 120,
    port: int | None = None,
    extra_args: list[str] | None = None,
    processes: list | None = None,
):
    """Serve app.py on a loopback port (free, unless given) against ``database_url``; yields the base URL.

    ``extra_args`` go to ``streamlit run`` (e.g. ``--secrets.files PATH``); ``processes`` receives the
    server's Popen (to signal it)."""
    port = port or free_port()
    # its own chat port too: apps of parallel test workers must not fight over the default one
    env = {**os.environ, "DATABASE_URL": database_url, "SKILLNET_CHAT_PORT": str(free_port()), **(extra_env or {})}
    command = [
        sys.executable,
        "-m",
        "streamlit",
        "run",
        "app.py",
        "--server.port",
        str(port),
        "--server.address",
        "127.0.0.1",
        "--server.headless",
        "true",
        *(extra_args or []),
    ]
    # the server's output goes to a file, never to a pipe nobody reads while it runs: once a pipe's 64 KB fill,
    # every thread that logs blocks on it for good (a page that never draws); a failing test prints its tail
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
        if processes is not None:
            processes.append(process)
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + timeout
            while time.monotonic() < deadline:
                try:
                    with urllib.request.urlopen(f"{base}/_stcore/health", timeout=2) as response:
                        if response.status == 200:
                            break
                except OSError:
                    if process.poll() is not None:
                        raise RuntimeError(_tail(log)) from None
                    time.sleep(0.3)
            else:
                raise TimeoutError(f"streamlit did not start:\n{_tail(log)}")
            yield base
        except Exception:
            print(f"--- the app's output and its threads' stacks, last lines ---\n{_stacks(process, log)}")
            raise
        finally:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()


def _stacks(process, log) -> str:
    """The server's last output after asking it for its threads' stacks (app.py registers SIGUSR1 for them)."""
    if process.poll() is None:
        before = log.seek(0, os.SEEK_END)
        process.send_signal(signal.SIGUSR1)
        deadline = time.monotonic() + 10
        size = before
        while time.monotonic() < deadline:  # until the dump has begun and stopped growing
            time.sleep(0.3)
            size, grown = log.seek(0, os.SEEK_END), size
            if size > before and size == grown:
                break
    return _tail(log, 40_000)


def _tail(log, size: int = 6000) -> str:
    log.flush()
    log.seek(max(0, log.seek(0, os.SEEK_END) - size))
    return log.read().decode(errors="replace")


@contextlib.contextmanager
def chromium_page(width: int = 1400, height: int = 900, locale: str | None = None, *, self_signed: bool = False):
    """A Playwright page in headless Debian Chromium (no browser download needed); ``locale`` is the
    language the browser asks pages for (unset: Chromium's own, English); ``self_signed``: trust the
    test's own certificate (tests/deploy)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ],
        )
        try:
            page = browser.new_page(
                viewport={"width": width, "height": height}, locale=locale, ignore_https_errors=self_signed
            )
            page.set_default_timeout(120_000)  # a busy CI machine (load 4-6) renders slowly: wait, don't fail
            yield page
        finally:
            browser.close()


def sign_in(page, base_url: str, email: str, password: str) -> None:
    """Open the app and sign in through the form, waiting for the signed-in sidebar."""
    page.goto(base_url)
    page.get_by_label("Email").wait_for(timeout=STEP)  # the first render prepares the database
    page.get_by_label("Email").fill(email)
    page.get_by_label("Password", exact=True).fill(password)  # the browser speaks English: the form does too
    page.get_by_role("button", name="Sign in").click()
    page.get_by_text(email).wait_for(timeout=STEP)
    session_cookie(page)
    settle(page)  # the sign-in's last run (the home) has finished: a click now is not lost to it


def session_cookie(page, *, present: bool = True, timeout: float = STEP) -> dict | None:
    """The browser's session cookie once it is there (or None once it is gone, with ``present=False``).
    The signed-in (or signed-out) page shows before the browser has fetched the image that sets or clears
    the cookie (ui/cookie_routes.py), and a navigation before that (``page.goto``) would open as the
    previous person. Read from the browser context: the cookie is HttpOnly."""
    deadline = time.monotonic() + timeout / 1000
    while True:
        cookie = next((c for c in page.context.cookies() if c["name"] == cookie_routes.COOKIE), None)
        if (cookie is not None) == present:
            return cookie
        assert time.monotonic() < deadline, f"the session cookie is {'missing' if present else 'still there'}"
        page.wait_for_timeout(100)


def sign_out(page, label: str) -> None:
    """Click the sidebar's sign-out button and wait for the sign-in form: a page opened before the click's
    run has revoked the session would still be signed in."""
    page.get_by_role("button", name=label, exact=True).click()
    page.get_by_label("Email").wait_for(timeout=STEP)
    session_cookie(page, present=False)


def settle(page, timeout: float = STEP) -> None:
    """Wait until the script run a click started has finished: no "Running…" widget, no stale elements.
    (A page with a fragment that refreshes itself is idle between its runs; this waits for such a moment.)"""
    page.wait_for_function(
        "() => !document.querySelector('[data-testid=\"stStatusWidget\"]')"
        " && !document.querySelector('[data-stale=\"true\"]')",
        timeout=timeout,
    )


def pick(page, selectbox, option: str, timeout: float = STEP) -> None:
    """Choose ``option`` in a Streamlit selectbox (a locator on its ``stSelectbox`` element) and see it chosen.

    A rerun still under way when the list is opened (the page's last button) redraws the box and drops the
    choice: this waits for the page to settle, types to filter the list, clicks the option, and tries again until
    the box's input holds it (a busy CI machine lost one such pick once, session 17)."""
    deadline = time.monotonic() + timeout / 1000
    field = selectbox.locator("input")
    while True:
        settle(page)
        try:
            field.click(timeout=20_000)
            page.keyboard.type(option)  # a long list scrolls; typing filters it to the option
            page.get_by_role("option", name=option, exact=True).click(timeout=20_000)
            settle(page)
            expect(field).to_have_value(option, timeout=10_000)
            return
        except (PlaywrightTimeoutError, AssertionError):
            page.keyboard.press("Escape")
            assert time.monotonic() < deadline, f"{option!r} not chosen in {timeout / 1000:.0f} s"


def selectbox(scope, label: str):
    """The Streamlit selectbox labelled ``label`` in ``scope`` (a page, a frame or a locator)."""
    return scope.locator('[data-testid="stSelectbox"]').filter(has=scope.get_by_label(label, exact=True))


def chat_frame(page, address_part: str, timeout: float = STEP):
    """The embedded chat's frame once it holds the document whose address contains ``address_part`` (e.g.
    ``exercise=<id>``). A locator on the <iframe> element whose src just changed can still reach the
    document it is leaving, and a message typed there goes out with that document's context."""
    deadline = time.monotonic() + timeout / 1000
    while (frame := next((f for f in page.frames if address_part in f.url), None)) is None:
        assert time.monotonic() < deadline, f"no frame at …{address_part}… in {[f.url for f in page.frames]}"
        page.wait_for_timeout(100)
    return frame


def open_page(page, name: str) -> None:
    """Click a page in the sidebar, unfolding Streamlit's "View N more" when it hides it. The sidebar may still
    be drawing after a sign-in: this waits for the link or the unfolder, whichever shows first."""
    link = page.get_by_role("link", name=name, exact=True)
    more = page.get_by_text(re.compile(r"View \d+ more|Ver \d+ más"))
    link.or_(more).first.wait_for(timeout=STEP)
    if not link.is_visible():
        more.click()
    _follow(page, link)


def go_to(page, address: str) -> None:
    """Open the page whose address ends in ``address`` (e.g. "tutor") by its link in the sidebar."""
    _follow(page, page.locator(f"[data-testid=stSidebarNav] a[href$='/{address}']"))


def _follow(page, link, timeout: float = STEP) -> None:
    """Click a sidebar link once the page has settled, and wait until the address is the link's and that page's
    run has finished. A click can be lost to a run still under way (a sign-in's last run draws the home), and a
    page that never drew was all three of session 17's stalls: click again until the page is the one asked."""
    deadline = time.monotonic() + timeout / 1000
    target = urlsplit(link.get_attribute("href", timeout=timeout) or "").path

    def arrived(url: str) -> bool:
        return urlsplit(url).path == target

    while True:
        settle(page)
        try:
            link.click(timeout=20_000)
            page.wait_for_url(arrived, timeout=20_000)
            settle(page)
            if arrived(page.url):
                return
        except PlaywrightTimeoutError:
            pass
        assert time.monotonic() < deadline, f"{target} did not open in {timeout / 1000:.0f} s (at {page.url})"


def either(*names: str) -> re.Pattern:
    """An exact accessible name in any of the given languages."""
    return re.compile("^(?:" + "|".join(map(re.escape, names)) + ")$")


def past_the_guiding_question(frame, way_out: str = "Just tell me", timeout: float = 180_000) -> None:
    """On a course the learner takes in guided mode the tutor's first turn is a question that waits for their
    guess (issue 29): click its way-out chip and wait until the answer is done (its engine badge)."""
    answers = frame.locator(".badge.engine").count()
    frame.get_by_role("button", name=way_out, exact=True).last.click()
    frame.locator(".badge.engine").nth(answers).wait_for(timeout=timeout)
