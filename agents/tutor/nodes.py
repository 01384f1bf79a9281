"""The tutor's nodes: plain functions of state that return only the keys they change.

Dependencies (pool, model, clock) arrive in ``runtime.context`` (a TutorContext); protocol events
(grounding, token, citations, suggestions) leave through ``runtime.stream_writer``.
"""

from __future__ import annotations

import itertools
import re
import time
from uuid import UUID

from langgraph.runtime import Runtime
from pydantic import BaseModel

from agents.i18n import code_label, language_name, t
from agents.offline import match_exemplars, stream_words
from agents.retrieval import Passage, ground
from agents.retrieval.passages import trim_passages
from agents.tutor import adapt, prompts
from agents.tutor.answer_check import about_the_course, answering_passage, answers_question
from agents.tutor.answers import (
    closest_material,
    next_steps,
    offline_answer,
    suggestions,
)
from agents.tutor.citations import (
    CitationStream,
    name_manual_sections,
    pinpoint,
    renumbered,
    validate,
)
from agents.tutor.gate import AnswerGate, unsupported_sentences
from agents.tutor.guardrails import find_leaks, hint_header, normalize, socratic_hint
from agents.tutor.state import Intent, TutorContext, TutorState
from storage.progress import progress_summary

MAX_REWRITES = 2

# Whole-message greetings and unmistakable progress phrases decide without a model call (000 §1.3).
_GREETINGS = {
    "hola",
    "hi",
    "hello",
    "hey",
    "buenas",
    "buenos dias",
    "buenas tardes",
    "buenas noches",
    "good morning",
    "gracias",
    "muchas gracias",
    "thanks",
    "thank you",
    "adios",
    "bye",
    "chao",
    "hasta luego",
    "ok gracias",
    "vale gracias",
}
_PROGRESS = re.compile(
    r"\b(mi progreso|my progress|mis notas?|my (scores?|grades?)|mi puntaje|cuanto llevo|"
    r"fechas? limite|deadlines?|como voy|how am i doing|repasos? pendientes?|reviews? due|"
    r"mis cursos|my courses|mis habilidades|my skills)\b"
)
# The offline classifier's exemplars (matched by embedding similarity).
_EXEMPLARS = {
    "academic": [
        "¿Cuál es el plazo para devolver un producto?",
        "¿Qué hago si un cliente pide un reembolso?",
        "Explícame el procedimiento de seguridad",
        "How do I handle a customer complaint?",
        "What is the policy for refunds?",
        "Explain the steps of the opening checklist",
        # questions about the learner's own entitlements are policy questions, not progress
        "How many days of holiday am I entitled to?",
        "Can I take unpaid leave for a family reason?",
        "¿Me pagan las horas extra si trabajo un festivo?",
    ],
    "progress": [
        "¿Qué cursos tengo pendientes?",
        "¿Cuándo vence mi curso?",
        "¿Qué nota saqué?",
        "Which courses do I have left?",
        "When is my course due?",
        "What score did I get?",
    ],
    "off_topic": [
        "¿Quién ganó el partido de fútbol ayer?",
        "Dame una receta de paella",
        "¿Qué tiempo hará mañana?",
        "Who won the football match last night?",
        "Tell me a celebrity gossip story",
        "Who should I vote for in the election?",
        "Cuéntame un chiste",
        "Tell me a joke",
        "Recomiéndame una serie de Netflix",
        "What movie should I watch tonight?",
    ],
}
# e5 similarities bunch together, so a label must beat the academic reading by a margin; progress
# also needs the learner to be talking about themselves.
_OFF_TOPIC_MARGIN = 0.04
_PROGRESS_MARGIN = 0.03
_ABOUT_ME = re.compile(r"\b(mi|mis|me|my|i|am|yo)\b")


class IntentChoice(BaseModel):
    intent: Intent


