"""The helpdesk's periodic upkeep, in whichever process hosts it (the app, `python -m agents.content
worker`): orphaned sessions end (or a confirmed filing is finished) and checkpoints past their TTL go,
once at start and then every 10 minutes. Both sweeps are idempotent, so several processes may run them."""
from __future__ import annotations

import logging
import threading

from agents.helpdesk.service import Deps, gc, sweep_orphans

SWEEP_EVERY_SECONDS = 600
log = logging.getLogger(__name__)
_lock = threading.Lock()
_thread: threading.Thread | None = None


def sweep_once(deps: Deps | None = None) -> dict:
    return {"orphans_aborted": sweep_orphans(deps=deps), **gc(deps=deps)}


def _loop(every: float, stop: threading.Event, deps: Deps | None) -> None:
    while True:
        try:
            sweep_once(deps)
        except Exception:  # a database hiccup must not end the sweeps for the life of the process
            log.exception("helpdesk sweep failed; retrying at the next tick")
        if stop.wait(every):
            return


def start_sweeper(every: float = SWEEP_EVERY_SECONDS, stop: threading.Event | None = None,
                  deps: Deps | None = None) -> threading.Thread:
    """Sweep now and every ``every`` seconds in a daemon thread (once per process)."""
    global _thread
    with _lock:
        if _thread is None or not _thread.is_alive():
            _thread = threading.Thread(target=_loop, args=(every, stop or threading.Event(), deps), daemon=True,
                                       name="helpdesk-sweeper")
            _thread.start()
        return _thread
