"""The admin assistant: chat, the tool trace, tables, and the pending write as a Confirm/Cancel card."""
import pandas as pd
import streamlit as st

from agents.admin import service
from storage.markup import safe_markdown
from ui.session import require_admin
from ui.tables import table_with_csv

user = require_admin()
SESSION_KEY = "admin_assistant_session"


def say(es: str, en: str) -> str:
    return es if user.language == "es" else en


def run(**kwargs) -> None:
    try:
        reply = service.ask(user, session_id=st.session_state.get(SESSION_KEY), **kwargs)
    except (service.AdminInputError, service.AdminAccessError) as exc:
        st.error(str(exc))
        return
    st.session_state[SESSION_KEY] = reply.session
    st.rerun()


def show_trace(metadata: dict, key: str) -> None:
    for n, call in enumerate(metadata.get("tool_calls", [])):
        label = f"🔧 {call['tool']} · {call.get('result_count', len(call.get('rows', [])))} " + say("filas", "rows")
        with st.expander(label):
            st.json(call["arguments"], expanded=False)
            table_with_csv(pd.DataFrame(call.get("rows", [])), call["tool"], key=f"{key}_{n}_rows")
            for name, rows in (call.get("tables") or {}).items():
                st.caption(name)
                table_with_csv(pd.DataFrame(rows), f"{call['tool']}_{name}", key=f"{key}_{n}_{name}")


state = service.conversation(user, st.session_state.get(SESSION_KEY))
with st.sidebar:
    st.subheader(say("Conversaciones", "Conversations"))
    if st.button(say("➕ Nueva", "➕ New"), key="new_admin_session"):
        st.session_state.pop(SESSION_KEY, None)
        st.rerun()
    for session in state.sessions[:15]:
        if st.button(session.title or str(session.created_at)[:16], key=f"s_{session.id}"):
            st.session_state[SESSION_KEY] = str(session.id)
            st.rerun()

st.title(say("🤖 Asistente de administración", "🤖 Admin assistant"))
st.caption(say("Las consultas se ejecutan al momento; los cambios solo tras pulsar Confirmar.",
               "Reads run at once; changes only after you press Confirm."))
for message in state.messages:
    with st.chat_message(message.role):
        st.markdown(safe_markdown(message.content))
        if message.role == "assistant":
            show_trace(message.metadata, str(message.id))
            if message.metadata.get("engine"):
                st.caption(f"{say('motor', 'engine')}: {message.metadata['engine']}")

if state.pending:
    with st.container(border=True):
        st.markdown(say("**Cambio pendiente de confirmación**", "**Change awaiting your confirmation**"))
        st.text(state.pending["preview"])
        confirm, cancel = st.columns(2)
        if confirm.button(say("✅ Confirmar", "✅ Confirm"), type="primary", key=f"confirm_{state.pending['id']}"):
            run(confirm=state.pending["id"])
        if cancel.button(say("✖ Cancelar", "✖ Cancel"), key=f"cancel_{state.pending['id']}"):
            run(cancel=True)

if prompt := st.chat_input(say("Pregunta o pide un cambio…", "Ask, or request a change…")):
    run(message=prompt)