def heuristic_intent(message: str) -> Intent | None:
    plain = normalize(message)
    if plain in _GREETINGS:
        return "chitchat"
    if _PROGRESS.search(plain):
        return "progress"
    return None


def offline_intent(message: str, in_course: bool) -> Intent:
    override = heuristic_intent(message)
    if override:
        return override
    scores = {label: match_exemplars(message, {label: examples})[1] for label, examples in _EXEMPLARS.items()}
    if scores["off_topic"] - max(scores["academic"], scores["progress"]) >= _OFF_TOPIC_MARGIN:
        return "off_topic"
    if _ABOUT_ME.search(normalize(message)) and scores["progress"] - scores["academic"] >= _PROGRESS_MARGIN:
        return "progress"
    return "in_course" if in_course else "cross_course"


def classify_intent(state: TutorState, runtime: Runtime[TutorContext]) -> dict:
    message, in_course = state["message"], bool(state.get("course_id"))
    override = heuristic_intent(message)
    if override:
        return {"intent": override}
    ctx = runtime.context
    user = prompts.CLASSIFY_USER.format(
        where="inside a course" if in_course else "not inside any course (general chat)",
        course=state.get("course_title") or "None",
        lesson=state.get("lesson_title") or "None",
        message=message[:2000],
    )
    choice = ctx.llm.structured(
        "classifier",
        [{"role": "system", "content": prompts.CLASSIFY_SYSTEM}, {"role": "user", "content": user}],
        IntentChoice,
        twin=lambda: IntentChoice(intent=offline_intent(message, in_course)),
    )
    intent = choice.value.intent
    if intent == "in_course" and not in_course:
        intent = "cross_course"
    return {"intent": intent}


def route_after_classify(state: TutorState) -> str:
    intent = state["intent"]
    if intent == "in_course" and state.get("course_id"):
        return "retrieve_course_context"
    if intent in ("in_course", "cross_course"):
        return "retrieve_semantic"
    if intent == "progress":
        return "retrieve_progress"
    return "skip_retrieval"


def _announce(runtime: Runtime[TutorContext], rung: str, source: str) -> None:
    runtime.stream_writer({"event": "grounding", "data": {"rung": rung, "source": source}})


def _grounded(state: TutorState, runtime: Runtime[TutorContext], course_id: str | None) -> dict:
    ctx = runtime.context
    started = time.perf_counter()
    message, checked = state["message"], not state.get("attempt")

    def search(scope: str | None) -> tuple[str, str, list[Passage]]:
        lesson_id = state.get("lesson_id") if scope else None
        grounding = ground(
            ctx.pool,
            ctx.org_id,
            ctx.user_id,
            message,
            course_id=UUID(scope) if scope else None,
            lesson_id=UUID(lesson_id) if lesson_id else None,
            llm=ctx.llm,
        )
        return grounding.rung, grounding.source, trim_passages(grounding.passages, ctx.budgets["retrieved_context"])

    rung, source, passages = search(course_id)
    answered = not passages or not checked or answers_question(message, tuple(passages))
    if course_id and passages and checked and about_the_course(message):
        answered = True  # "¿Qué es lo más importante de este curso?": the course in view is what is asked about
    if not answered and course_id:  # the course doesn't answer it; the company's documents may (issue 29)
        rung, source, passages = search(None)
        answered = not passages or answers_question(message, tuple(passages))
    if not answered:
        rung, passages = "general", []  # retrieved, but no sentence answers (issue 29)
    if rung == "general":  # searched and found nothing: not a turn that needed no documents
        source = "pageindex" if course_id else "semantic"
    _announce(runtime, rung, source)
    closest = closest_material(ctx.pool, ctx.org_id, message) if rung == "general" else []
    return {
        "rung": rung,
        "retrieval_source": source,
        "passages": passages,
        "closest": closest,
        "context": "\n\n---\n\n".join(_label(p) + "\n" + p.text for p in passages),
        "retrieval_latency_ms": int((time.perf_counter() - started) * 1000),
    }


