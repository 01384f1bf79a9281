"""The helpdesk's collaborators: the process's AppDeps plus what only the helpdesk needs — its ticket
tools, its settings and its compiled graph. Services take either; ``wired`` compiles the graph once
per AppDeps, and tests build a HelpdeskDeps with other tools, settings or a stopped clock."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from uuid import UUID

from agents.helpdesk.graph import HelpdeskGraph, build_graph
from agents.helpdesk.guards import Settings
from agents.helpdesk.tools import Toolbox, default_toolbox
from agents.runtime.deps import AppDeps


@dataclass
class HelpdeskDeps:
    app: AppDeps
    toolbox: Callable[[AppDeps, UUID, UUID], Toolbox] = default_toolbox
    settings: Callable[[], Settings] = Settings.from_env
    clock: Callable[[], float] | None = None  # epoch seconds; the AppDeps clock unless a test stops time
    graph: HelpdeskGraph = field(init=False)

    def __post_init__(self):
        self.graph = build_graph(self.app.checkpointer)

    def now(self) -> float:
        """Epoch seconds: the test's stopped clock when it gave one, else the AppDeps clock."""
        return self.clock() if self.clock is not None else self.app.now().timestamp()

    @property
    def pool(self):
        return self.app.pool

    @property
    def llm(self):
        return self.app.llm

    @property
    def checkpointer(self):
        return self.app.checkpointer


AnyDeps = AppDeps | HelpdeskDeps  # what the public functions take
_wired_lock = threading.Lock()
_last_wired: HelpdeskDeps | None = None


def wired(deps: AnyDeps) -> HelpdeskDeps:
    """The helpdesk's collaborators for ``deps`` (the graph compiled once per process's AppDeps)."""
    global _last_wired
    if isinstance(deps, HelpdeskDeps):
        return deps
    with _wired_lock:
        if _last_wired is None or _last_wired.app is not deps:
            _last_wired = HelpdeskDeps(deps)
        return _last_wired
