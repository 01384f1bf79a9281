"""The output gate of a turn's model reply (gate.py), by the kind of turn: the check it runs on the finished reply, the
reply's token budget (also the server's max_tokens) and the titles it may quote from the learner's record. An
off-topic redirect (redirect_check.py), small talk (chitchat_check.py), the learner's record (progress_check.py: its
titles are not the reply's own words), a general answer to a document question no document answers
(general_check.py). An answer from the documents is held to its passages (cited) by the gate itself."""

from __future__ import annotations

from collections.abc import Callable

from agents.tutor.answers import not_grounded
from agents.tutor.chitchat_check import CHITCHAT_TOKENS, chitchat_check
from agents.tutor.gate import AnswerGate
from agents.tutor.general_check import GENERAL_TOKENS, general_check
from agents.tutor.progress_check import PROGRESS_TOKENS, progress_check, record_of
from agents.tutor.redirect_check import REDIRECT_TOKENS, redirect_check
from agents.tutor.state import TutorContext, TutorState


def reply_gate(state: TutorState, ctx: TutorContext, instructions: str, budget: int) -> AnswerGate:
    """The gate of this turn's model reply; ``budget`` is the generator's, ``instructions`` its system prompt."""
    max_tokens, judge, titles = _reply_check(state, ctx, instructions, budget)
    needs_citation = state.get("intent") in ("in_course", "cross_course") and not state.get("attempt")
    return AnswerGate(
        language=state["language"],
        max_tokens=max_tokens,
        needs_citation=bool(state.get("passages")) and needs_citation,
        judge=judge,
        titles=titles,
    )


def _reply_check(
    state: TutorState, ctx: TutorContext, instructions: str, budget: int
) -> tuple[int, Callable[[str], str | None] | None, tuple[str, ...]]:
    """(the reply's token budget, the check of the whole reply or None, the record's titles it may quote)."""
    message, language = state["message"], state["language"]
    if state.get("intent") == "off_topic":  # a short redirect, held to being one
        courses = [e["course"] for e in (state.get("progress") or {}).get("enrollments") or []]
        return min(budget, REDIRECT_TOKENS), redirect_check(message, language, ctx.org_name, instructions, courses), ()
    if state.get("intent") == "chitchat":  # a short reply to what was said, nothing else
        return min(budget, CHITCHAT_TOKENS), chitchat_check(message, language, instructions), ()
    if state.get("retrieval_source") == "db":  # only what the learner's record holds
        record = record_of(state, ctx.now.date(), [ctx.user_name, ctx.org_name])
        return min(budget, PROGRESS_TOKENS[record.kind]), progress_check(record, language, instructions), record.titles
    if not_grounded(state):  # a short answer to the question asked, framed as general knowledge
        return (
            min(budget, GENERAL_TOKENS),
            general_check(message, language, ctx.org_name, instructions, ctx.embedder),
            (),
        )
    return budget, None, ()
