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

The same code's turn read 13.9 ms at one hour and 19.3 at another on this shared machine (a virtual one: its
neighbours slow every instruction, no steal time is reported and perf counters are not available), so a
``ReferenceWorkload`` runs beside the turns: one fixed piece of Python (no I/O, never changed with the product)
every 50 ms, in a thread of its own, its CPU time per piece read as the turn's is. Its CPU is left out of
every part above. The turn's CPU over the piece's, measured in the same seconds, moves less with the host's
speed, not nothing: the piece fits in the caches, the turn does not (README "Capacity").
"""

from __future__ import annotations

import functools
import inspect
import os
import re
import statistics
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


def split(before: dict[str, float], after: dict[str, float], turns: int, beside: float = 0.0) -> dict[str, float]:
    """Milliseconds per turn by part between two snapshots (see the module's docstring); ``beside``: seconds of CPU
    of the bench's own work in the process meanwhile (the ReferenceWorkload, started after the first snapshot and
    stopped before the second), left out of the process's."""
    d = {key: 1000 * (after[key] - before[key]) / turns for key in before if key != "wall"}
    turn = d["pool"] + d["turn_caller"]
    handlers = d["handlers"] - d["turn_caller"]
    gradio = d["loop"] + d["workers"] - d["handlers"]
    process = d["process"] - 1000 * beside / turns
    return {
        "process": process,
        "turn": turn,
        "handlers": handlers,
        "gradio": gradio,
        "loop": d["loop"],
        "other": process - d["loop"] - d["workers"] - d["pool"],
        "wall_s": after["wall"] - before["wall"],
    }


_REFERENCE_WORDS = re.compile(r"\w+")
_REFERENCE_TEXT = " ".join(f"palabra{i % 37} Word{i % 53} {i * 7919 % 1000}" for i in range(2500))


def reference_piece() -> int:
    """A fixed piece of Python like a turn's (words counted with a regex into a dict, sorted, joined, loops over
    strings and floats), ~4 ms on the test machine. It makes almost no objects the garbage collector tracks, so it
    never pays for a collection of the server's heap (the turns do). Never change it: its figures compare across
    sessions."""
    counts: dict[str, int] = {}
    for token in _REFERENCE_WORDS.findall(_REFERENCE_TEXT.lower()):
        counts[token] = counts.get(token, 0) + 1
    total = 0
    for word in sorted(counts):
        total += counts[word] * len(word)
    text = " ".join(sorted(counts, key=counts.__getitem__))
    total += sum(ord(ch) for ch in text)
    numbers = [(i * 7919) % 1000 / 1000 for i in range(10000)]
    numbers.sort()
    return total + int(sum(x * x for x in numbers))


class ReferenceWorkload:
    """``reference_piece`` every ``every`` seconds in a thread of its own while started (~8 % of one core): the CPU
    time a piece takes in the same seconds, with the same neighbours, as the turns measured beside it."""

    def __init__(self, every: float = 0.05) -> None:
        self.every, self.samples, self.cpu_seconds = every, [], 0.0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self.samples, self.cpu_seconds, self._stop = [], 0.0, threading.Event()
        self._thread = threading.Thread(target=self._run, name="bench-reference", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()

    def _run(self) -> None:
        while not self._stop.wait(self.every):
            started = time.thread_time_ns()
            reference_piece()
            self.samples.append((time.thread_time_ns() - started) / 1e6)
        self.cpu_seconds = time.thread_time()  # the thread's whole CPU, waits included

    def ms(self) -> float:
        """The mean CPU of a piece, ms (the turns' figures are means too)."""
        return statistics.fmean(self.samples) if self.samples else float("nan")
