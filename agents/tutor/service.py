"""The tutor's one entry point for every caller (Gradio, Streamlit, the CLI, tests).

``run_turn`` validates the request, loads what the graph needs from the database (the session, its
memory, the exercise in progress), runs the graph and yields the turn's events (``core.turns``, docs/conventions.md §3):
Grounding · Token* · Citations · Suggestions · Done — or a single Error with a one-line reason.
Session helpers answer "not found" for anybody else's session.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from datetime import datetime, timedelta
from uuid import UUID

from agents.i18n import t
from agents.llm.memory import budgets_for, prepare_history
from agents.offline import message_language
from agents.runtime.deps import AppDeps, Embedder
from agents.runtime.refusals import refusal
from agents.tutor import guided
from agents.tutor.adapt import exercise_level
from agents.tutor.graph import graph_events
from agents.tutor.guardrails import is_about_exercise
from agents.tutor.state import TutorContext
from agents.tutor.turn_end import finish_turn
from core.inputs import InputRefused, checked_text
from core.turns import Error, TurnEvent
from storage import attempts as attempt_store
from storage import chat, rate_limits, users
from storage import courses as course_store
from storage import exercises as exercise_store
from storage import lessons as lesson_store
from storage.db import reading, relax_durability

log = logging.getLogger(__name__)

AGENT = "tutor"
RATE_LIMIT_PER_MINUTE = 30
MAX_MESSAGE_CHARS = 2000  # the retrieval query limit
MAX_INPUT_CHARS = 50_000  # longer messages are refused outright; up to this they are cut to the above
TITLE_CHARS = 60

ATTEMPT_MAX_IDLE = timedelta(minutes=30)  # an exercise left this long is no longer "in progress"


class TutorError(Exception):
    """A request the tutor refuses; ``str()`` is one line in the user's language."""

    def __init__(self, code: str, language: str = "es", **values):
        super().__init__(t(f"tutor.error.{code.lower()}", language, **values))
        self.code = code
        self.values = values

    def event(self) -> Error:
        return Error(str(self), self.code, **self.values)


