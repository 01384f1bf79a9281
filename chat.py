"""The tutor chat (Gradio): sign in, ask, watch the answer stream with its sources.

`python chat.py` runs it alone (port SKILLNET_CHAT_PORT, default 7860); the Streamlit app starts it
once in-process and embeds it (``?course=…&lesson=…``). The frame is on the same host, so the browser
sends it the app's session cookie: a learner signed in there is signed in here, with no token in the
address, and a sign-out anywhere ends the chat's session on its next action too. Everything it shows
comes from ``agents.tutor.service`` (the handlers are in ``ui/chat_*.py``).
"""

from __future__ import annotations

import gc
import importlib.util
import logging
import sys

import gradio as gr

from agents.i18n import DEFAULT_LANGUAGE, t
from agents.runtime.deps import process_deps
from agents.runtime.metrics import start_metrics_server
from core import config
from ui.chat_render import app_theme
from ui.chat_sessions import SCROLL_TO_CITED, delete, new_chat, open_session, rate, rename, show_source
from ui.chat_sign_in import on_load, relabel, session_sign_in, sign_in
from ui.chat_turn import CHIP_CLICKS, CHIPS_TEMPLATE, TURN_STARTS, ask_chip, respond, show_panels, take_question_js
from ui.source_html import CSS as SOURCE_CSS

log = logging.getLogger(__name__)

SIDEBAR_WIDTH = 240
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
#tutor-chips .html-container {padding:0}
.tutor-chips {display:flex;flex-wrap:wrap;gap:var(--layout-gap)}
.tutor-chip {flex:1 1 auto;min-width:0;display:inline-flex;justify-content:center;align-items:center;line-height:1.5;
             border:var(--button-border-width) solid var(--button-secondary-border-color);
             background:var(--button-secondary-background-fill);color:var(--button-secondary-text-color);
             box-shadow:var(--button-secondary-shadow);border-radius:var(--button-small-radius);
             padding:var(--button-small-padding);font-weight:var(--button-small-text-weight);
             font-size:var(--button-small-text-size);transition:var(--button-transition);cursor:pointer}
.tutor-chip:hover {background:var(--button-secondary-background-fill-hover);
                   color:var(--button-secondary-text-color-hover);
                   border-color:var(--button-secondary-border-color-hover)}
