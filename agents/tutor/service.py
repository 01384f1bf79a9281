"""The tutor's one entry point for every caller (Gradio, Streamlit, the CLI, tests).

``run_turn`` validates the request, loads what the graph needs from the database (the session, its
memory, the exercise in progress), runs the graph and yields the protocol events of CONVENTIONS §3:
grounding · token* · citations · suggestions · done — or a single ``error`` with a one-line reason.
Session helpers answer "not found" for anybody else's session.
"""
from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from uuid import UUID

from agents.llm import get_llm
from agents.offline import detect_language
from agents.tutor.graph import tutor_graph
from agents.tutor.memory import budgets_for, prepare_history
from agents.tutor.state import TutorContext
from agents.refusals import refusal
from storage import chat, rate_limits, tutor_memory, users
from storage.db import app_pool
from storage.inputs import InputRefused, checked_text
from storage.learning import active_attempt

log = logging.getLogger(__name__)

AGENT = "tutor"
RATE_LIMIT_PER_MINUTE = 30
MAX_MESSAGE_CHARS = 2000  # the retrieval query limit
MAX_INPUT_CHARS = 50_000  # longer messages are refused outright; up to this they are cut to the above
TITLE_CHARS = 60

_ERRORS = {
    "EMPTY_MESSAGE": {"es": "Escribe una pregunta.", "en": "Please type a question."},
    "RATE_LIMITED": {"es": "Demasiadas preguntas seguidas: espera {retry_after} s y vuelve a intentarlo.",
                     "en": "Too many questions in a row: wait {retry_after} s and try again."},
    "SESSION_NOT_FOUND": {"es": "Conversación no encontrada.", "en": "Conversation not found."},
    "COURSE_NOT_FOUND": {"es": "Curso no encontrado: {ref}.", "en": "Course not found: {ref}."},
    "LESSON_NOT_FOUND": {"es": "Lección no encontrada: {ref}.", "en": "Lesson not found: {ref}."},
    "ACCOUNT_INACTIVE": {"es": "Tu cuenta está desactivada.", "en": "Your account is deactivated."},
    "AGENT_ERROR": {"es": "El tutor no pudo responder; inténtalo de nuevo.",
                    "en": "The tutor could not answer; please try again."},
}
_TRUNCATED = {"es": "(Tu mensaje era muy largo: he leído solo los primeros {n} caracteres.)\n\n",
              "en": "(Your message was very long: I read only its first {n} characters.)\n\n"}


class TutorError(Exception):
    """A request the tutor refuses; ``str()`` is one line in the user's language."""

    def __init__(self, code: str, language: str = "es", **values):
        texts = _ERRORS[code]
        super().__init__(texts.get(language, texts["en"]).format(**values))
        self.code = code
        self.values = values

    def event(self) -> dict:
        return {"event": "error", "data": {"message": str(self), "code": self.code, **self.values}}


def _lang(user: users.User) -> str:
    return user.language if user.language in ("es", "en") else "en"


def _active_user(conn, user: users.User) -> users.User:
    fresh = users.get_user(conn, user.org_id, user.id)
    if fresh is None or not fresh.is_active:
        raise TutorError("ACCOUNT_INACTIVE", _lang(user))
    return fresh


def _own_session(conn, user: users.User, session_id) -> chat.ChatSession:
    session = chat.get_session(conn, user.org_id, user.id, session_id, AGENT)
    if session is None:
        raise TutorError("SESSION_NOT_FOUND", _lang(user))
    return session


def resolve_context(conn, user: users.User, course: str | None, lesson: str | None) -> dict:
    """{"course_id", "course_title", "lesson_id", "lesson_title"} from ids or titles; unknown ones refused."""
    found: dict = {}
    if course:
        ref = tutor_memory.find_course(conn, user.org_id, course)
        if ref is None:
            raise TutorError("COURSE_NOT_FOUND", _lang(user), ref=str(course)[:80])
        found.update(course_id=str(ref.id), course_title=ref.title)
    if lesson:
        ref = tutor_memory.find_lesson(conn, user.org_id, lesson,
                                       UUID(found["course_id"]) if found else None)
        if ref is None:
            raise TutorError("LESSON_NOT_FOUND", _lang(user), ref=str(lesson)[:80])
        found.update(course_id=str(ref.course_id), course_title=ref.course_title,
                     lesson_id=str(ref.id), lesson_title=ref.title)
    return found


