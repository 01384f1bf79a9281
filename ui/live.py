"""Panels that follow background work (an upload being ingested, a generation job) without racing the page.

A fragment with ``run_every`` makes the browser ask for a rerun on its own clock, whatever the server is
doing. In Streamlit 1.67 such a request that lands just after a full run ended, while that run's last
messages still wait on the server's event loop, starts a new script runner, and the finished runner's
waiting messages are dropped (``AppSession`` ignores events from a runner that is no longer current): the
page stays half-redrawn — a block drawn twice, the rest missing, a click's outcome never shown. A request
for a fragment the last full run did not register is dropped instead, harmlessly. So a live panel is a
self-refreshing fragment only while the work it follows is busy; the fragment run that sees the work reach
a new stage reruns the whole page, and a page showing settled work (a review, a form) draws the panel as
plain elements, with no timer that could race its clicks."""
from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import TypeVar

import streamlit as st

REFRESH_SECONDS = 2
Seen = TypeVar("Seen")


def live_panel(key: str, observe: Callable[[], Seen], draw: Callable[[Seen], None], *,
               stage: Callable[[Seen], Hashable], busy: Callable[[Seen], bool]) -> Seen:
    """Draw what ``observe()`` returns; while it is ``busy``, observe and draw again every 2 s, and rerun the
    whole page when its ``stage`` changes. Returns what this run of the page observed."""
    seen = observe()
    if not busy(seen):
        draw(seen)
        return seen
    st.session_state[key] = stage(seen)

    @st.fragment(run_every=REFRESH_SECONDS)
    def follow() -> None:
        now = observe()
        draw(now)
        if stage(now) != st.session_state.get(key):
            st.rerun()    # a new stage: the rest of the page (review panels, buttons) must be drawn for it

    follow()
    return seen
