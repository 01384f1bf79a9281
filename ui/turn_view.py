"""One agent turn drawn as it streams (``core.turns``), the same for every Streamlit page: each step's
label as it starts, the reply as it is written."""

from __future__ import annotations

from typing import Any, TypeVar

from core.markup import safe_markdown
from core.turns import Replace, Step, Token, Turn, TurnEvent, finish

R = TypeVar("R")


class TurnView:
    """Draws events: a step's label into ``steps`` (an ``st.empty`` shows the latest, a container each in
    turn), the reply so far into ``reply`` (an ``st.empty``); ``labels`` are the steps seen."""

    def __init__(self, steps: Any, reply: Any = None) -> None:
        self._steps, self._reply = steps, reply
        self.labels: list[str] = []
        self._shown: list[str] = []

    def __call__(self, event: TurnEvent) -> None:
        if isinstance(event, Step):
            self.labels.append(event.label)
            self._steps.caption(event.label)
            return
        if isinstance(event, Replace):  # the agent refused what it showed: it all goes
            self._shown[:] = [event.text]
        elif isinstance(event, Token):
            self._shown.append(event.text)
        if self._reply is not None:
            self._reply.markdown(safe_markdown("".join(self._shown)))


def draw_turn(turn: Turn[R], steps: Any, reply: Any = None) -> tuple[R, list[str]]:
    """Play ``turn`` drawn into ``steps`` and ``reply`` (see TurnView); its result and the steps' labels."""
    view = TurnView(steps, reply)
    return finish(turn, view), view.labels