def _check_rate(pool, user: users.User, limit: int) -> None:
    # Requests, not stored messages, are counted (deleting a conversation gives none back), in a
    # transaction of their own so concurrent requests wait only for this one statement.
    with pool.connection() as conn:
        wait = rate_limits.take(conn, user.id, "tutor.message", limit, 60)
    if wait is not None:
        raise TutorError("RATE_LIMITED", _lang(user), retry_after=wait)


def new_session(user: users.User, *, course: str | None = None, lesson: str | None = None,
                pool=None) -> chat.ChatSession:
    with (pool or app_pool()).connection() as conn:
        _active_user(conn, user)
        context = resolve_context(conn, user, course, lesson)
        return chat.create_session(conn, user.org_id, user.id, AGENT, context=context)


def list_sessions(user: users.User, pool=None) -> list[chat.ChatSession]:
    with (pool or app_pool()).connection() as conn:
        return chat.list_sessions(conn, user.org_id, user.id, AGENT)


def session_messages(user: users.User, session_id, pool=None) -> list[chat.ChatMessage]:
    with (pool or app_pool()).connection() as conn:
        return chat.list_messages(conn, user.org_id, _own_session(conn, user, session_id).id)


def rename_session(user: users.User, session_id, title: str, pool=None) -> None:
    with (pool or app_pool()).connection() as conn:
        session = _own_session(conn, user, session_id)
        chat.rename_session(conn, user.org_id, user.id, session.id, " ".join(title.split())[:120] or "…")


def delete_session(user: users.User, session_id, pool=None) -> None:
    with (pool or app_pool()).connection() as conn:
        chat.delete_session(conn, user.org_id, user.id, _own_session(conn, user, session_id).id)


def run_turn(user: users.User, message: str, *, session_id=None, course: str | None = None,
             lesson: str | None = None, pool=None, llm=None,
             rate_limit: int = RATE_LIMIT_PER_MINUTE) -> Iterator[dict]:
    """Answer one message; yields protocol events ({"event": name, "data": {...}})."""
    started = time.monotonic()
    pool, llm = pool or app_pool(), llm or get_llm()
    try:
        state, ctx, session, notice = _prepare(pool, llm, user, message, session_id, course, lesson, rate_limit,
                                               started)
    except TutorError as exc:
        yield exc.event()
        return
    except InputRefused as exc:
        yield {"event": "error", "data": {"message": refusal(exc, _lang(user)), "code": exc.code.upper()}}
        return
    final: dict = {}
    try:
        for mode, chunk in tutor_graph().stream(state, context=ctx, stream_mode=["custom", "values"]):
            if mode == "values":
                final = chunk
                continue
            yield chunk
            if notice and chunk["event"] == "grounding":
                ctx.first_token_at.append(time.monotonic())
                yield {"event": "token", "data": {"content": notice}}
        yield _finish(pool, ctx, session, final, started, truncated=bool(notice))
    except Exception:
        log.exception("tutor turn failed")
        yield TutorError("AGENT_ERROR", _lang(user)).event()


