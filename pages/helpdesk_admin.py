"""Admin page: helpdesk tickets, and the agent's funnel, outcomes and latencies."""
import pandas as pd
import plotly.express as px
import streamlit as st

from agents.helpdesk import admin
from ui.session import require_admin

user = require_admin()
ES = user.language == "es"


def t(en: str, es: str) -> str:
    return es if ES else en


STATUSES = {"open": t("Open", "Abierto"), "in_progress": t("In progress", "En curso"),
            "resolved": t("Resolved", "Resuelto"), "closed": t("Closed", "Cerrado")}


data = admin.dashboard(user.org_id)
st.title(t("🎫 Helpdesk tickets", "🎫 Tickets de ayuda"))

tickets = pd.DataFrame(data["tickets"])
if tickets.empty:
    st.info(t("No tickets yet.", "Todavía no hay tickets."))
else:
    status = st.segmented_control(t("Status", "Estado"), list(STATUSES), format_func=STATUSES.get,
                                  selection_mode="multi", default=["open", "in_progress"], key="hd_status")
    shown = tickets[tickets["status"].isin(status)] if status else tickets
    st.dataframe(shown.drop(columns=["id"]), hide_index=True, width="stretch",
                 column_config={"number": st.column_config.NumberColumn("#", format="%d"),
                                "created_at": st.column_config.DatetimeColumn(t("Filed", "Creado"))})
    st.download_button("⬇ CSV", shown.drop(columns=["id"]).to_csv(index=False).encode("utf-8"),
                       file_name="helpdesk_tickets.csv", mime="text/csv", key="csv_helpdesk_tickets")
    with st.form("hd_status_form"):
        left, right = st.columns([3, 1])
        number = left.selectbox(t("Ticket", "Ticket"), tickets["number"].tolist(),
                                format_func=lambda n: f"#{n} {tickets.set_index('number').loc[n, 'title']}")
        new_status = right.selectbox(t("New status", "Nuevo estado"), list(STATUSES), format_func=STATUSES.get)
        if st.form_submit_button(t("Update", "Actualizar")):
            ticket_id = tickets.set_index("number").loc[number, "id"]
            if admin.set_ticket_status(user.org_id, ticket_id, new_status):
                st.rerun()
            st.error(t("That ticket no longer exists.", "Ese ticket ya no existe."))

health = data["health"]
cols = st.columns(4)
for column, (label, key) in zip(cols, [(t("ACL violations", "Violaciones de acceso"), "acl_violations"),
                                       (t("Injections blocked", "Inyecciones bloqueadas"), "injection_blocked"),
                                       (t("Daily-cap refusals", "Rechazos por límite diario"), "daily_cap_refusals"),
                                       (t("Idempotent replays", "Repeticiones idempotentes"), "idempotent_replays")]):
    column.metric(label, health[key])
if health["acl_violations"]:
    st.error(t("Someone tried to open another person's helpdesk session: investigate.",
               "Alguien intentó abrir la sesión de ayuda de otra persona: investígalo."))

st.subheader(t("Agent funnel", "Embudo del agente"))
funnel = pd.DataFrame({"stage": list(data["funnel"]), "sessions": list(data["funnel"].values())})
if funnel["sessions"].sum():
    st.plotly_chart(px.funnel(funnel, x="sessions", y="stage"), width="stretch")
else:  # an all-zero funnel draws as an empty chart
    st.caption(t("No sessions yet.", "Todavía no hay sesiones."))

left, right = st.columns(2)
with left:
    st.subheader(t("Outcomes", "Resultados"))
    outcomes = pd.DataFrame({"outcome": list(data["outcomes"]), "sessions": list(data["outcomes"].values())})
    if outcomes.empty:
        st.caption(t("No sessions yet.", "Todavía no hay sesiones."))
    else:
        st.plotly_chart(px.bar(outcomes, x="outcome", y="sessions", color="outcome"), width="stretch")
with right:
    st.subheader(t("Latency", "Latencia"))
    steps = pd.DataFrame(data["step_ms"])
    if steps.empty:
        st.caption(t("No finished steps yet.", "Todavía no hay pasos terminados."))
    else:
        st.plotly_chart(px.box(steps, x="node", y="ms", points=False, labels={"ms": "ms", "node": ""}),
                        width="stretch")
        sessions = pd.DataFrame(data["latencies"])
        if not sessions.empty:
            p50, p95 = sessions["seconds"].quantile([0.5, 0.95])
            st.caption(t(f"Session start → outcome: p50 {p50:.1f} s · p95 {p95:.1f} s",
                         f"Sesión inicio → resultado: p50 {p50:.1f} s · p95 {p95:.1f} s"))
