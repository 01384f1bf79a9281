"""The tutor's answering nodes (classify.py and retrieve.py hold the first steps): plain functions of state
that return only the keys they change.

Dependencies (pool, model, clock) arrive in ``runtime.context`` (a TutorContext); protocol events
(grounding, token, citations, suggestions) leave through its ``emit``.
"""

from __future__ import annotations

import itertools
import time

from langgraph.runtime import Runtime

from agents.i18n import code_label, language_name, t
from agents.offline import stream_words
from agents.tutor import adapt, guided, prompts
from agents.tutor.answer_check import answering, ranked_sentences
from agents.tutor.answers import general_rung_frame, next_steps, offline_answer, suggestions
from agents.tutor.chip_answers import twin_chip_answer
from agents.tutor.chip_questions import NAMED, offerable
from agents.tutor.citations import (
    CitationStream,
    name_manual_sections,
    pinpoint,
    renumbered,
    validate,
)
from agents.tutor.due_today import due_today_text
from agents.tutor.gate import unsupported_sentences
from agents.tutor.guardrails import find_leaks, hint_header, socratic_hint
from agents.tutor.next_step import next_step_action, next_step_text, reviews_action
from agents.tutor.reply_checks import reply_gate
from agents.tutor.retrieve import passage_label
from agents.tutor.state import TutorContext, TutorState
from core.turns import Citations, Fallback, Suggestions, Token
from storage.db import reading

MAX_REWRITES = 2


def adapt_to_learner(state: TutorState, runtime: Runtime[TutorContext]) -> dict:
    """The course the learner is taking that the question is on, and their record in it (issue 29): an open
    exercise has its own hint levels, and a question with no material has nothing to guide towards. In a
    guided course, whether this turn asks first (agents/tutor/guided.py) and how a guess compares."""
    passages = state.get("passages") or []
    lead = None
    if not state.get("attempt") and state.get("intent") in ("in_course", "cross_course") and passages:
        # what the answer leans on, not every passage retrieved: a course is recognised, and its guiding
        # question named, by the section that answers (a vacation question is not on the security course that
        # a fifth passage came from)
        ranked = ranked_sentences(state["message"], tuple(passages), runtime.context.embedder)
        lead = answering(state["message"], ranked, runtime.context.embedder, runtime.context.org_name)
    ctx, view, listed = runtime.context, None, ""
    if lead is not None:
        lead_passage = next(p for p in passages if p.index == lead.number)
        listed = guided.the_list_of(lead.sentence, lead_passage.text)
        view = adapt.learner_view(
            ctx.pool,
            ctx.org_id,
            ctx.user_id,
            state["language"],
            state.get("course_id"),
            [lead_passage],
            ctx.now,
            lead.sentence,
        )
    if view and view["mode"] == "guided" and view["topic_language"] != state["language"]:
        # a heading the learner can read: that of a passage in her language that answers too, if any
        if own := adapt.answering_in(state["language"], state["message"], ranked, passages, ctx.embedder, ctx.org_name):
            view = adapt.named_by(ctx.pool, ctx.org_id, view, *own)
    guide, guess = state.get("guide"), state.get("guess")
    turn = {
        "learner": view,
        "guided_turn": None,
        "guide_next": guided.settled(guide),
        "guess_feedback": guided.feedback(guess, lead.sentence if lead else None, state["language"], listed)
        if guess
        else None,
    }
    # a reply to the pending question, a new question asked instead of replying (never two questions in a
    # row), the topic just asked about, or a way out with nothing to get out of: answered
    if view and view["mode"] == "guided" and not state.get("guided_reply") and not guided.pending(guide):
        if not guided.repeats_topic(guide, view) and not guided.way_out(state["message"]):
            turn.update(guided_turn="ask", guide_next=guided.asked(state["message"], state["language"], view))
    return turn


def _framing(state: TutorState) -> tuple[str, str]:
    """The feedback on a guess that opens the answer and the closing pointer to what helps (deterministic)."""
    feedback = state.get("guess_feedback")
    return (f"{feedback}\n\n" if feedback else ""), adapt.coda(state.get("learner"), state["language"])