@media (max-width: 640px) {
  .gradio-container {padding:4px !important}
  #tutor-send {font-size:0.85em;padding:4px 8px}
}
"""


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
            chips = gr.HTML(
                [], html_template=CHIPS_TEMPLATE, js_on_load=CHIP_CLICKS, apply_default_css=False, elem_id="tutor-chips"
            )
            with gr.Row(elem_id="tutor-input-row"):
                box = gr.Textbox(
                    elem_id="tutor-input",
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
        # 240 px, not Gradio's 320: in the Tutor page's ~940 px frame the chat keeps ~2/3 of the width
        with gr.Sidebar(
            label=t("tutor.chat.conversations", DEFAULT_LANGUAGE),
            open=True,
            visible=False,
            elem_id="tutor-sidebar",
            width=SIDEBAR_WIDTH,
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
            relabel, [user_ref], labelled, api_visibility="private"
        )
        password.submit(sign_in, [email, password, context], form_signed, api_visibility="private").then(
            relabel, [user_ref], labelled, api_visibility="private"
        )
        session_box, course_box, lesson_box = (
            gr.Textbox(visible=False),
            gr.Textbox(visible=False),
            gr.Textbox(visible=False),
        )
        session_box.submit(
            session_sign_in, [session_box, course_box, lesson_box], [*signed, context], api_name="session_sign_in"
        )
        app.load(on_load, None, [*signed, context, sidebar, compact_bar], api_visibility="private").then(
            relabel, [user_ref], labelled, api_visibility="private"
        ).then(
            lambda ref, ctx: open_session((ctx or {}).get("open"), ref, ctx),
            [user_ref, context],
            [chatbot, session, status, source_pick],
            api_visibility="private",
        )

        # a turn (ui/chat_turn.py): the browser takes the question from the input; the answer streams with only
        # plain values and states; the chips, conversations list and sources follow once it is finished
        asked, panels = gr.Textbox(visible=False), gr.State(None)
        conversation = [chatbot, user_ref, session, context]
        turn_outputs, panel_outputs = [chatbot, session, status, panels], [chips, sessions, source_pick, source_panel]
        quietly = {"show_progress": "hidden"}  # show_panels is instant: no loading veil over the chips and sources
        gr.on([send.click, box.submit], None, [box, asked], [box, asked], js=take_question_js()).then(
            respond, [asked, *conversation], turn_outputs, api_name="chat", js=TURN_STARTS, trigger_mode="always_last"
        ).then(show_panels, [panels], panel_outputs, api_name="turn_panels", **quietly)
        chips.click(ask_chip, conversation, turn_outputs, api_visibility="private").then(
            show_panels, [panels], panel_outputs, api_visibility="private", **quietly
        )
        sessions.input(  # named: a private event takes its function's name, and /open_session is public below
            open_session,
            [sessions, user_ref, context],
            [chatbot, session, status, source_pick],
            api_name="pick_session",
            api_visibility="private",
        )
        session_lookup.submit(
            open_session,
            [session_lookup, user_ref, context],
            [chatbot, session, status, source_pick],
            api_name="open_session",
        )
        cleared = [chatbot, session, chips, sessions, status, source_pick, source_panel]
        new_button.click(new_chat, None, cleared, api_name="new_chat")
        inline_new.click(new_chat, None, cleared, api_visibility="private")
        source_pick.input(show_source, [source_pick, user_ref], [source_panel], api_name="show_source").then(
            None, None, None, js=SCROLL_TO_CITED
        )
        rename_button.click(rename, [session, title, user_ref], [sessions, status], api_name="rename")
        delete_button.click(delete, [session, user_ref], [chatbot, session, sessions, status], api_name="delete")
        chatbot.like(rate, [session, user_ref], [status], api_visibility="private")
    return app


def chat_port() -> int:
    return config.get("SKILLNET_CHAT_PORT")


def _mark_matplotlib_missing() -> None:
    """Gradio imports matplotlib on entering and leaving every event, to pin its plotting backend; when it
    is not installed, each failed import searches the whole sys.path again (3 % of the chat server's CPU
    under 20 chats). None in sys.modules is the import system's own mark for "not available": the import
    then fails at once."""
    if "matplotlib" not in sys.modules and importlib.util.find_spec("matplotlib") is None:
        sys.modules["matplotlib"] = None  # type: ignore[assignment]  # typeshed has no place for the mark


# Gradio's queue looks for a new event every 1 ms while none waits, and for progress to send every 10 ms: ~33 ms of
# CPU a second on an idle chat server, and under 20 chats its event loop took the GIL from the turns ~1,000 times a
# second, the longer the turns ran the more (README "Capacity"). Every 10 ms, and every 100 ms for progress (this
# chat sends none): an event starts at most 10 ms later.
QUEUE_POLL_SECONDS = 0.01
PROGRESS_POLL_SECONDS = 0.1


def _poll_less(app: gr.Blocks) -> None:
    """Gradio's queue polls at QUEUE_POLL_SECONDS and PROGRESS_POLL_SECONDS (its own settings, read on every pass of
    its loops; a Gradio without them keeps its own polls, with a warning)."""
    queue = app._queue
    if not hasattr(queue, "sleep_when_free") or not hasattr(queue, "progress_update_sleep_when_free"):
        log.warning("this Gradio's queue has no poll settings: it polls as it does (chat.QUEUE_POLL_SECONDS)")
        return
    queue.sleep_when_free, queue.progress_update_sleep_when_free = QUEUE_POLL_SECONDS, PROGRESS_POLL_SECONDS


def _freeze_what_started() -> None:
    """What a chat process of its own made to start (modules, the models' wrappers, the app's blocks and server:
    hundreds of thousands of objects) lives as long as it does: kept out of the garbage collector's full passes,
    which walked it all (~190 ms every ~180 turns, ~1 ms a turn). Garbage first: a cycle frozen is never freed
    (say an abandoned generator holding a pool connection). What turns make is collected as before."""
    gc.collect()
    gc.freeze()


def launch(*, port: int | None = None, block: bool = True, own_process: bool = False) -> gr.Blocks:
    """Start the chat server (``block=False``: in the background, for app.py and tests). ``own_process``: the
    process serves only the chat (`python chat.py`), not the Streamlit app's process starting it beside its own
    pages (ui/chat_server.py), whose objects come and go."""
    config.export_native_settings()  # before Gradio's queue reads its settings
    _mark_matplotlib_missing()
    app = build_app().queue(default_concurrency_limit=32)
    _poll_less(app)
    path = config.get("SKILLNET_CHAT_PATH")  # behind a proxy that strips it (deploy/haproxy.cfg)
    app.launch(
        server_port=port or chat_port(),
        css=CSS + SOURCE_CSS,
        theme=app_theme(),
        prevent_thread_lock=True,
        quiet=not block,
        root_path=path.rstrip("/") if path else None,
        footer_links=[],
        i18n=gr.I18n(  # Gradio 6.31's status line says "common.complete" to a screen reader: its catalogue lacks it
            **{
                language: {
                    "common.complete": t("tutor.chat.status_done", language),
                    "common.error": t("tutor.chat.status_error", language),
                }
                for language in ("en", "es")
            }
        ),
    )
    if own_process:
        _freeze_what_started()
    if block:
        app.block_thread()
    return app


def main() -> None:
    from seeds.loader import load_demo_if_empty

    deps = process_deps()
    load_demo_if_empty(deps.pool, embedder=deps)  # run alone on an empty database, the demo accounts can sign in
    start_metrics_server()  # the tutor's model calls are this process's: /metrics on SKILLNET_METRICS_PORT
    launch(own_process=True)


if __name__ == "__main__":
    main()