def _prepare(pool, llm, user, message, session_id, course, lesson, rate_limit, started):
    language = _lang(user)
    text = checked_text(message, limit=MAX_INPUT_CHARS).strip()  # before anything reads it
    if not text:
        raise TutorError("EMPTY_MESSAGE", language)
    _check_rate(pool, user, rate_limit)
    with pool.connection() as conn:
        user = _active_user(conn, user)
        session = _own_session(conn, user, session_id) if session_id else None
        context = resolve_context(conn, user, course, lesson) if (course or lesson) else None
        if session is None:
            session = chat.create_session(conn, user.org_id, user.id, AGENT, title=" ".join(text.split())[:TITLE_CHARS],
                                          context=context)
        elif context is not None:
            chat.update_context(conn, user.org_id, session.id, context)
        context = context if context is not None else session.context
        answer_language = detect_language(text[:500], default=language)
        answer_language = answer_language if answer_language in ("es", "en") else language
        budgets = budgets_for(llm.engine, llm.capabilities().context_tokens)
        history, summary = prepare_history(conn, llm, user.org_id, session, answer_language, budgets["history"])
        attempt = active_attempt(conn, user.org_id, user.id)
        org = users.get_org(conn, user.org_id)
        notice = ""
        if len(text) > MAX_MESSAGE_CHARS:
            text = text[:MAX_MESSAGE_CHARS]
            notice = _TRUNCATED[answer_language].format(n=MAX_MESSAGE_CHARS)
        chat.add_message(conn, user.org_id, session.id, "user", text)
        if not session.title:
            chat.rename_session(conn, user.org_id, user.id, session.id, " ".join(text.split())[:TITLE_CHARS])
    state = {
        "message": text, "language": answer_language, "history": history, "history_summary": summary,
        "course_id": context.get("course_id"), "course_title": context.get("course_title"),
        "lesson_id": context.get("lesson_id"), "lesson_title": context.get("lesson_title"),
        "attempt": None if attempt is None else {
            "exercise_id": str(attempt.exercise_id), "type": attempt.type, "prompt": attempt.prompt,
            "content": attempt.content, "correct_texts": attempt.correct_texts,
            "lesson_id": str(attempt.lesson_id)},
        "rewrites": 0, "tokens_used": 0,
    }
    ctx = TutorContext(pool=pool, llm=llm, org_id=user.org_id, org_name=org.name if org else "",
                       user_id=user.id, user_name=user.full_name.split()[0], budgets=budgets, started=started)
    return state, ctx, session, notice


def _excerpt(text: str, limit: int = 600) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit].rsplit(" ", 1)[0] + "…"


def _finish(pool, ctx: TutorContext, session: chat.ChatSession, final: dict, started: float, *,
            truncated: bool) -> dict:
    ttft = int((ctx.first_token_at[0] - started) * 1000) if ctx.first_token_at else None
    passages = {p["index"]: p for p in final.get("passages") or []}
    citations = [{**c, "excerpt": _excerpt(passages[c["index"]]["text"])} for c in final.get("citations", [])]
    metadata = {
        "citations": citations, "rung": final.get("rung"),
        "retrieval_source": final.get("retrieval_source"), "intent": final.get("intent"),
        "engine": final.get("engine"), "language": final.get("language"),
        "retrieval_latency_ms": final.get("retrieval_latency_ms", 0),
        "generation_latency_ms": final.get("generation_latency_ms", 0), "ttft_ms": ttft,
        "tokens_used": final.get("tokens_used", 0), "low_confidence": final.get("low_confidence", False),
        "removed_citations": final.get("removed_citations", []), "suggestions": final.get("suggestions", []),
        "hint_mode": bool(final.get("attempt")), "rewrites": final.get("rewrites", 0), "truncated": truncated,
        "fallback": final.get("fallback"), "unsupported": final.get("unsupported", []),
    }
    with pool.connection() as conn:
        saved = chat.add_message(conn, ctx.org_id, session.id, "assistant", final.get("response", ""), metadata)
    return {"event": "done", "data": {
        "message_id": str(saved.id), "tokens_used": metadata["tokens_used"],
        "retrieval_source": metadata["retrieval_source"],
        "retrieval_latency_ms": metadata["retrieval_latency_ms"],
        "generation_latency_ms": metadata["generation_latency_ms"], "ttft_ms": ttft,
        "engine": metadata["engine"], "low_confidence": metadata["low_confidence"],
        **({"fallback": metadata["fallback"]} if metadata["fallback"] else {})}}


def describe_context(user: users.User, course: str | None, lesson: str | None, pool=None) -> dict:
    """Titles (and ids) for a course/lesson reference; TutorError when either is unknown."""
    if not (course or lesson):
        return {}
    with (pool or app_pool()).connection() as conn:
        return resolve_context(conn, user, course, lesson)
