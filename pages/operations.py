"""Operations (admins): the helpdesk agent's health — safety counters, funnel, outcomes and step
latency. Counters are this server process's Prometheus values (they restart at zero with it)."""
import pandas as pd
import plotly.express as px
import streamlit as st

from agents.helpdesk import admin
from agents.i18n import code_label, format_number, t
from ui.session import require_admin

user = require_admin()
LANG = user.language

st.title(t("ops.title", LANG))
data = admin.dashboard(user.org_id)

st.subheader(t("ops.helpdesk_health", LANG))
health = data["health"]
for column, key in zip(st.columns(4), ("acl_violations", "injection_blocked", "daily_cap_refusals",
                                       "idempotent_replays")):
    column.metric(t(f"ops.health_{key}", LANG), format_number(health[key], LANG))
if health["acl_violations"]:
    st.error(t("ops.acl_alert", LANG))

st.subheader(t("ops.funnel", LANG))
funnel = pd.DataFrame({"stage": [t(f"ops.funnel_{k}", LANG) for k in data["funnel"]],
                       "sessions": list(data["funnel"].values())})
if funnel["sessions"].sum():
    st.plotly_chart(px.funnel(funnel, x="sessions", y="stage", labels={"sessions": t("ops.sessions", LANG), "stage": ""}),
                    width="stretch")
else:  # an all-zero funnel draws as an empty chart
    st.caption(t("ops.no_sessions", LANG))

left, right = st.columns(2)
with left:
    st.subheader(t("ops.outcomes", LANG))
    outcomes = pd.DataFrame(data["outcomes"])
    if outcomes.empty:
        st.caption(t("ops.no_sessions", LANG))
    else:
        outcomes["label"] = [code_label("outcome", o, LANG) + (f" ({code_label('abort', r, LANG)})" if r else "")
                             for o, r in zip(outcomes["outcome"], outcomes["reason"])]
        st.plotly_chart(px.bar(outcomes, x="label", y="sessions", color="label",
                               labels={"label": "", "sessions": t("ops.sessions", LANG)}), width="stretch")
with right:
    st.subheader(t("ops.latency", LANG))
    steps = pd.DataFrame(data["step_ms"])
    if steps.empty:
        st.caption(t("ops.no_steps", LANG))
    else:
        steps["step"] = steps["node"].map(lambda n: code_label("step", n, LANG))
        st.plotly_chart(px.box(steps, x="step", y="ms", points=False, labels={"ms": "ms", "step": ""}),
                        width="stretch")
        sessions = pd.DataFrame(data["latencies"])
        if not sessions.empty:
            p50, p95 = sessions["seconds"].quantile([0.5, 0.95])
            st.caption(t("ops.session_latency", LANG, p50=format_number(p50, LANG, decimals=1),
                         p95=format_number(p95, LANG, decimals=1)))
