"""A panel that follows background work (ui/live.py) offers the work's next stage only once the page has drawn
it: an admin who picked someone in «Asignar a…» just after a course was published lost the choice now and then
(session 15, session 17's walk: 1 of 5 quick picks), because the panel drawn by the fragment's own run was in
the admin's hands while the page's run it had asked for drew it again."""

import os
import subprocess
import sys
import time
import urllib.request

from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from tests.browser import STEP, chromium_page, free_port, needs_chromium, settle

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def serve(folder, port: int) -> subprocess.Popen:
    env = {**os.environ, "LIVE_PANEL_DIR": str(folder), "PYTHONPATH": ROOT}
    command = [sys.executable, "-m", "streamlit", "run", "tests/ui/live_page.py", "--server.port", str(port)]
    command += ["--server.address", "127.0.0.1", "--server.headless", "true"]
    return subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def wait_until(condition, what: str) -> None:
    """Poll ``condition`` (a server starting, a file appearing) for up to the browser tests' STEP."""
    deadline = time.monotonic() + STEP / 1000
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError(what)
        time.sleep(0.05)


def up(base: str, process: subprocess.Popen) -> bool:
    assert process.poll() is None, "the page's server stopped"
    try:
        with urllib.request.urlopen(f"{base}/_stcore/health", timeout=2):
            return True
    except OSError:
        return False


@needs_chromium
def test_the_next_stage_is_offered_once_the_page_has_drawn_it(tmp_path):
    (tmp_path / "stage").write_text("working")
    (tmp_path / "hold").write_text("the page's run waits while this file exists")
    port = free_port()
    process = serve(tmp_path, port)
    try:
        base = f"http://127.0.0.1:{port}"
        wait_until(lambda: up(base, process), "streamlit did not start")
        with chromium_page() as page:
            page.goto(base)
            page.get_by_text("stage: working").wait_for(timeout=STEP)
            (tmp_path / "stage").write_text("done")  # the panel's next tick sees it and asks for the page's run
            # which waits: nothing of the new stage may be on screen meanwhile
            wait_until((tmp_path / "held").exists, "the page's run did not start")
            try:
                page.get_by_text("Assign to…").wait_for(timeout=5_000)
                offered_early = True
            except PlaywrightTimeoutError:
                offered_early = False
            (tmp_path / "hold").unlink()
            assert not offered_early, "the new stage was offered while the page's run was still to draw it"
            page.get_by_text("Assign to…").wait_for(timeout=STEP)
            settle(page)  # the page's run has drawn it: the admin opens it and picks someone
            page.get_by_text("Assign to…").click()
            settle(page)
            people = page.locator('[data-testid="stMultiSelect"]')
            people.locator("input").fill("James Carter")
            page.get_by_role("option", name="James Carter").click()
            page.keyboard.press("Escape")
            settle(page)
            people.get_by_text("James Carter", exact=True).wait_for(timeout=STEP)
            assert page.get_by_role("button", name="Preview").is_enabled()
    finally:
        process.terminate()
        process.wait(timeout=10)