def _messages(state: TutorState, ctx: TutorContext) -> list[dict]:
    source = state.get("retrieval_source", "none")
    rule = prompts.GROUNDING_RULES["db" if source == "db" else "none" if source == "none" else state["rung"]]
    system = prompts.SYSTEM.format(
        org_name=ctx.org_name,
        user_name=ctx.user_name,
        grounding_rule=rule,
        language_name=language_name(state["language"]),
    )
    attempt = state.get("attempt")
    if attempt:
        level = state.get("hint_level") or 1
        system += "\n\n" + prompts.HINT_MODE.format(
            exercise_type=attempt["type"],
            exercise_prompt=attempt["prompt"],
            level=level,
            level_rule=prompts.HINT_LEVEL_RULES[level],
        )
        own = [p for p in state.get("passages") or [] if p.source_id in (attempt.get("source_ids") or ())]
        if own:  # its own material comes first (agents/tutor/exercise_material.py)
            system += "\n" + prompts.HINT_MATERIAL.format(index=own[0].index, where=passage_label(own[0])[1:-1])
    if state.get("next_step"):
        system += "\n\n" + prompts.NEXT_STEP
    elif state.get("due_today"):
        system += "\n\n" + prompts.DUE_TODAY
    if reply := state.get("guided_reply"):
        level = (state.get("learner") or {}).get("level", 1)
        system += "\n\n" + prompts.GUIDED_REPLY[reply].format(
            guess=state.get("guess"), feedback=state.get("guess_feedback"), support=prompts.SUPPORT_RULES[level]
        )
    messages = [{"role": "system", "content": system}]
    if state.get("history_summary"):
        messages.append(
            {"role": "system", "content": f"Summary of the earlier conversation: {state['history_summary']}"}
        )
    messages += state.get("history") or []
    template = prompts.PROGRESS_BLOCK if source == "db" else prompts.CONTEXT_BLOCK
    messages.append(
        {
            "role": "user",
            "content": template.format(context=state["context"], message=state["message"])
            if state.get("context")
            else state["message"],
        }
    )
    if state.get("leaks"):
        messages.append({"role": "assistant", "content": state["draft"]})
        messages.append(
            {"role": "user", "content": prompts.REWRITE.format(leaks="; ".join(state["leaks"]), draft=state["draft"])}
        )
    return messages


def generate_response(state: TutorState, runtime: Runtime[TutorContext]) -> dict:
    """Stream the answer through the output gate. While an exercise is open, the draft is held back
    until reflection passes it. A model answer the gate rejects is replaced by the twin's (issue 13)."""
    ctx = runtime.context
    started = time.perf_counter()
    if state.get("guided_turn") == "ask":  # the guiding question alone: the answer waits for the reply
        question = adapt.guiding_question(state["learner"] or {}, state["message"], state["language"])
        _token(runtime, question)
        return {
            "draft": question,
            "streamed": True,
            "citation_order": [],
            "engine": "offline" if ctx.llm.offline else "rules",
        }
    hold_back = bool(state.get("attempt"))
    passages = state.get("passages") or []
    cleaner = CitationStream({p.index for p in passages})

    def twin() -> str:
        if state.get("leaks"):
            return socratic_hint(state.get("attempt") or {}, passages, state["language"], state.get("hint_level") or 1)
        if state.get("retrieval_source") == NAMED:
            return twin_chip_answer(state)
        if step := state.get("next_step"):
            return next_step_text(step, state["language"])
        if due := state.get("due_today"):
            return due_today_text(due, state["language"])
        return offline_answer(state, ctx.user_name, ctx.org_name, ctx.embedder)

    messages, budget = _messages(state, ctx), ctx.llm.answer_tokens("generator", ctx.budgets["generation_reserve"])
    gate = reply_gate(state, ctx, messages[0]["content"], budget)  # the checks for the turn's kind
    stream = ctx.llm.stream(
        "generator",
        messages,
        twin=twin,
        max_tokens=gate.max_tokens,
        deadline_s=ctx.llm.settings.answer_seconds,
    )
    judged = not ctx.llm.offline
    opening, closing = _framing(state)
    frame_open, frame_close = general_rung_frame(state, ctx.org_name) if judged else ("", "")
    parts: list[str] = [opening] if opening else []
    if opening and not hold_back:
        _token(runtime, opening)
    for token in itertools.chain(stream, [None]):
        clean = cleaner.feed(token) if token is not None else cleaner.flush()
        if clean and frame_open and stream.engine != "offline":  # the model's words come: say what they are first
            parts.append(frame_open)
            if not hold_back:
                _token(runtime, frame_open)
            frame_open = ""
        if clean:
            parts.append(clean)
            if not hold_back:
                _token(runtime, clean)
            if judged and stream.engine != "offline" and gate.feed(clean):
                stream.reject(gate.reason)
                break
    frame_close = frame_close if stream.engine != "offline" else ""
    draft, engine, fallback, replaced = "".join(parts) + frame_close + closing, stream.engine, None, False
    if judged and stream.engine == "offline":  # the stream fell back to the twin before any model text
        fallback = stream.outcome.split(":", 1)[-1]
    elif judged and (verdict := gate.finish(stream.outcome, stream.finish_reason)):
        fallback, draft, engine, replaced = verdict, opening + twin() + closing, "offline", True
        if not hold_back:  # the client clears what it showed; post_process streams the twin's answer
            reason = code_label("fallback", verdict, state["language"])
            runtime.context.emit(Fallback(verdict, t("engine.fallback_notice", state["language"], reason=reason)))
    if (frame_close or closing) and not hold_back and not replaced:  # after the gate's verdict: a replaced
        _token(runtime, frame_close + closing)  # answer is streamed whole, closing included, by post_process
    return {
        "draft": draft,
        "streamed": not hold_back and not replaced,
        "citation_order": None if replaced else cleaner.order,
        "engine": engine,
        "fallback": fallback,
        "tokens_used": state.get("tokens_used", 0) + stream.tokens_in + stream.tokens_out,
        "generation_latency_ms": int((time.perf_counter() - started) * 1000),
        "removed_citations": (state.get("removed_citations") or []) + cleaner.removed,
    }


