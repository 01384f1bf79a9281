"""Who the tutor chat is talking to: the chat's own sign-in, the app's session (its cookie, or the id the app
hands over), the labels in that person's language and their conversations list."""

from __future__ import annotations

import html

import gradio as gr

from agents import auth
from agents.i18n import language, t
from agents.runtime.deps import process_deps
from agents.tutor import service
from ui import chat_failover

SESSION_COOKIE = chat_failover.SESSION_COOKIE  # the Streamlit app's session (ui/session.py)


def request_language(request: gr.Request | None) -> str:
    """The browser's preferred language (Accept-Language), for whoever has not signed in yet."""
    header = (request.headers.get("accept-language") if request is not None else None) or ""
    return language(header.split(",")[0].split(";")[0].strip() or None)


def relabel(user_ref: dict | None, request: gr.Request = None):
    """Every label in one language: the signed-in user's, else the browser's (the sign-in form)."""
    user = chat_user(user_ref)
    lang = user.language if user is not None else request_language(request)
    return [
        gr.update(label=t("auth.email", lang)),
        gr.update(label=t("auth.password", lang)),
        gr.update(value=t("auth.sign_in", lang)),
        gr.update(label=t("tutor.chat.label", lang)),
        gr.update(label=t("tutor.chat.placeholder", lang), placeholder=t("tutor.chat.placeholder", lang)),
        gr.update(value=t("tutor.chat.send", lang)),
        gr.update(value=t("tutor.chat.new", lang)),
        gr.update(value=t("tutor.chat.new", lang)),
        gr.update(label=t("tutor.chat.conversations", lang)),
        gr.update(label=t("tutor.chat.rename", lang)),
        gr.update(value=t("tutor.chat.rename", lang)),
        gr.update(value=t("tutor.chat.delete", lang)),
        gr.update(label=t("tutor.source.panel", lang)),
    ]


def conversation_choices(user) -> list[tuple[str, str]]:
    return [(s.title or "…", str(s.id)) for s in service.conversation_titles(process_deps(), user)]


def chat_user(user_ref: dict | None):
    """The signed-in user while their session lives (checked on every action)."""
    return auth.resume(process_deps(), user_ref["session"]) if user_ref else None


def _signed_in(user, session_id: str, context: dict) -> tuple:
    lesson = f"› {context['lesson_title']}" if context.get("lesson_title") else ""
    where = f" · {context.get('course_title') or ''} {lesson}"
    hello = f"**{html.escape(user.full_name)}** · {user.email}{where if context.get('course_title') else ''}"
    return (
        {"session": session_id},
        gr.update(visible=False),
        gr.update(visible=True),
        hello,
        gr.update(choices=conversation_choices(user), value=None),
        "",
    )


def sign_in(email: str, password: str, context: dict, request: gr.Request = None):
    """The chat's own sign-in (run alone): the same throttled check and server session as the app. The
    conversations sidebar appears once signed in (not in the course player's narrow frame)."""
    client = request.client.host if request is not None and request.client else None
    signed = auth.sign_in_with_password(process_deps(), email, password, client)
    if signed is None:
        return (
            None,
            gr.update(visible=True),
            gr.update(visible=False),
            "",
            gr.update(),
            gr.update(visible=False),
            t("auth.refused", request_language(request)),
        )
    *shown, status = _signed_in(signed.user, signed.token, context)
    return (*shown, gr.update(visible=not (context or {}).get("embed")), status)


def session_sign_in(session_id: str, course: str, lesson: str, request: gr.Request = None):
    """Sign in with the app's session id; course/lesson say what the learner is viewing."""
    user = auth.resume(process_deps(), session_id)
    context = {"course": course or None, "lesson": lesson or None}
    if user is None:
        return (
            None,
            gr.update(visible=True),
            gr.update(visible=False),
            "",
            gr.update(),
            t("auth.chat_session_over", request_language(request)) if session_id else "",
            context,
        )
    try:
        context.update(service.describe_context(process_deps(), user, context["course"], context["lesson"]))
    except service.TutorError as exc:
        return (*_signed_in(user, session_id, {})[:5], str(exc), {})
    return (*_signed_in(user, session_id, context), context)


def on_load(request: gr.Request):
    """Sign in with the app's session cookie. The sessions sidebar shows only to a signed-in learner, and not
    with ``embed=1`` (the course player's narrow column, where it would cover the whole frame: a "New chat"
    button under the chat stands in)."""
    params = dict(request.query_params) if request else {}
    compact = params.get("embed") == "1"
    cookies = dict(request.cookies) if request else {}
    signed = list(
        session_sign_in(cookies.get(SESSION_COOKIE, ""), params.get("course", ""), params.get("lesson", ""), request)
    )
    # what the learner has on screen beside the chat, and where the app's pages are (for links)
    signed[-1] = {
        **(signed[-1] or {}),
        "exercise": params.get("exercise") or None,
        "app": params.get("app") or None,
        "embed": compact,
        "open": params.get("session") or None,
    }  # a recent chat the app links to
    return (*signed, gr.update(visible=signed[0] is not None and not compact), gr.update(visible=compact))
