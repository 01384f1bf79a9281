"""Shutdown drain (spec 001): on SIGTERM the app refuses new helpdesk starts, stops taking queue jobs
and lets the helpdesk steps and queue jobs already running finish — for at most 30 s — then lets
Streamlit stop the server (and ends the process 5 s later if a job still holds it). A second SIGTERM
stops the server at once.

Streamlit runs page code off the main thread, where Python cannot install a signal handler, and
installs its own SIGTERM handler when the server starts (streamlit/web/bootstrap.py: it stops the
server straight away). So ``install`` is scheduled on the server's event loop, which runs on the main
thread, and chains to the handler it finds there once the drain is over.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import logging
import os
import signal
import threading
import time
from collections.abc import Callable
from typing import Any

DRAIN_SECONDS = 30.0
EXIT_GRACE_SECONDS = 5.0
log = logging.getLogger(__name__)
_lock = threading.Condition()
_state: dict[str, Any] = {"until": None, "running": 0, "installed": False}
_stoppers: list[Callable[[float], None]] = []  # what stops taking new work, given the seconds left


def before_stop(stop: Callable[[float], None]) -> None:
    """Have the drain call ``stop(seconds_left)`` first: the queue worker registers itself here, so
    this module needs to know nothing of what runs in the process."""
    with _lock:
        if stop not in _stoppers:
            _stoppers.append(stop)


def draining() -> bool:
    """True from SIGTERM until the process ends: new helpdesk starts are refused."""
    with _lock:
        return _state["until"] is not None


def begin(seconds: float = DRAIN_SECONDS) -> float:
    """Start draining (idempotent); returns the monotonic deadline."""
    with _lock:
        if _state["until"] is None:
            _state["until"] = time.monotonic() + seconds
        return _state["until"]


@contextlib.contextmanager
def _counted():
    with _lock:
        _state["running"] += 1
    try:
        yield
    finally:
        with _lock:
            _state["running"] -= 1
            _lock.notify_all()


def in_flight(function):
    """Count the calls running right now (a helpdesk step): the drain waits for them. A generator (a turn
    streaming its events) counts from its first step until it ends or is closed."""
    if inspect.isgeneratorfunction(function):

        @functools.wraps(function)
        def counted_turn(*args, **kwargs):
            with _counted():
                return (yield from function(*args, **kwargs))

        return counted_turn

    @functools.wraps(function)
    def counted(*args, **kwargs):
        with _counted():
            return function(*args, **kwargs)

    return counted


def wait_until_idle(deadline: float) -> bool:
    """Block until no counted call runs or ``deadline`` passes; True when idle."""
    with _lock:
        return _lock.wait_for(lambda: _state["running"] == 0, timeout=max(0.0, deadline - time.monotonic()))


def _drain_then(previous, signum: int, loop) -> None:
    deadline = begin()
    log.warning("SIGTERM: draining for at most %.0f s (new helpdesk starts refused)", DRAIN_SECONDS)
    with _lock:
        stoppers = list(_stoppers)
    for stop in stoppers:  # e.g. the queue worker: running jobs finish, no new one is taken
        stop(max(0.0, deadline - time.monotonic()))
    idle = wait_until_idle(deadline)
    log.warning("drain over (%s); stopping", "idle" if idle else "timed out")
    loop.call_soon_threadsafe(previous if callable(previous) else _default_action, signum, None)
    # A queue job still running holds interpreter exit (its executor thread is joined at shutdown);
    # past the drain it is cut off like a crash, and another worker resumes it from its checkpoint.
    time.sleep(EXIT_GRACE_SECONDS)
    log.warning("still running %.0f s after the drain: exiting", EXIT_GRACE_SECONDS)
    os._exit(0)


def _default_action(signum: int, frame) -> None:
    """No handler was there before ours: end the process the way the signal would have."""
    signal.signal(signum, signal.SIG_DFL)
    signal.raise_signal(signum)


def _install(loop) -> None:
    """On the main thread: our SIGTERM handler in front of the one already there (Streamlit's)."""
    previous = signal.getsignal(signal.SIGTERM)

    def on_sigterm(signum, frame) -> None:
        if draining():  # a second SIGTERM: no more waiting
            if callable(previous):
                previous(signum, frame)
            return
        begin()
        threading.Thread(target=_drain_then, args=(previous, signum, loop), daemon=True, name="drain").start()

    signal.signal(signal.SIGTERM, on_sigterm)


def install(loop) -> None:
    """Install the drain on ``loop``'s thread (the server's main thread); once per process."""
    with _lock:
        if _state["installed"]:
            return
        _state["installed"] = True
    loop.call_soon_threadsafe(_install, loop)