def _label(passage: Passage) -> str:
    where = " > ".join(part for part in (passage.document, passage.section) if part)
    page = f", p. {passage.page}" if passage.page else ""
    return f"[Source {passage.index}: {where}{page}]"


def retrieve_course_context(state: TutorState, runtime: Runtime[TutorContext]) -> dict:
    """The course in view first (course tree, then its documents), via the grounding ladder."""
    return _grounded(state, runtime, state.get("course_id"))


def retrieve_semantic(state: TutorState, runtime: Runtime[TutorContext]) -> dict:
    """Company-wide search for questions outside (or not tied to) a course."""
    return _grounded(state, runtime, None)


def _progress(runtime: Runtime[TutorContext], language: str) -> dict:
    ctx = runtime.context
    with ctx.pool.connection() as conn:
        return progress_summary(conn, ctx.org_id, ctx.user_id, lang=language)


def retrieve_progress(state: TutorState, runtime: Runtime[TutorContext]) -> dict:
    """The learner's own data, straight from the database (no documents involved)."""
    started = time.perf_counter()
    progress = _progress(runtime, state["language"])
    _announce(runtime, "general", "db")
    return {
        "rung": "general",
        "retrieval_source": "db",
        "passages": [],
        "progress": progress,
        "context": _progress_context(progress),
        "retrieval_latency_ms": int((time.perf_counter() - started) * 1000),
    }


def _progress_context(progress: dict) -> str:
    lines = [
        f"- {e['course']}: {e['status']}, {e['progress']:.0%} done"
        + (f", deadline {e['deadline']}" if e.get("deadline") else "")
        + (f", score {e['score']:.0%}" if e.get("score") is not None else "")
        for e in progress.get("enrollments", [])
    ]
    lines += [f"- skill {s['skill']} ({s['category']}): {s['level']}" for s in progress.get("skills", [])]
    lines.append(f"- reviews due now: {progress.get('reviews_due', 0)}")
    lines += [f"- recently failed: {f['exercise']} ({f['course']})" for f in progress.get("recent_failures", [])]
    return "\n".join(lines)


def skip_retrieval(state: TutorState, runtime: Runtime[TutorContext]) -> dict:
    """Greetings and off-topic messages: no material, only the learner's courses to suggest from."""
    _announce(runtime, "general", "none")
    return {
        "rung": "general",
        "retrieval_source": "none",
        "passages": [],
        "context": "",
        "progress": _progress(runtime, state["language"]),
        "retrieval_latency_ms": 0,
    }


def adapt_to_learner(state: TutorState, runtime: Runtime[TutorContext]) -> dict:
    """The course the learner is taking that the question is on, and their record in it (issue 29): an open
    exercise has its own hint levels, and a question with no material has nothing to guide towards."""
    passages = state.get("passages") or []
    if state.get("attempt") or state.get("intent") not in ("in_course", "cross_course") or not passages:
        return {"learner": None}
    # what the answer leans on, not every passage retrieved: a course is recognised, and its guiding question
    # named, by the section that answers (a vacation question is not on the security course that a fifth
    # passage came from)
    lead = answering_passage(state["message"], tuple(passages))
    if lead is None:
        return {"learner": None}
    ctx = runtime.context
    view = adapt.learner_view(
        ctx.pool, ctx.org_id, ctx.user_id, state["language"], state.get("course_id"), [lead], ctx.now
    )
    return {"learner": view}


