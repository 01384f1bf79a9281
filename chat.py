"""The tutor chat (Gradio): sign in, ask, watch the answer stream with its sources.

`python chat.py` runs it alone (port SKILLNET_CHAT_PORT, default 7860); the Streamlit app starts it
once in-process and embeds it (``?course=…&lesson=…``). The frame is on the same host, so the browser
sends it the app's session cookie: a learner signed in there is signed in here, with no token in the
address, and a sign-out anywhere ends the chat's session on its next action too. Everything it shows
comes from ``agents.tutor.service``.
"""
from __future__ import annotations

import html
import time

import gradio as gr

from agents import auth
from agents.i18n import code_label, t
from agents.tutor import service
from storage import config
from storage.markup import safe_markdown

UPDATE_INTERVAL = 0.05  # seconds between streamed screen updates (~20 per second)
SUGGESTION_SLOTS = 3

_BADGES = {  # (rung or source) -> (css class, English, Spanish)
    "chunks": ("company", "Company document", "Documento de la empresa"),
    "document": ("course", "Enrolled-course document", "Documento de tu curso"),
    "general": ("general", "General knowledge", "Conocimiento general"),
    "db": ("progress", "Your learning data", "Tus datos de aprendizaje"),
    "none": ("general", "No documents needed", "Sin documentos"),
}
_SOURCES = {"es": "Fuentes", "en": "Sources"}
_LOW_CONFIDENCE = {"es": "Algunas referencias no correspondían a ninguna fuente y se han quitado.",
                   "en": "Some references matched no source and were removed."}

CSS = """
.badge {display:inline-block;padding:2px 10px;border-radius:12px;font-size:0.85em;margin-right:6px}
.badge.company {background:#dcfce7;color:#166534} .badge.course {background:#dbeafe;color:#1e3a8a}
.badge.general {background:#fef3c7;color:#92400e} .badge.progress {background:#ede9fe;color:#5b21b6}
.badge.engine {background:#f1f5f9;color:#334155}
#tutor-chat-box {min-height:0;max-height:calc(100vh - 24px)}
#tutor-chatbot {flex:1 1 0 !important;min-height:160px !important}
#tutor-input-row {flex-wrap:nowrap;align-items:stretch}
#tutor-input-row > * {min-width:0}
#tutor-chips {flex-wrap:wrap}
#tutor-chips button {flex:1 1 auto;min-width:0}
@media (max-width: 640px) {
  .gradio-container {padding:4px !important}
  #tutor-send {font-size:0.85em;padding:4px 8px}
}
"""


def badge_html(rung: str | None, source: str | None, engine: str | None, language: str) -> str:
    key = source if source in ("db", "none") else rung
    if key not in _BADGES:
        return ""
    css, english, spanish = _BADGES[key]
    label = spanish if language == "es" else english
    engine_label = f'<span class="badge engine">⚙ {html.escape(engine)}</span>' if engine else ""
    return f'<span class="badge {css}">{html.escape(label)}</span>{engine_label}'


def render_answer(text: str, metadata: dict, language: str) -> str:
    """The answer, then its numbered sources; each source opens to show the cited passage."""
    parts = [safe_markdown(text).strip()]  # other people's Markdown: no outside image or link
    if metadata.get("fallback"):
        parts.insert(0, "_" + t("engine.fallback_notice", language,
                                reason=code_label("fallback", metadata["fallback"], language)) + "_")
    citations = metadata.get("citations") or []
    if citations:
        lines = [f"**{_SOURCES.get(language, 'Sources')}**"]
        for c in citations:
            where = " › ".join(html.escape(safe_markdown(p)) for p in (c.get("document"), c.get("section")) if p)
            page = f", p. {c['page']}" if c.get("page") else ""
            lines.append(f"<details><summary>[{c['index']}] {where}{page}</summary>\n\n"
                         f"{html.escape(safe_markdown(c.get('excerpt')))}\n\n</details>")
        parts.append("\n".join(lines))
    if metadata.get("removed_citations"):
        parts.append(f"_{_LOW_CONFIDENCE.get(language, _LOW_CONFIDENCE['en'])}_")
    elif metadata.get("unsupported"):
        parts.append(f"_{t('engine.low_confidence', language)}_")
    badge = badge_html(metadata.get("rung"), metadata.get("retrieval_source"), metadata.get("engine"), language)
    if badge:
        parts.append(badge)
    return "\n\n".join(parts)