def _token(runtime: Runtime[TutorContext], text: str) -> None:
    ctx = runtime.context
    if not ctx.first_token_at:
        ctx.first_token_at.append((ctx.clock or time.monotonic)())
    runtime.context.emit(Token(text))


def route_after_generate(state: TutorState) -> str:
    """Reflection only when an exercise is open and the draft gives something away (003)."""
    return "reflect" if find_leaks(state["draft"], state.get("attempt")) else "post_process"


def reflect(state: TutorState, runtime: Runtime[TutorContext]) -> dict:
    """Send a leaking draft back for a Socratic rewrite; after two, fall back to the safe hint."""
    leaks = find_leaks(state["draft"], state.get("attempt"))
    rewrites = state.get("rewrites", 0)
    if rewrites < MAX_REWRITES:
        return {"leaks": leaks, "rewrites": rewrites + 1}
    safe = socratic_hint(
        state.get("attempt") or {}, state.get("passages") or [], state["language"], state.get("hint_level") or 1
    )
    return {"leaks": [], "draft": safe, "citation_order": None, "rewrites": rewrites, "engine": "offline"}


def route_after_reflect(state: TutorState) -> str:
    return "generate_response" if state.get("leaks") else "post_process"


def post_process(state: TutorState, runtime: Runtime[TutorContext]) -> dict:
    """Validate citations, deliver a held-back answer, and send citations and suggestions."""
    ctx = runtime.context
    passages = {p.index: p for p in state.get("passages") or []}
    if (numbered := state.get("citation_order")) is not None:  # the stream numbered the sources as they appeared
        order = list(numbered)
        response, _, removed = validate(state["draft"], set(range(1, len(order) + 1)))
    else:  # the twin's or the safe hint's text: numbered here
        order = []
        response, _, removed = validate(state["draft"], set(passages), order)
    passages = renumbered(passages, order)
    cited = list(range(1, len(order) + 1))
    if state.get("attempt"):  # the learner sees which of the graded hints this is
        response = f"**{hint_header(state.get('hint_level') or 1, state['language'])}**\n\n{response}"
    if not state.get("streamed"):
        for token in stream_words(response):
            _token(runtime, token)
    asking = state.get("guided_turn") == "ask"
    with reading(ctx.pool) as conn:
        citations = pinpoint(conn, ctx.org_id, response, [passages[n] for n in cited])
        citations = name_manual_sections(conn, ctx.org_id, citations, state["language"], state.get("course_id"))
        follow_ups = (
            [t("tutor.guide.reveal", state["language"])]  # the way out of the guiding question: its one chip
            if asking
            else offerable(conn, ctx.org_id, state["message"], suggestions(state, citations))
        )
    removed = (state.get("removed_citations") or []) + removed
    opening, closing = _framing(state)  # our own words around the answer: not claims a passage must back
    unsupported = (
        unsupported_sentences(
            response.replace(opening, "").replace(closing, ""), list(passages.values()), cited, ctx.embedder
        )
        if state.get("engine") != "offline" and passages and not state.get("guided_turn")
        else []
    )
    reason = (
        "removed_citations"
        if removed
        else "unsupported"
        if unsupported
        else "uncited"
        if passages and not citations and not (state.get("attempt") or state.get("guided_turn"))
        else "not_grounded"  # a model's own words on a document question; the offline refusal says so itself
        if state.get("rung") == "general"
        and state.get("intent") in ("in_course", "cross_course")
        and state.get("engine") != "offline"
        else None
    )
    actions = (
        []
        if asking
        else adapt.lesson_action(state.get("learner"), state["language"])
        + next_step_action(state.get("next_step"), state["language"])
        + reviews_action(state.get("next_step"), state.get("due_today"), state["language"])
        + next_steps(state)
    )
    # each with the passage its [n] points at, shortened: the chat draws the sources from this event alone
    runtime.context.emit(Citations([c.shown() for c in citations]))
    runtime.context.emit(Suggestions(follow_ups, actions))
    return {
        "response": response,
        "passages": list(passages.values()),
        "citations": citations,
        "suggestions": follow_ups,
        "actions": actions,
        "low_confidence": reason is not None,
        "low_confidence_reason": reason,
        "removed_citations": removed,
        "unsupported": unsupported,
    }
