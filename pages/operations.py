"""Operations (admins): the helpdesk agent's health (safety counters, funnel, outcomes, step latency),
model calls and fallbacks by reason, the content-generation queue and locked accounts. Counters are
this server process's Prometheus values (they restart at zero with it)."""

import pandas as pd
import plotly.express as px
import streamlit as st

from agents.helpdesk import admin
from agents.i18n import (
    code_label,
    format_datetime,
    format_number,
    format_percent,
    number_separators,
    plotly_config,
    t,
)
from agents.insights import operations
from ui.deps import app_deps
from ui.session import require_admin

user = require_admin()
deps = app_deps()
LANG = user.language

st.title(t("ops.title", LANG))
data = admin.dashboard(deps, user)

st.subheader(t("ops.helpdesk_health", LANG))
health = data["health"]
for column, key in zip(
    st.columns(4), ("acl_violations", "injection_blocked", "daily_cap_refusals", "idempotent_replays")
):
    column.metric(t(f"ops.health_{key}", LANG), format_number(health[key], LANG))
if health["acl_violations"]:
    st.error(t("ops.acl_alert", LANG))

st.subheader(t("ops.funnel", LANG))
funnel = pd.DataFrame(
    {"stage": [t(f"ops.funnel_{k}", LANG) for k in data["funnel"]], "sessions": list(data["funnel"].values())}
)
if funnel["sessions"].sum():
    st.plotly_chart(
        px.funnel(
            funnel, x="sessions", y="stage", labels={"sessions": t("ops.sessions", LANG), "stage": ""}
        ).update_layout(separators=number_separators(LANG)),
        width="stretch",
        config=plotly_config(LANG),
    )
else:  # an all-zero funnel draws as an empty chart
    st.caption(t("ops.no_sessions", LANG))

left, right = st.columns(2)
with left:
    st.subheader(t("ops.outcomes", LANG))
    outcomes = pd.DataFrame(data["outcomes"])
    if outcomes.empty:
        st.caption(t("ops.no_sessions", LANG))
    else:
        outcomes["label"] = [
            code_label("outcome", o, LANG) + (f" ({code_label('abort', r, LANG)})" if r else "")
            for o, r in zip(outcomes["outcome"], outcomes["reason"])
        ]
        st.plotly_chart(
            px.bar(
                outcomes,
                x="label",
                y="sessions",
                color="label",
                labels={"label": "", "sessions": t("ops.sessions", LANG)},
            ).update_layout(separators=number_separators(LANG)),
            width="stretch",
            config=plotly_config(LANG),
        )
    st.subheader(t("ops.helpful", LANG))
    if not any(h["sessions"] for h in data["helpful"]):  # like the sections above: no table of zeros
        st.caption(t("ops.no_sessions", LANG))
    else:
        st.dataframe(
            pd.DataFrame(
                {
                    t("ops.helpful_outcome", LANG): [
                        code_label("outcome", h["outcome"], LANG) for h in data["helpful"]
                    ],
                    t("ops.helpful_sessions", LANG): [h["sessions"] for h in data["helpful"]],
                    t("ops.helpful_answered", LANG): [h["answered"] for h in data["helpful"]],
                    t("ops.helpful_rate", LANG): [
                        format_percent(h["helpful"] / h["answered"], LANG) if h["answered"] else "—"
                        for h in data["helpful"]
                    ],
                }
            ),
            hide_index=True,
        )
with right:
    st.subheader(t("ops.latency", LANG))
    steps = pd.DataFrame(data["step_ms"])
    if steps.empty:
        st.caption(t("ops.no_steps", LANG))
    else:
        steps["step"] = steps["node"].map(lambda n: code_label("step", n, LANG))
        st.plotly_chart(
            px.box(steps, x="step", y="ms", points=False, labels={"ms": "ms", "step": ""}).update_layout(
                separators=number_separators(LANG)
            ),
            width="stretch",
            config=plotly_config(LANG),
        )
        sessions = pd.DataFrame(data["latencies"])
        if not sessions.empty:
            p50, p95 = sessions["seconds"].quantile([0.5, 0.95])
            st.caption(
                t(
                    "ops.session_latency",
                    LANG,
                    p50=format_number(p50, LANG, decimals=1),
                    p95=format_number(p95, LANG, decimals=1),
                )
            )

overview = operations.overview(deps, user)
st.subheader(t("ops.models", LANG))
st.caption(
    t("ops.engine", LANG, engine=code_label("engine", overview["engine"], LANG))
    + " · "
    + (
        t("ops.metrics_on", LANG, port=overview["metrics_port"])
        if overview["metrics_port"]
        else t("ops.metrics_off", LANG)
    )
)
left, right = st.columns(2)
with left:
    calls = pd.DataFrame(overview["model_calls"])
    if calls.empty:
        st.caption(t("ops.no_model_calls", LANG))
    else:
        st.dataframe(
            calls, hide_index=True, width="stretch", column_config={c: t(f"ops.col_{c}", LANG) for c in calls.columns}
        )
with right:
    st.markdown(f"**{t('ops.fallbacks', LANG)}**")
    fallbacks = pd.DataFrame(overview["fallbacks"])
    if fallbacks.empty:
        st.caption(t("ops.no_fallbacks", LANG))
    else:
        st.dataframe(
            fallbacks,
            hide_index=True,
            width="stretch",
            column_config={c: t(f"ops.col_{c}", LANG) for c in fallbacks.columns},
        )

st.subheader(t("ops.job_queue", LANG))
queue = pd.DataFrame(overview["jobs"])
if queue.empty:
    st.caption(t("ops.no_jobs", LANG))
else:
    st.dataframe(queue, hide_index=True, column_config={c: t(f"ops.col_{c}", LANG) for c in queue.columns})
    running = pd.DataFrame(overview["running_jobs"])
    if not running.empty:
        st.dataframe(
            running.assign(heartbeat_at=running["heartbeat_at"].map(lambda v: format_datetime(v, LANG))),
            hide_index=True,
            width="stretch",
            column_config={c: t(f"ops.col_{c}", LANG) for c in running.columns},
        )

st.subheader(t("ops.locked_accounts", LANG))
locked = pd.DataFrame(overview["locked_accounts"])
if locked.empty:
    st.caption(t("ops.no_locked", LANG))
else:
    st.dataframe(
        locked.assign(locked_until=locked["locked_until"].map(lambda v: format_datetime(v, LANG))),
        hide_index=True,
        column_config={c: t(f"ops.col_{c}", LANG) for c in locked.columns},
    )
