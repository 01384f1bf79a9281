"""Which check the output gate runs on a finished model reply, by the kind of turn, and the reply's token budget (also
the server's max_tokens): an off-topic redirect (redirect_check.py), small talk (chitchat_check.py), the learner's
record (progress_check.py), a general answer to a document question no document answers (general_check.py). An
answer from the documents is held to its passages by the gate itself (gate.py)."""

from __future__ import annotations

from collections.abc import Callable

from agents.tutor.answers import not_grounded
from agents.tutor.chitchat_check import CHITCHAT_TOKENS, chitchat_check
from agents.tutor.general_check import GENERAL_TOKENS, general_check
from agents.tutor.progress_check import PROGRESS_TOKENS, progress_check, record_of
from agents.tutor.redirect_check import REDIRECT_TOKENS, redirect_check
from agents.tutor.state import TutorContext, TutorState


def reply_check(
    state: TutorState, ctx: TutorContext, instructions: str, budget: int
) -> tuple[int, Callable[[str], str | None] | None]:
    """(the reply's token budget, the check of the whole reply, or None) for this turn."""
    message, language = state["message"], state["language"]
    if state.get("intent") == "off_topic":  # a short redirect, held to being one
        courses = [e["course"] for e in (state.get("progress") or {}).get("enrollments") or []]
        return min(budget, REDIRECT_TOKENS), redirect_check(message, language, ctx.org_name, instructions, courses)
    if state.get("intent") == "chitchat":  # a short reply to what was said, nothing else
        return min(budget, CHITCHAT_TOKENS), chitchat_check(message, language, instructions)
    if state.get("retrieval_source") == "db":  # only what the learner's record holds
        record = record_of(state, ctx.now.date(), [ctx.user_name, ctx.org_name])
        return min(budget, PROGRESS_TOKENS[record.kind]), progress_check(record, language, instructions)
    if not_grounded(state):  # a short answer to the question asked, framed as general knowledge
        return min(budget, GENERAL_TOKENS), general_check(message, language, ctx.org_name, instructions, ctx.embedder)
    return budget, None
