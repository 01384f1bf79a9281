"""The admin assistant: chat, the tool trace, tables, and the pending write as a Confirm/Cancel card."""

import pandas as pd
import streamlit as st

from agents.admin import conversations, service
from agents.admin.deadline_moves import action_name
from agents.admin.state import ToolCall
from agents.i18n import code_label, format_datetime, format_number, t
from core.markup import safe_markdown
from ui.deps import app_deps
from ui.session import require_admin
from ui.tables import table_with_csv
from ui.turn_view import draw_turn

user = require_admin()
deps = app_deps()
lang = user.language
SESSION_KEY = "admin_assistant_session"
EXAMPLES = [
    "admin.assistant.example_overdue",
    "admin.assistant.example_who_knows",
    "admin.assistant.example_person",
    "admin.assistant.example_gaps",
    "admin.assistant.example_assign",
    "admin.assistant.example_courses",
]


def run(message: str = "", **kwargs) -> None:
    """One turn, shown as it happens: the admin's message, the step running, the reply as it is written."""
    if message:
        with st.chat_message("user"):
            st.markdown(safe_markdown(message))
    with st.chat_message("assistant"):
        try:
            reply, _ = draw_turn(
                service.turn(deps, user, message, session_id=st.session_state.get(SESSION_KEY), **kwargs),
                steps=st.empty(),
                reply=st.empty(),
            )
        except (service.AdminInputError, service.AdminAccessError) as exc:
            st.error(str(exc))
            return
    st.session_state[SESSION_KEY] = reply.session
    st.rerun()


def show_trace(metadata: dict, key: str) -> None:
    calls: list[ToolCall] = metadata.get("tool_calls", [])
    for n, call in enumerate(calls):
        rows = call["result"].get("rows", [])
        label = t(
            "admin.assistant.tool_rows",
            lang,
            tool=code_label("tool", call["result"].get("action") or action_name(call["tool"], call["arguments"]), lang),
            n=call.get("result_count", len(rows)),
        )
        with st.expander(label):
            st.json(call["arguments"], expanded=False)
            table_with_csv(pd.DataFrame(rows), call["tool"], key=f"{key}_{n}_rows")
            tables = {name: v for name, v in call["result"].items() if name != "rows" and isinstance(v, list)}
            for name, table in tables.items():
                st.caption(code_label("table", name, lang))
                table_with_csv(pd.DataFrame(table), f"{call['tool']}_{name}", key=f"{key}_{n}_{name}")


def manage(action, *args, forget: bool = False) -> None:
    """Rename or delete a conversation (``forget``: it is no longer the one shown); a refusal is one line."""
    try:
        action(deps, user, *args)
    except (service.AdminInputError, service.AdminAccessError) as exc:
        st.error(str(exc))
        st.stop()
    if forget:
        st.session_state.pop(SESSION_KEY, None)
    st.rerun()


state = conversations.conversation(deps, user, st.session_state.get(SESSION_KEY))
with st.sidebar:
    st.subheader(t("admin.assistant.conversations", lang))
    if st.button(t("admin.assistant.new", lang), key="new_admin_session"):
        st.session_state.pop(SESSION_KEY, None)
        st.rerun()
    for session in state.sessions[:15]:
        when = format_datetime(session.created_at, lang)  # two sessions can share a title (the same question)
        if st.button(f"{session.title} · {when}" if session.title else when, key=f"s_{session.id}"):
            st.session_state[SESSION_KEY] = str(session.id)
            st.rerun()
    current = next((s for s in state.sessions if str(s.id) == st.session_state.get(SESSION_KEY)), None)
    if current is not None:
        with st.expander(t("admin.assistant.manage", lang)):
            title = st.text_input(
                t("admin.assistant.rename_label", lang), value=current.title or "", key=f"title_{current.id}"
            )
            if st.button(t("admin.assistant.rename", lang), key=f"rename_{current.id}"):
                manage(conversations.rename_conversation, current.id, title)
            sure = st.checkbox(t("admin.assistant.delete_sure", lang), key=f"sure_{current.id}")
            if st.button(t("admin.assistant.delete", lang), key=f"delete_{current.id}", disabled=not sure):
                manage(conversations.delete_conversation, current.id, forget=True)

st.title(t("admin.assistant.title", lang))
st.caption(t("admin.assistant.caption", lang))
for message in state.messages:
    with st.chat_message(message.role):
        st.markdown(safe_markdown(message.content))
        if message.role == "assistant":
            if message.id in state.decisions:  # the admin's Confirm or Cancel, on the preview it answered
                decision, when = state.decisions[message.id]
                st.caption(t(f"admin.assistant.decided_{decision}", lang, when=format_datetime(when, lang)))
            show_trace(message.metadata, str(message.id))
            if message.metadata.get("engine"):
                engine, tokens = (
                    code_label("engine", message.metadata["engine"], lang),
                    message.metadata.get("tokens_used"),
                )
                st.caption(
                    t("admin.assistant.engine_tokens", lang, engine=engine, tokens=format_number(tokens, lang))
                    if tokens
                    else t("admin.assistant.engine", lang, engine=engine)
                )  # the twin spends none

if not state.messages:  # an empty page offers what to ask, in the admin's language
    st.caption(t("admin.assistant.examples", lang))
    columns = st.columns(2)
    for n, example in enumerate(EXAMPLES):
        if columns[n % 2].button(t(example, lang), key=f"example_{n}", use_container_width=True):
            run(message=t(example, lang))

decision: dict = {}
if state.pending:
    with st.container(border=True):
        st.markdown(t("admin.assistant.pending", lang))
        st.text(state.pending["preview"])
        confirm, cancel = st.columns(2)
        if confirm.button(t("admin.assistant.confirm", lang), type="primary", key=f"confirm_{state.pending['id']}"):
            decision = {"confirm": state.pending["id"]}
        if cancel.button(t("admin.assistant.cancel", lang), key=f"cancel_{state.pending['id']}"):
            decision = {"cancel": True}
if decision:  # the reply is drawn below the card, in the conversation, not inside the card it answers
    run(**decision)

if prompt := st.chat_input(t("admin.assistant.input", lang)):
    run(message=prompt)
