"""The tutor chat (Gradio): sign in, ask, watch the answer stream with its sources.

`python chat.py` runs it alone (port SKILLNET_CHAT_PORT, default 7860); the Streamlit app starts it
once in-process and embeds it (``?course=…&lesson=…``). The frame is on the same host, so the browser
sends it the app's session cookie: a learner signed in there is signed in here, with no token in the
address, and a sign-out anywhere ends the chat's session on its next action too. Everything it shows
comes from ``agents.tutor.service``.
"""

from __future__ import annotations

import html
import importlib.util
import json
import sys
import time

import gradio as gr

from agents import auth
from agents.i18n import DEFAULT_LANGUAGE, language, t
from agents.runtime.deps import process_deps
from agents.runtime.metrics import start_metrics_server
from agents.tutor import service
from agents.tutor.sources import open_source
from core import config
from core.markup import safe_markdown
from ui import chat_failover
from ui.chat_render import (
    StreamedAnswer,
    app_theme,
    badge_html,
    render_answer,
    source_choices,
)
from ui.source_html import CSS as SOURCE_CSS
from ui.source_html import source_html, source_summary

UPDATE_INTERVAL = 0.05  # seconds from Gradio taking one streamed update to the next (at most ~20 per second)
SUGGESTION_SLOTS = 3


CSS = """
.badge {display:inline-block;padding:2px 10px;border-radius:12px;font-size:0.85em;margin-right:6px}
.badge.company {background:#dcfce7;color:#166534} .badge.course {background:#dbeafe;color:#1e3a8a}
.badge.general {background:#fef3c7;color:#92400e} .badge.progress {background:#ede9fe;color:#5b21b6}
.badge.engine {background:#f1f5f9;color:#334155} .badge.low {background:#fee2e2;color:#991b1b}
.next-steps a {display:inline-block;margin:2px 6px 2px 0;padding:2px 10px;border:1px solid #cbd5e1;
               border-radius:12px;text-decoration:none;font-size:0.85em}
#tutor-chat-box {min-height:0;max-height:calc(100vh - 24px);overflow-y:auto}
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


def show_source(target: str | None, user_ref: dict | None):
    """The source panel: the cited document with the passage highlighted."""
    user = _user(user_ref)
    if user is None or not target:
        return gr.update(value="", visible=False)
    query = json.loads(target)
    view = open_source(
        process_deps(),
        user,
        chunk=query.get("chunk"),
        document=query.get("document"),
        lesson=query.get("lesson"),
        manual=query.get("manual"),
        section=query.get("section"),
        quote=query.get("quote"),
    )
    if view is None:
        return gr.update(value=html.escape(t("tutor.source.not_found", user.language)), visible=True)
    heading = f"<p><b>{html.escape(source_summary(view, user.language))}</b></p>"
    return gr.update(value=heading + source_html(view, user.language), visible=True)


SCROLL_TO_CITED = (
    "() => { setTimeout(() => document.getElementById('sv-cited')?.scrollIntoView({block: 'center'}), 200); }"
)


def request_language(request: gr.Request | None) -> str:
    """The browser's preferred language (Accept-Language), for whoever has not signed in yet."""
    header = (request.headers.get("accept-language") if request is not None else None) or ""
    return language(header.split(",")[0].split(";")[0].strip() or None)


def relabel(user_ref: dict | None, request: gr.Request = None):
    """Every label in one language: the signed-in user's, else the browser's (the sign-in form)."""
    user = _user(user_ref)
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


def _history(user, session_id, app_url: str | None = None) -> tuple[list[dict], list]:
    """The conversation as chat bubbles, and the source panel's options for its last answer."""
    shown, last = [], {}
    for message in service.session_messages(process_deps(), user, session_id):
        content = (
            safe_markdown(message.content)
            if message.role == "user"
            else render_answer(
                message.content, message.metadata, message.metadata.get("language") or user.language, app_url
            )
        )
        shown.append({"role": message.role, "content": content})
        if message.role == "assistant":
            last = message.metadata
    return shown, source_choices(last)


def _session_choices(user) -> list[tuple[str, str]]:
    return [(s.title or "…", str(s.id)) for s in service.list_sessions(process_deps(), user)]


