"""SIGTERM drain, with a real `streamlit run app.py` and a real signal: while a helpdesk step is in
flight (the model answers slowly), SIGTERM makes the app refuse a new helpdesk start with one line in
the person's language, lets the running step finish and save its turn, then the server stops."""

from __future__ import annotations

import signal
import time

from storage import helpdesk_sessions as sessions
from tests.browser import chromium_page, needs_chromium, running_app, sign_in
from tests.fake_openai import Reply

SLOW_SECONDS = 12
QUESTION = "The projector in meeting room B does not turn on, only me, since today, no error message shown"


@needs_chromium
def test_sigterm_refuses_new_starts_and_lets_the_running_step_finish(db_url, org, pool, fake_openai, tmp_path):
    calls = []

    def first_call_slow(request):  # the first model call hangs; the twin answers its malformed reply
        calls.append(request)
        return Reply(text="no json here", delay=SLOW_SECONDS if len(calls) == 1 else 0)

    fake_openai.responder = first_call_slow
    processes = []
    with running_app(db_url, processes=processes) as base, chromium_page() as running:
        late = running.context.browser.new_page(viewport={"width": 1400, "height": 900})  # a second person
        server = processes[0]
        sign_in(running, base, "bob@hd.test", "pw-bob-123")
        sign_in(late, base, "ana@hd.test", "pw-ana-123")
        running.get_by_role("link", name="Helpdesk").click()
        late.get_by_role("link", name="Ayuda").click()
        late.get_by_label("¿Qué problema tienes?").fill(
            "La impresora de la segunda planta no imprime desde esta mañana"
        )

        running.get_by_label("What is the problem?").fill(QUESTION)
        running.get_by_role("button", name="Get help").click()
        _until(lambda: calls, 120, "the first model call is in flight")
        server.send_signal(signal.SIGTERM)
        signalled = time.monotonic()

        late.get_by_role("button", name="Pedir ayuda").click()
        notice = late.get_by_text("El servicio de ayuda se está reiniciando")
        try:
            late.get_by_text("Detenido").click(timeout=SLOW_SECONDS * 1000)  # the step box holds the reason
            notice.wait_for(timeout=SLOW_SECONDS * 1000)
        except Exception:
            late.screenshot(path="/tmp/queue-drain-fail.png", full_page=True)
            raise AssertionError(f"server alive: {server.poll() is None}; {late.inner_text('body')[-800:]}") from None
        late.screenshot(path=str(tmp_path / "drain_notice_es.png"))
        assert time.monotonic() - signalled < SLOW_SECONDS, "refused while the other step still ran"
        assert server.poll() is None

        server.wait(timeout=60)  # the running step finished, then the server stopped by itself
        stopped = time.monotonic() - signalled
    with pool.connection() as conn:
        bob = sessions.list_sessions(conn, org.org.id, user_id=org.bob.id, limit=1)[0]
        ana = sessions.list_sessions(conn, org.org.id, user_id=org.ana.id, limit=5)
    assert bob.status in ("awaiting_user", "awaiting_confirm", "done") and bob.abort_reason is None
    assert bob.turn, "the step that was running when SIGTERM came saved its turn"
    assert not ana, "the refused start left nothing behind"
    assert stopped < 30 + 15
    print(
        f"\nSIGTERM: new start refused at once; the running step finished and the server stopped "
        f"{stopped:.1f} s after the signal"
    )


def _until(condition, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)