def _history(user, session_id) -> list[dict]:
    shown = []
    for message in service.session_messages(user, session_id):
        content = safe_markdown(message.content) if message.role == "user" else render_answer(
            message.content, message.metadata, message.metadata.get("language") or user.language)
        shown.append({"role": message.role, "content": content})
    return shown


def _session_choices(user) -> list[tuple[str, str]]:
    return [(s.title or "…", str(s.id)) for s in service.list_sessions(user)]


SESSION_COOKIE = "skillnet_session"  # the Streamlit app's session (ui/session.py)


def _user(user_ref: dict | None):
    """The signed-in user while their session lives (checked on every action)."""
    return auth.resume(user_ref["session"]) if user_ref else None


def _chips(suggestions: list[str]) -> list:
    padded = (suggestions + [""] * SUGGESTION_SLOTS)[:SUGGESTION_SLOTS]
    return [gr.update(value=s, visible=bool(s)) for s in padded]


def _signed_in(user, session_id: str, context: dict) -> tuple:
    where = f" · {context.get('course_title') or ''} {('› ' + context['lesson_title']) if context.get('lesson_title') else ''}"
    hello = f"**{html.escape(user.full_name)}** · {user.email}{where if context.get('course_title') else ''}"
    return ({"session": session_id}, gr.update(visible=False), gr.update(visible=True),
            hello, gr.update(choices=_session_choices(user), value=None), "")


def sign_in(email: str, password: str, context: dict, request: gr.Request = None):
    """The chat's own sign-in (run alone): the same throttled check and server session as the app."""
    client = request.client.host if request is not None and request.client else None
    signed = auth.sign_in_with_password(email, password, client)
    if signed is None:
        return (None, gr.update(visible=True), gr.update(visible=False), "", gr.update(),
                t("auth.refused", None))
    return _signed_in(signed.user, signed.token, context)


def session_sign_in(session_id: str, course: str, lesson: str):
    """Sign in with the app's session id; course/lesson say what the learner is viewing."""
    user = auth.resume(session_id)
    context = {"course": course or None, "lesson": lesson or None}
    if user is None:
        return (None, gr.update(visible=True), gr.update(visible=False), "", gr.update(),
                t("auth.chat_session_over", None) if session_id else "", context)
    try:
        context.update(service.describe_context(user, context["course"], context["lesson"]))
    except service.TutorError as exc:
        return (*_signed_in(user, session_id, {})[:5], str(exc), {})
    return (*_signed_in(user, session_id, context), context)


def on_load(request: gr.Request):
    """Sign in with the app's session cookie; ``embed=1`` (the course player's narrow column) hides the sessions sidebar,
    which would otherwise cover the whole frame, and shows a "New chat" button under the chat instead."""
    params = dict(request.query_params) if request else {}
    compact = params.get("embed") == "1"
    cookies = dict(request.cookies) if request else {}
    return (*session_sign_in(cookies.get(SESSION_COOKIE, ""), params.get("course", ""), params.get("lesson", "")),
            gr.update(visible=not compact), gr.update(visible=compact))


