"""The chat server's CPU split by what each thread runs, for tests/bench/tutor.py's section 3.

The process's total CPU per turn, real minus replayed, moved 11-39 ms between runs of the same code: it is a
difference of two totals, and both carry work that grows with the wall time rather than the turns, which the
machine's load sets (Gradio's queue wakes every 1 ms while it waits for events: ~34 ms of CPU a second, idle).
The CPU time of a thread is its own, whoever else runs (/proc/self/task/<tid>/schedstat, in ns), so the
turn's own cost is read where it runs:

- the turn: the tutor-turn pool's threads (``agents.tutor.graph``, a turn's graph) plus the part of
  ``service.run_turn`` that runs in its caller's thread (``time.thread_time`` around each of its events);
- our handlers: the chat's own functions (a turn's, ``show_panels``) as Gradio calls them, without
  the turn inside them;
- Gradio: its event loop's thread and its AnyIO worker threads, without our handlers run there;
- other: the rest of the process (its main thread, the database pool's, native threads, threads gone).
"""

from __future__ import annotations

import functools
import inspect
import os
import threading
import time
from pathlib import Path

TICK = os.sysconf("SC_CLK_TCK")


class ThreadMeter:
    """Seconds of CPU by part, for the process it runs in; ``snapshot`` twice and subtract."""

    def __init__(self) -> None:
        self.loop_thread: int | None = None  # the event loop's native thread id (Gradio's server thread)
        self._turn = 0.0  # run_turn, in its callers' threads
        self._handlers = 0.0  # our handlers, turn included
        self._lock = threading.Lock()

    def _add(self, part: str, seconds: float) -> None:
        with self._lock:
            setattr(self, part, getattr(self, part) + seconds)

    def turn(self, run_turn):
        """``service.run_turn`` counted: the CPU its caller's thread spends producing each event."""

        @functools.wraps(run_turn)
        def counted(*args, **kwargs):
            events = run_turn(*args, **kwargs)
            while True:
                started = time.thread_time()
                try:
                    event = next(events)
                except StopIteration:
                    return
                finally:
                    self._add("_turn", time.thread_time() - started)
                yield event

        return counted

    def handler(self, fn):
        """One of the chat's handlers counted, keeping its signature (Gradio reads it for gr.Request) and its
        kind (a generator function streams)."""
        if inspect.isgeneratorfunction(fn):

            @functools.wraps(fn)
            def streamed(*args, **kwargs):
                updates = fn(*args, **kwargs)
                while True:
                    started = time.thread_time()
                    try:
                        update = next(updates)
                    except StopIteration:
                        return
                    finally:
                        self._add("_handlers", time.thread_time() - started)
                    yield update

            return streamed

        @functools.wraps(fn)
        def returned(*args, **kwargs):
            started = time.thread_time()
            try:
                return fn(*args, **kwargs)
            finally:
                self._add("_handlers", time.thread_time() - started)

        return returned

    def snapshot(self) -> dict[str, float]:
        """CPU seconds so far: the process's total, each kind of thread's, and the counted functions'."""
        names = {thread.native_id: thread.name for thread in threading.enumerate()}
        parts = {"loop": 0.0, "workers": 0.0, "pool": 0.0, "threads": 0.0}
        for task in Path("/proc/self/task").iterdir():
            try:
                ns = int((task / "schedstat").read_text().split()[0])
            except (OSError, ValueError):  # a thread that ended meanwhile
                continue
            tid, name = int(task.name), names.get(int(task.name), "")
            kind = (
                "loop"
                if tid == self.loop_thread
                else "workers"
                if name == "AnyIO worker thread"
                else "pool"
                if name.startswith("tutor-turn")
                else "threads"
            )
            parts[kind] += ns / 1e9
        fields = Path("/proc/self/stat").read_text().rsplit(")", 1)[1].split()
        with self._lock:
            counted = {"turn_caller": self._turn, "handlers": self._handlers}
        return {"process": (int(fields[11]) + int(fields[12])) / TICK, **parts, **counted, "wall": time.monotonic()}


def split(before: dict[str, float], after: dict[str, float], turns: int) -> dict[str, float]:
    """Milliseconds per turn by part between two snapshots (see the module's docstring)."""
    d = {key: 1000 * (after[key] - before[key]) / turns for key in before if key != "wall"}
    turn = d["pool"] + d["turn_caller"]
    handlers = d["handlers"] - d["turn_caller"]
    gradio = d["loop"] + d["workers"] - d["handlers"]
    return {
        "process": d["process"],
        "turn": turn,
        "handlers": handlers,
        "gradio": gradio,
        "loop": d["loop"],
        "other": d["process"] - d["loop"] - d["workers"] - d["pool"],
        "wall_s": after["wall"] - before["wall"],
    }