def session_title(text: str, limit: int = TITLE_CHARS) -> str:
    """The first words of a message, cut at a word boundary (an ellipsis says it was cut)."""
    words = " ".join(text.split())
    if len(words) <= limit:
        return words
    cut = words[:limit].rsplit(" ", 1)[0]
    return (cut if len(cut) >= limit // 2 else words[:limit]).rstrip(" ,.;:") + "…"


def _lang(user: users.User) -> str:
    return user.language if user.language in ("es", "en") else "en"


def _active_user(conn, user: users.User) -> tuple[users.User, str]:
    """The user as stored now, and their organisation's name; refused when the account is deactivated."""
    found = users.get_user_and_org_name(conn, user.org_id, user.id)
    if found is None or not found[0].is_active:
        raise TutorError("ACCOUNT_INACTIVE", _lang(user))
    return found


def _in_progress(conn, user: users.User, from_exercise, now: datetime | None) -> attempt_store.ActiveAttempt | None:
    """The user's open, not abandoned exercise attempt; ``from_exercise`` must be one of the org's exercises."""
    if from_exercise and exercise_store.get_exercise(conn, user.org_id, from_exercise) is None:
        raise TutorError("EXERCISE_NOT_FOUND", _lang(user), ref=str(from_exercise)[:80])
    return attempt_store.active_attempt(conn, user.org_id, user.id, now=now, max_idle=ATTEMPT_MAX_IDLE)


def hint_scope(attempt: attempt_store.ActiveAttempt | None, message: str, from_exercise, embedder: Embedder) -> bool:
    """Hint-only answers are the exception (003's "active quiz context"): the question is asked from the
    course player with that exercise on screen, or it is recognisably about it."""
    if attempt is None:
        return False
    if from_exercise:
        return str(from_exercise) == str(attempt.exercise_id)
    return is_about_exercise(message, _attempt_state(attempt), embedder)


def _attempt_state(attempt: attempt_store.ActiveAttempt) -> dict:
    return {
        "exercise_id": str(attempt.exercise_id),
        "attempt_id": str(attempt.attempt_id),
        "type": attempt.type,
        "prompt": attempt.prompt,
        "content": attempt.content,
        "correct_texts": attempt.correct_texts,
        "lesson_id": str(attempt.lesson_id),
    }


def _own_session(conn, user: users.User, session_id) -> chat.ChatSession:
    session = chat.get_session(conn, user.org_id, user.id, session_id, AGENT)
    if session is None:
        raise TutorError("SESSION_NOT_FOUND", _lang(user))
    return session


def resolve_context(conn, user: users.User, course: str | None, lesson: str | None) -> dict:
    """{"course_id", "course_title", "lesson_id", "lesson_title"} from ids or titles; unknown ones refused."""
    found: dict = {}
    if course:
        ref = course_store.find_course(conn, user.org_id, course, user.language)
        if ref is None:
            raise TutorError("COURSE_NOT_FOUND", _lang(user), ref=str(course)[:80])
        found.update(course_id=str(ref.id), course_title=ref.title)
    if lesson:
        lesson_ref = lesson_store.find_lesson(
            conn, user.org_id, lesson, UUID(found["course_id"]) if found else None, user.language
        )
        if lesson_ref is None:
            raise TutorError("LESSON_NOT_FOUND", _lang(user), ref=str(lesson)[:80])
        found.update(
            course_id=str(lesson_ref.course_id),
            course_title=lesson_ref.course_title,
            lesson_id=str(lesson_ref.id),
            lesson_title=lesson_ref.title,
        )
    return found


def _check_rate(pool, user: users.User, limit: int, endpoint: str = "tutor.message") -> None:
    # Requests, not stored messages, are counted (deleting a conversation gives none back), in a
    # transaction of their own so concurrent requests wait only for this one statement.
    with pool.connection() as conn:
        relax_durability(conn)  # a hit lost in a crash lets one more request through
        wait = rate_limits.take(conn, user.id, endpoint, limit, 60)
    if wait is not None:
        raise TutorError("RATE_LIMITED", _lang(user), retry_after=wait)


def new_session(
    deps: AppDeps, user: users.User, *, course: str | None = None, lesson: str | None = None
) -> chat.ChatSession:
    with deps.pool.connection() as conn:
        relax_durability(conn)  # an empty conversation lost in a crash is nothing lost
        _active_user(conn, user)
        context = resolve_context(conn, user, course, lesson)
        return chat.create_session(conn, user.org_id, user.id, AGENT, context=context)


def list_sessions(deps: AppDeps, user: users.User) -> list[chat.ChatSession]:
    with deps.pool.connection() as conn:
        return chat.list_sessions(conn, user.org_id, user.id, AGENT)


def conversation_titles(deps: AppDeps, user: users.User) -> list[chat.SessionTitle]:
    """The conversations list, newest first: ids and titles."""
    with deps.pool.connection() as conn:
        return chat.list_session_titles(conn, user.org_id, user.id, AGENT)


def session_messages(deps: AppDeps, user: users.User, session_id) -> list[chat.ChatMessage]:
    with deps.pool.connection() as conn:
        return chat.list_messages(conn, user.org_id, _own_session(conn, user, session_id).id)


def rate_answer(deps: AppDeps, user: users.User, session_id, position: int, helpful: bool | None) -> bool:
    """The learner's 👍/👎 (None: taken back) on the answer at ``position`` of their own conversation, as the
    chat shows it; an answer that didn't help counts as a knowledge-gap signal (storage/gaps.py)."""
    _check_rate(deps.pool, user, RATE_LIMIT_PER_MINUTE, "tutor.manage")  # Gradio exposes it as an API
    with deps.pool.connection() as conn:
        session = _own_session(conn, user, session_id)
        messages = chat.list_messages(conn, user.org_id, session.id)
        if not 0 <= position < len(messages) or messages[position].role != "assistant":
            return False
        return chat.record_helpful(conn, user.org_id, session.id, messages[position].id, helpful)


def rename_session(deps: AppDeps, user: users.User, session_id, title: str) -> None:
    _check_rate(deps.pool, user, RATE_LIMIT_PER_MINUTE, "tutor.manage")  # Gradio exposes it as an API
    with deps.pool.connection() as conn:
        session = _own_session(conn, user, session_id)
        chat.rename_session(conn, user.org_id, user.id, session.id, session_title(title, 120) or "…")


def delete_session(deps: AppDeps, user: users.User, session_id) -> None:
    _check_rate(deps.pool, user, RATE_LIMIT_PER_MINUTE, "tutor.manage")  # Gradio exposes it as an API
    with deps.pool.connection() as conn:
        chat.delete_session(conn, user.org_id, user.id, _own_session(conn, user, session_id).id)


def run_turn(
    deps: AppDeps,
    user: users.User,
    message: str,
    *,
    session_id=None,
    course: str | None = None,
    lesson: str | None = None,
    from_exercise=None,
    rate_limit: int = RATE_LIMIT_PER_MINUTE,
    now: datetime | None = None,
) -> Iterator[TurnEvent]:
    """Answer one message; yields its events (``core.turns``).

    ``from_exercise``: the exercise on screen beside the chat (the course player), which is what makes
    an open attempt hint-only; ``now`` replaces the clock that open attempts expire by (tests)."""
    started = time.monotonic()
    pool, llm = deps.pool, deps.llm
    try:
        state, ctx, session, notice = _prepare(
            pool, llm, user, message, session_id, course, lesson, rate_limit, started, from_exercise, now, deps
        )
    except TutorError as exc:
        yield exc.event()
        return
    except InputRefused as exc:
        yield Error(refusal(exc, _lang(user)), exc.code.upper())
        return
    ctx.now, ctx.embedder = now or deps.now(), deps
    try:
        final = yield from graph_events(state, ctx, notice)
        yield finish_turn(pool, ctx, session, final, started, notice=notice)
    except Exception:
        log.exception("tutor turn failed")
        yield TutorError("AGENT_ERROR", _lang(user)).event()


def _prepare(pool, llm, user, message, session_id, course, lesson, rate_limit, started, from_exercise, now, embedder):
    language = _lang(user)
    text = checked_text(message, limit=MAX_INPUT_CHARS).strip()  # before anything reads it
    if not text:
        raise TutorError("EMPTY_MESSAGE", language)
    _check_rate(pool, user, rate_limit)
    with reading(pool) as conn:  # reads first; no connection is held while a model is called
        user, org_name = _active_user(conn, user)
        session = _own_session(conn, user, session_id) if session_id else None
        context = resolve_context(conn, user, course, lesson) if (course or lesson) else None
        attempt = _in_progress(conn, user, from_exercise, now)
    answer_language = message_language(text[:500], default=language)
    answer_language = answer_language if answer_language in ("es", "en") else language
    capabilities = llm.capabilities()  # the first call per engine probes the server
    budgets = budgets_for(llm.engine, capabilities.context_tokens, capabilities.slow)
    history, summary = (
        ([], None)
        if session is None
        else prepare_history(  # may summarise with the model
            pool, llm, user.org_id, session, answer_language, budgets["history"]
        )
    )
    if not hint_scope(attempt, text, from_exercise, embedder):
        attempt = None
    notice = ""
    if len(text) > MAX_MESSAGE_CHARS:
        text = text[:MAX_MESSAGE_CHARS]
        notice = t("tutor.truncated", answer_language, n=MAX_MESSAGE_CHARS)
    with pool.connection() as conn:
        relax_durability(conn)  # the answer's commit, an ordinary one, makes the question durable with it
        if session is None:
            session = chat.create_session(conn, user.org_id, user.id, AGENT, title=session_title(text), context=context)
        elif context is not None:
            chat.update_context(conn, user.org_id, session.id, context)
        chat.add_message(conn, user.org_id, session.id, "user", text)
        if not session.title:
            chat.rename_session(conn, user.org_id, user.id, session.id, session_title(text))
    context = context if context is not None else session.context
    guide = session.context.get("guide")  # a guiding question waiting for this reply (agents/tutor/guided.py)
    reply = guided.reply_to(guide, text)
    if reply and (waiting := guided.pending(guide)):  # the answer is to the pending question, in its language
        text, answer_language, guess = waiting["question"], waiting["language"], text
    state = {
        "message": text,
        "language": answer_language,
        "guide": guide,
        "guided_reply": reply,
        "guess": guess if reply == "guess" else None,
        "history": history,
        "history_summary": summary,
        "course_id": context.get("course_id"),
        "course_title": context.get("course_title"),
        "lesson_id": context.get("lesson_id"),
        "lesson_title": context.get("lesson_title"),
        "attempt": None if attempt is None else _attempt_state(attempt),
        "hint_level": 0
        if attempt is None  # the learner's record in the course may start them on a fuller hint (issue 29)
        else exercise_level(pool, user.org_id, user.id, attempt.exercise_id, attempt.hints_given),
        "rewrites": 0,
        "tokens_used": 0,
    }
    ctx = TutorContext(
        pool=pool,
        llm=llm,
        org_id=user.org_id,
        org_name=org_name,
        user_id=user.id,
        user_name=user.full_name.split()[0],
        budgets=budgets,
        started=started,
    )
    return state, ctx, session, notice


def describe_context(deps: AppDeps, user: users.User, course: str | None, lesson: str | None) -> dict:
    """Titles (and ids) for a course/lesson reference; TutorError when either is unknown."""
    if not (course or lesson):
        return {}
    with deps.pool.connection() as conn:
        return resolve_context(conn, user, course, lesson)


def run_to_answer(deps: AppDeps, user: users.User, message: str, **options) -> Iterator[TurnEvent]:
    """One question straight to its answer's events, in a conversation of its own (the evals): on a guided
    course the tutor first asks and waits (agents/tutor/guided.py), so the learner's way out is sent for them."""
    try:
        session = new_session(deps, user)
    except TutorError as exc:
        yield exc.event()
        return
    first = list(run_turn(deps, user, message, session_id=session.id, **options))
    with deps.pool.connection() as conn:
        waiting = guided.pending(_own_session(conn, user, session.id).context.get("guide"))
    if not waiting:
        yield from first
        return
    yield from run_turn(deps, user, t("tutor.guide.reveal", waiting["language"]), session_id=session.id, **options)
