"""Panels that follow background work (an upload being ingested, a generation job) without racing the page.

A fragment with ``run_every`` makes the browser ask for a fragment rerun on its own clock, whatever the
server is doing. In Streamlit 1.67 a request that lands just after a full run ended, while that run's last
messages still wait on the server's event loop, starts a new script runner, and the finished runner's
waiting messages are dropped (``AppSession`` ignores events from a runner that is no longer current; see the
comment in ``AppSession.request_rerun``): its "script finished" never reaches the browser, so what the
previous run drew and this one did not is never cleared — a block drawn twice, a review left under a job
that is running again — until the next full run ends cleanly, which on a waiting job can be minutes away.

Two rules keep that harmless:
- the panel is one fragment in every run (busy or not), drawn last on its page, so everything a run can
  leave behind lies inside that fragment's block, and the browser clears a fragment's leftovers each time a
  run of that fragment finishes (a late timer tick included);
- it refreshes itself (``run_every``) only while the work it follows is busy: with a review or a form on
  screen there is no timer that could race the admin's clicks. The fragment run that sees the work reach a
  new stage reruns the whole page (the jobs table above it changes too)."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import TypeVar

import streamlit as st

REFRESH_SECONDS = 2
Seen = TypeVar("Seen")


def live_panel(
    key: str,
    observe: Callable[[], Seen],
    draw: Callable[[Seen], None],
    *,
    stage: Callable[[Seen], Hashable],
    busy: Callable[[Seen], bool],
) -> None:
    """Draw what ``observe()`` returns in one fragment; while it is ``busy``, observe and draw again every 2 s,
    and rerun the whole page when its ``stage`` changes. Call it last on the page (see the module's note)."""
    seen = observe()
    st.session_state[key] = stage(seen)
    first = [True]  # the call below runs inside this page run: it draws what the page just observed

    @st.fragment(run_every=REFRESH_SECONDS if busy(seen) else None)
    def panel() -> None:
        now = seen if first[0] else observe()
        first[0] = False
        draw(now)
        if stage(now) != st.session_state.get(key):
            st.rerun()  # a new stage: the rest of the page (the jobs table, the job picker) changes too

    panel()