def respond(message: str, history: list, user_ref: dict | None, session_id: str | None, context: dict):
    """Stream one answer; yields (chatbot, textbox, session, chip×3, sessions, status)."""
    keep = [gr.skip()] * (SUGGESTION_SLOTS + 1)  # chips and the sessions list
    user = _user(user_ref)
    if user is None:
        yield (history, message, session_id, *keep, "Please sign in first. / Inicia sesión primero.")
        return
    history = list(history or []) + [{"role": "user", "content": safe_markdown(message)},
                                     {"role": "assistant", "content": "…"}]
    try:
        if not session_id and (message or "").strip():
            session_id = str(service.new_session(user, course=(context or {}).get("course"),
                                                 lesson=(context or {}).get("lesson")).id)
    except service.TutorError as exc:
        history[-1]["content"] = f"⚠️ {exc}"
        yield (history, message, session_id, *keep, str(exc))
        return
    yield (history, "", session_id, *keep, "")
    answer, status, last = "", "", 0.0
    suggestions: list[str] = []
    for event in service.run_turn(user, message, session_id=session_id):
        name, data = event["event"], event["data"]
        if name == "grounding":
            status = badge_html(data["rung"], data["source"], None, user.language)
        elif name == "fallback":  # the model's text was rejected: clear it, the twin's answer follows
            answer = ""
            history[-1]["content"] = f"_{data['message']}_"
            yield (history, gr.skip(), session_id, *keep, status)
        elif name == "token":
            answer += data["content"]
            if time.monotonic() - last >= UPDATE_INTERVAL:
                last = time.monotonic()
                history[-1]["content"] = safe_markdown(answer)  # streamed text is rendered too
                yield (history, gr.skip(), session_id, *keep, status)
        elif name == "suggestions":
            suggestions = data["suggestions"]
        elif name == "error":
            history[-1]["content"] = f"⚠️ {data['message']}"
            yield (history, gr.skip(), session_id, *keep, data["message"])
            return
        elif name == "done":
            saved = service.session_messages(user, session_id)[-1]
            language = saved.metadata.get("language") or user.language
            history[-1]["content"] = render_answer(saved.content, saved.metadata, language)
            status = badge_html(saved.metadata.get("rung"), saved.metadata.get("retrieval_source"),
                                saved.metadata.get("engine"), language)
    yield (history, gr.skip(), session_id, *_chips(suggestions),
           gr.update(choices=_session_choices(user), value=session_id), status)


def open_session(session_id: str, user_ref: dict | None):
    """Show one of the user's conversations; anybody else's id answers "not found"."""
    user = _user(user_ref)
    if user is None or not session_id:
        return gr.skip(), gr.skip(), "Please sign in first. / Inicia sesión primero." if user is None else ""
    try:
        return _history(user, session_id), session_id, ""
    except service.TutorError as exc:
        return [], None, str(exc)


def new_chat():
    return [], None, *_chips([]), gr.update(value=None), ""


def rename(session_id: str | None, title: str, user_ref: dict | None):
    user = _user(user_ref)
    if user is None or not session_id or not (title or "").strip():
        return gr.skip(), ""
    try:
        service.rename_session(user, session_id, title)
    except service.TutorError as exc:
        return gr.skip(), str(exc)
    return gr.update(choices=_session_choices(user), value=session_id), ""


def delete(session_id: str | None, user_ref: dict | None):
    user = _user(user_ref)
    if user is None or not session_id:
        return gr.skip(), gr.skip(), gr.skip(), ""
    try:
        service.delete_session(user, session_id)
    except service.TutorError as exc:
        return gr.skip(), gr.skip(), gr.skip(), str(exc)
    return [], None, gr.update(choices=_session_choices(user), value=None), ""