def _framing(state: TutorState) -> tuple[str, str]:
    """The guided course's opening question and the closing pointer to what helps (both deterministic)."""
    learner, language = state.get("learner"), state["language"]
    return adapt.preface(learner, state["message"], state.get("passages") or [], language), adapt.coda(
        learner, language
    )


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
            system += "\n" + prompts.HINT_MATERIAL.format(index=own[0].index, where=_label(own[0])[1:-1])
    opening, _ = _framing(state)
    if opening:
        level = state["learner"]["level"]  # type: ignore[index]
        system += "\n\n" + prompts.GUIDED_MODE.format(opening=opening.strip(), support=prompts.SUPPORT_RULES[level])
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
    hold_back = bool(state.get("attempt"))
    passages = state.get("passages") or []
    cleaner = CitationStream({p.index for p in passages})

    def twin() -> str:
        if state.get("leaks"):
            return socratic_hint(state.get("attempt") or {}, passages, state["language"], state.get("hint_level") or 1)
        return offline_answer(state, ctx.user_name, ctx.org_name)

    gate = AnswerGate(
        language=state["language"],
        max_tokens=ctx.llm.answer_tokens("generator", ctx.budgets["generation_reserve"]),
        needs_citation=bool(passages)
        and state.get("intent") in ("in_course", "cross_course")
        and not state.get("attempt"),
    )
    stream = ctx.llm.stream(
        "generator",
        _messages(state, ctx),
        twin=twin,
        max_tokens=gate.max_tokens,
        deadline_s=ctx.llm.settings.answer_seconds,
    )
    judged = not ctx.llm.offline
    opening, closing = _framing(state)
    parts: list[str] = [opening] if opening else []
    if opening and not hold_back:
        _token(runtime, opening)
    for token in itertools.chain(stream, [None]):
        clean = cleaner.feed(token) if token is not None else cleaner.flush()
        if clean:
            parts.append(clean)
            if not hold_back:
                _token(runtime, clean)
            if judged and stream.engine != "offline" and gate.feed(clean):
                stream.reject(gate.reason)
                break
    draft, engine, fallback, replaced = "".join(parts) + closing, stream.engine, None, False
    if judged and stream.engine == "offline":  # the stream fell back to the twin before any model text
        fallback = stream.outcome.split(":", 1)[-1]
    elif judged and gate.finish(stream.outcome, stream.finish_reason):
        fallback, draft, engine, replaced = gate.reason, opening + twin() + closing, "offline", True
        if not hold_back:  # the client clears what it showed; post_process streams the twin's answer
            runtime.stream_writer(
                {
                    "event": "fallback",
                    "data": {
                        "reason": fallback,
                        "message": t(
                            "engine.fallback_notice",
                            state["language"],
                            reason=code_label("fallback", fallback, state["language"]),
                        ),
                    },
                }
            )
    if closing and not hold_back and not replaced:  # after the gate's verdict: a replaced answer gets it again
        _token(runtime, closing)
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
    runtime.stream_writer({"event": "token", "data": {"content": text}})


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
    with ctx.pool.connection() as conn:
        citations = pinpoint(conn, ctx.org_id, response, [passages[n] for n in cited])
        citations = name_manual_sections(conn, ctx.org_id, citations, state["language"], state.get("course_id"))
    removed = (state.get("removed_citations") or []) + removed
    opening, closing = _framing(state)  # our own words around the answer: not claims a passage must back
    unsupported = (
        unsupported_sentences(response.replace(opening, "").replace(closing, ""), list(passages.values()), cited)
        if state.get("engine") != "offline" and passages
        else []
    )
    reason = (
        "removed_citations"
        if removed
        else "unsupported"
        if unsupported
        else "uncited"
        if passages and not citations and not state.get("attempt")
        else "not_grounded"
        if state.get("rung") == "general" and state.get("intent") in ("in_course", "cross_course")
        else None
    )
    follow_ups = suggestions(state, citations)
    actions = adapt.lesson_action(state.get("learner"), state["language"]) + next_steps(state)
    # each with the passage its [n] points at, shortened: the chat draws the sources from this event alone
    runtime.stream_writer({"event": "citations", "data": {"citations": [c.shown() for c in citations]}})
    runtime.stream_writer({"event": "suggestions", "data": {"suggestions": follow_ups, "actions": actions}})
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