SESSION_COOKIE = chat_failover.SESSION_COOKIE  # the Streamlit app's session (ui/session.py)


def _user(user_ref: dict | None):
    """The signed-in user while their session lives (checked on every action)."""
    return auth.resume(process_deps(), user_ref["session"]) if user_ref else None


def _chips(suggestions: list[str]) -> list:
    padded = (suggestions + [""] * SUGGESTION_SLOTS)[:SUGGESTION_SLOTS]
    return [gr.update(value=s, visible=bool(s)) for s in padded]


def _signed_in(user, session_id: str, context: dict) -> tuple:
    lesson = f"› {context['lesson_title']}" if context.get("lesson_title") else ""
    where = f" · {context.get('course_title') or ''} {lesson}"
    hello = f"**{html.escape(user.full_name)}** · {user.email}{where if context.get('course_title') else ''}"
    return (
        {"session": session_id},
        gr.update(visible=False),
        gr.update(visible=True),
        hello,
        gr.update(choices=_session_choices(user), value=None),
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


def respond(
    message: str,
    history: list,
    user_ref: dict | None,
    session_id: str | None,
    context: dict,
    request: gr.Request = None,
):
    """Stream one answer; yields (chatbot, textbox, session, chip×3, sessions, status, sources, panel)."""
    keep = [gr.skip()] * (SUGGESTION_SLOTS + 1)  # chips and the sessions list
    untouched = (gr.skip(), gr.skip())  # the source panel
    user = _user(user_ref) if user_ref else chat_failover.cookie_user(request)  # no state here: a failover
    if user is None:
        yield (history, message, session_id, *keep, t("common.sign_in_first", request_language(request)), *untouched)
        return
    context = context or {}
    session_id = session_id or (chat_failover.conversation_on_screen(user, history) if user_ref is None else None)
    if not (message or "").strip():  # nothing is sent; the input itself says why
        yield (
            history,
            gr.update(value="", placeholder=t("tutor.error.empty_message", user.language)),
            session_id,
            *keep,
            "",
            *untouched,
        )
        return
    history = list(history or []) + [
        {"role": "user", "content": safe_markdown(message)},
        {"role": "assistant", "content": "…"},
    ]
    try:
        if not session_id and (message or "").strip():
            session_id = str(
                service.new_session(
                    process_deps(), user, course=(context or {}).get("course"), lesson=(context or {}).get("lesson")
                ).id
            )
    except service.TutorError as exc:
        history[-1]["content"] = f"⚠️ {exc}"
        yield (history, message, session_id, *keep, str(exc), *untouched)
        return
    yield (
        history,
        gr.update(value="", placeholder=t("tutor.chat.placeholder", user.language)),
        session_id,
        *keep,
        "",
        *untouched,
    )
    answer, notice, status, last = "", "", "", 0.0
    suggestions: list[str] = []
    sources = gr.update(choices=[], value=None, visible=False)
    shown = StreamedAnswer()
    for event in service.run_turn(
        process_deps(), user, message, session_id=session_id, from_exercise=context.get("exercise")
    ):
        name, data = event["event"], event["data"]
        shown.take(event)
        if name == "grounding":
            status = badge_html(data["rung"], data["source"], None, user.language)
            notice = f"_⚠️ {html.escape(data['notice'])}_\n\n" if data.get("notice") else ""
            if notice:  # shown above the answer before any token arrives
                history[-1]["content"] = notice + "…"
                yield (history, gr.skip(), session_id, *keep, status, *untouched)
        elif name == "fallback":  # the model's text was rejected: clear it, the twin's answer follows
            answer = ""
            history[-1]["content"] = f"_{data['message']}_"
            yield (history, gr.skip(), session_id, *keep, status, *untouched)
        elif name == "token":
            answer += data["content"]
            if time.monotonic() - last >= UPDATE_INTERVAL:
                history[-1]["content"] = notice + safe_markdown(answer)  # streamed text is rendered too
                yield (history, gr.skip(), session_id, *keep, status, *untouched)
                # counted from when Gradio asks for the next update, not from this one's yield: on a busy
                # server the ask comes later than the interval, and every token was its own update (25-55
                # full-history updates per offline answer under 20 chats, the work they all queued behind)
                last = time.monotonic()
        elif name == "suggestions":
            suggestions = data["suggestions"]
        elif name == "error":
            history[-1]["content"] = f"⚠️ {data['message']}"
            yield (history, gr.skip(), session_id, *keep, data["message"], *untouched)
            return
        elif name == "done":
            history[-1]["content"] = shown.html(context.get("app"))  # from the events: no database read
            status = ""  # the answer carries its own badges (and low confidence): the line under the chat was a copy
            choices = shown.sources()
            sources = gr.update(choices=choices, value=None, visible=bool(choices))
    yield (
        history,
        gr.skip(),
        session_id,
        *_chips(suggestions),
        gr.update(choices=_session_choices(user), value=session_id),
        status,
        sources,
        gr.update(value="", visible=False),
    )


def stream_turn(
    message: str,
    history: list,
    user_ref: dict | None,
    session_id: str | None,
    context: dict,
    request: gr.Request = None,
):
    """One turn as Gradio runs it: respond's answer streams into the chat with only what changes while it
    streams, and the rest of its last update (chips, sessions list, sources) waits in ``panels`` for
    `show_panels`. Gradio rebuilds a whole component on its one event loop for each gr.update/gr.skip of
    every streamed update (1-3 ms each): respond's six skipped side outputs made that loop the queue that
    20 concurrent chats waited in for their first token (p95 2.5 s; the answers themselves took 0.1 s)."""
    for update in respond(message, history, user_ref, session_id, context, request):
        chatbot, box, session, *side, status, sources, panel = update
        yield chatbot, box, session, status, (*side, sources, panel)


PANEL_OUTPUTS = SUGGESTION_SLOTS + 3  # chip×3, sessions, sources, panel


def show_panels(panels: tuple | None):
    """What came with the finished answer: its suggestion chips, the sessions list, its sources."""
    return panels or (gr.skip(),) * PANEL_OUTPUTS


def open_session(session_id: str, user_ref: dict | None, context: dict | None = None, request: gr.Request = None):
    """Show one of the user's conversations; anybody else's id answers "not found"."""
    user = _user(user_ref)
    if user is None or not session_id:
        signed_out = t("common.sign_in_first", request_language(request)) if user is None else ""
        return gr.skip(), gr.skip(), signed_out, gr.skip()
    try:
        shown, choices = _history(user, session_id, (context or {}).get("app"))
    except service.TutorError as exc:
        return [], None, str(exc), gr.update(choices=[], visible=False)
    return shown, session_id, "", gr.update(choices=choices, value=None, visible=bool(choices))


def new_chat():
    return (
        [],
        None,
        *_chips([]),
        gr.update(value=None),
        "",
        gr.update(choices=[], value=None, visible=False),
        gr.update(value="", visible=False),
    )


def rename(session_id: str | None, title: str, user_ref: dict | None):
    user = _user(user_ref)
    if user is None or not session_id or not (title or "").strip():
        return gr.skip(), ""
    try:
        service.rename_session(process_deps(), user, session_id, title)
    except service.TutorError as exc:
        return gr.skip(), str(exc)
    return gr.update(choices=_session_choices(user), value=session_id), ""


def rate(session_id: str | None, user_ref: dict | None, liked: gr.LikeData):
    """👍 or 👎 on an answer (clicking it again takes it back): kept on the message, and a 👎 counts the
    question as a knowledge gap for the admins."""
    user = _user(user_ref)
    index = liked.index[0] if isinstance(liked.index, list | tuple) else liked.index
    if user is None or not session_id or not isinstance(index, int):
        return gr.skip()
    helpful = liked.liked if isinstance(liked.liked, bool) else None
    try:
        service.rate_answer(process_deps(), user, session_id, index, helpful)
    except service.TutorError as exc:
        return str(exc)
    return gr.skip()


def delete(session_id: str | None, user_ref: dict | None):
    user = _user(user_ref)
    if user is None or not session_id:
        return gr.skip(), gr.skip(), gr.skip(), ""
    try:
        service.delete_session(process_deps(), user, session_id)
    except service.TutorError as exc:
        return gr.skip(), gr.skip(), gr.skip(), str(exc)
    return [], None, gr.update(choices=_session_choices(user), value=None), ""


def build_app() -> gr.Blocks:
    with gr.Blocks(title="SkillNet tutor", fill_height=True) as app:
        user_ref, session, context = gr.State(None), gr.State(None), gr.State({})
        # hidden until the page load has checked the app's session cookie: a signed-in learner's frame (reloaded
        # whenever the course player moves to another exercise) must not flash the sign-in form
        with gr.Column(visible=False) as login_box:
            gr.Markdown("## 🎓 SkillNet tutor")
            email = gr.Textbox(label=t("auth.email", DEFAULT_LANGUAGE))
            password = gr.Textbox(label=t("auth.password", DEFAULT_LANGUAGE), type="password")
            sign_in_button = gr.Button(t("auth.sign_in", DEFAULT_LANGUAGE), variant="primary")
        # the chat fills the frame and its history takes what is left, so the input row stays in view
        with gr.Column(visible=False, scale=1, elem_id="tutor-chat-box") as chat_box:
            who = gr.Markdown()
            # no visible label: Gradio floats it over the top of the history, covering the answer scrolled under it
            chatbot = gr.Chatbot(
                label=t("tutor.chat.label", DEFAULT_LANGUAGE),
                show_label=False,
                scale=1,
                height=None,
                feedback_options=("Like", "Dislike"),  # drawn as 👍/👎 icons; 👎 counts as a knowledge gap
                buttons=["copy"],
                elem_id="tutor-chatbot",
            )
            with gr.Row(elem_id="tutor-chips"):
                chips = [
                    gr.Button(visible=False, size="sm", variant="secondary", min_width=0)
                    for _ in range(SUGGESTION_SLOTS)
                ]
            with gr.Row(elem_id="tutor-input-row"):
                box = gr.Textbox(
                    show_label=False,
                    label=t("tutor.chat.placeholder", DEFAULT_LANGUAGE),  # read aloud
                    placeholder=t("tutor.chat.placeholder", DEFAULT_LANGUAGE),
                    scale=8,
                    max_length=20_000,
                    min_width=0,
                )
                send = gr.Button(
                    t("tutor.chat.send", DEFAULT_LANGUAGE),
                    variant="primary",
                    scale=1,
                    min_width=70,
                    elem_id="tutor-send",
                )
            with gr.Row(visible=False) as compact_bar:
                inline_new = gr.Button(t("tutor.chat.new", DEFAULT_LANGUAGE), size="sm")
            source_pick = gr.Radio(
                label=t("tutor.source.panel", DEFAULT_LANGUAGE), choices=[], visible=False, elem_id="tutor-sources"
            )
        status = gr.HTML(elem_id="tutor-status")
        # the source panel (a citation of the last answer opened on its highlighted passage) sits under the
        # chat and its badges, not inside the chat's frame-high column: there it overflowed onto the badges
        source_panel = gr.HTML(visible=False, elem_id="tutor-source-panel")
        with gr.Sidebar(
            label=t("tutor.chat.conversations", DEFAULT_LANGUAGE), open=True, visible=False, elem_id="tutor-sidebar"
        ) as sidebar:
            new_button = gr.Button(t("tutor.chat.new", DEFAULT_LANGUAGE))
            sessions = gr.Radio(label=t("tutor.chat.conversations", DEFAULT_LANGUAGE), choices=[])
            title = gr.Textbox(label=t("tutor.chat.rename", DEFAULT_LANGUAGE), max_lines=1)
            with gr.Row():
                rename_button = gr.Button(t("tutor.chat.rename", DEFAULT_LANGUAGE), size="sm")
                delete_button = gr.Button(t("tutor.chat.delete", DEFAULT_LANGUAGE), size="sm", variant="stop")
            session_lookup = gr.Textbox(visible=False)

        signed = [user_ref, login_box, chat_box, who, sessions, status]
        labelled = [
            email,
            password,
            sign_in_button,
            chatbot,
            box,
            send,
            inline_new,
            new_button,
            sessions,
            title,
            rename_button,
            delete_button,
            source_pick,
        ]
        form_signed = [*signed[:-1], sidebar, status]  # status last: the API's callers read the reason there
        sign_in_button.click(sign_in, [email, password, context], form_signed, api_name="sign_in").then(
            relabel, [user_ref], labelled, api_name=False
        )
        password.submit(sign_in, [email, password, context], form_signed, api_name=False).then(
            relabel, [user_ref], labelled, api_name=False
        )
        session_box, course_box, lesson_box = (
            gr.Textbox(visible=False),
            gr.Textbox(visible=False),
            gr.Textbox(visible=False),
        )
        session_box.submit(
            session_sign_in, [session_box, course_box, lesson_box], [*signed, context], api_name="session_sign_in"
        )
        app.load(on_load, None, [*signed, context, sidebar, compact_bar], api_name=False).then(
            relabel, [user_ref], labelled, api_name=False
        ).then(
            lambda ref, ctx: open_session((ctx or {}).get("open"), ref, ctx),
            [user_ref, context],
            [chatbot, session, status, source_pick],
            api_name=False,
        )

        panels = gr.State(None)
        turn_outputs, panel_outputs = (
            [chatbot, box, session, status, panels],
            [*chips, sessions, source_pick, source_panel],
        )
        quietly = {"show_progress": "hidden"}  # show_panels is instant: no loading veil over the chips and sources
        send.click(stream_turn, [box, chatbot, user_ref, session, context], turn_outputs, api_name="chat").then(
            show_panels, [panels], panel_outputs, api_name="turn_panels", **quietly
        )
        box.submit(stream_turn, [box, chatbot, user_ref, session, context], turn_outputs, api_name=False).then(
            show_panels, [panels], panel_outputs, api_name=False, **quietly
        )
        for chip in chips:
            chip.click(stream_turn, [chip, chatbot, user_ref, session, context], turn_outputs, api_name=False).then(
                show_panels, [panels], panel_outputs, api_name=False, **quietly
            )
        sessions.input(
            open_session, [sessions, user_ref, context], [chatbot, session, status, source_pick], api_name=False
        )
        session_lookup.submit(
            open_session,
            [session_lookup, user_ref, context],
            [chatbot, session, status, source_pick],
            api_name="open_session",
        )
        cleared = [chatbot, session, *chips, sessions, status, source_pick, source_panel]
        new_button.click(new_chat, None, cleared, api_name="new_chat")
        inline_new.click(new_chat, None, cleared, api_name=False)
        source_pick.input(show_source, [source_pick, user_ref], [source_panel], api_name="show_source").then(
            None, None, None, js=SCROLL_TO_CITED
        )
        rename_button.click(rename, [session, title, user_ref], [sessions, status], api_name="rename")
        delete_button.click(delete, [session, user_ref], [chatbot, session, sessions, status], api_name="delete")
        chatbot.like(rate, [session, user_ref], [status], api_name=False)
    return app


def chat_port() -> int:
    return config.get("SKILLNET_CHAT_PORT")


def _mark_matplotlib_missing() -> None:
    """Gradio imports matplotlib on entering and leaving every event, to pin its plotting backend; when it
    is not installed, each failed import searches the whole sys.path again (3 % of the chat server's CPU
    under 20 chats). None in sys.modules is the import system's own mark for "not available": the import
    then fails at once."""
    if "matplotlib" not in sys.modules and importlib.util.find_spec("matplotlib") is None:
        sys.modules["matplotlib"] = None


def launch(*, port: int | None = None, block: bool = True) -> gr.Blocks:
    """Start the chat server (``block=False``: in the background, for app.py and tests)."""
    config.export_native_settings()  # before Gradio's queue reads its settings
    _mark_matplotlib_missing()
    app = build_app().queue(default_concurrency_limit=32)
    path = config.get("SKILLNET_CHAT_PATH")  # behind a proxy that strips it (deploy/haproxy.cfg)
    app.launch(
        server_port=port or chat_port(),
        css=CSS + SOURCE_CSS,
        theme=app_theme(),
        prevent_thread_lock=not block,
        quiet=not block,
        root_path=path.rstrip("/") if path else None,
        footer_links=[],
    )
    return app


def main() -> None:
    from seeds.loader import load_demo_if_empty

    load_demo_if_empty(process_deps().pool)  # run alone on an empty database, the demo accounts can sign in
    start_metrics_server()  # the tutor's model calls are this process's: /metrics on SKILLNET_METRICS_PORT
    launch()


if __name__ == "__main__":
    main()