def build_app() -> gr.Blocks:
    with gr.Blocks(title="SkillNet tutor", fill_height=True) as app:
        user_ref, session, context = gr.State(None), gr.State(None), gr.State({})
        with gr.Column(visible=True) as login_box:
            gr.Markdown("## 🎓 SkillNet tutor")
            email = gr.Textbox(label="Email")
            password = gr.Textbox(label="Password / Contraseña", type="password")
            sign_in_button = gr.Button("Sign in / Entrar", variant="primary")
        # the chat fills the frame and its history takes what is left, so the input row stays in view
        with gr.Column(visible=False, scale=1, elem_id="tutor-chat-box") as chat_box:
            who = gr.Markdown()
            chatbot = gr.Chatbot(label="Tutor", scale=1, height=None, feedback_options=None, buttons=["copy"],
                                 elem_id="tutor-chatbot")
            with gr.Row(elem_id="tutor-chips"):
                chips = [gr.Button(visible=False, size="sm", variant="secondary", min_width=0)
                         for _ in range(SUGGESTION_SLOTS)]
            with gr.Row(elem_id="tutor-input-row"):
                box = gr.Textbox(show_label=False, placeholder="Ask your tutor… / Pregunta a tu tutor…", scale=8,
                                 max_length=20_000, min_width=0)
                send = gr.Button("Send / Enviar", variant="primary", scale=1, min_width=70, elem_id="tutor-send")
            with gr.Row(visible=False) as compact_bar:
                inline_new = gr.Button("+ New chat / Nueva conversación", size="sm")
        status = gr.HTML()
        with gr.Sidebar(label="Conversations / Conversaciones", open=True) as sidebar:
            new_button = gr.Button("+ New chat / Nueva conversación")
            sessions = gr.Radio(label="Conversations / Conversaciones", choices=[])
            title = gr.Textbox(label="Rename / Renombrar", max_lines=1)
            with gr.Row():
                rename_button = gr.Button("Rename / Renombrar", size="sm")
                delete_button = gr.Button("Delete / Borrar", size="sm", variant="stop")
            session_lookup = gr.Textbox(visible=False)

        signed = [user_ref, login_box, chat_box, who, sessions, status]
        sign_in_button.click(sign_in, [email, password, context], signed, api_name="sign_in")
        password.submit(sign_in, [email, password, context], signed, api_name=False)
        session_box, course_box, lesson_box = gr.Textbox(visible=False), gr.Textbox(visible=False), gr.Textbox(visible=False)
        session_box.submit(session_sign_in, [session_box, course_box, lesson_box], [*signed, context],
                           api_name="session_sign_in")
        app.load(on_load, None, [*signed, context, sidebar, compact_bar], api_name=False)

        turn_outputs = [chatbot, box, session, *chips, sessions, status]
        send.click(respond, [box, chatbot, user_ref, session, context], turn_outputs, api_name="chat")
        box.submit(respond, [box, chatbot, user_ref, session, context], turn_outputs, api_name=False)
        for chip in chips:
            chip.click(respond, [chip, chatbot, user_ref, session, context], turn_outputs, api_name=False)
        sessions.input(open_session, [sessions, user_ref], [chatbot, session, status], api_name=False)
        session_lookup.submit(open_session, [session_lookup, user_ref], [chatbot, session, status],
                              api_name="open_session")
        new_button.click(new_chat, None, [chatbot, session, *chips, sessions, status], api_name="new_chat")
        inline_new.click(new_chat, None, [chatbot, session, *chips, sessions, status], api_name=False)
        rename_button.click(rename, [session, title, user_ref], [sessions, status], api_name="rename")
        delete_button.click(delete, [session, user_ref], [chatbot, session, sessions, status], api_name="delete")
    return app


def chat_port() -> int:
    return config.get("SKILLNET_CHAT_PORT")


def launch(*, port: int | None = None, block: bool = True) -> gr.Blocks:
    """Start the chat server (``block=False``: in the background, for app.py and tests)."""
    app = build_app().queue(default_concurrency_limit=32)
    app.launch(server_port=port or chat_port(), css=CSS, prevent_thread_lock=not block, quiet=not block,
               footer_links=[])
    return app


def main() -> None:
    from seeds.loader import load_demo_if_empty
    from storage.db import app_pool

    load_demo_if_empty(app_pool())  # run alone on an empty database, the demo accounts can sign in
    launch()


if __name__ == "__main__":
    main()
