"""Organisation overview for HR admins: headcounts, courses, skills without experts, alerts."""

import streamlit as st

from agents.admin import dashboards
from agents.i18n import format_number, t
from agents.llm import engine_status
from ui.deps import app_deps
from ui.session import require_admin
from ui.tables import table_with_csv

user = require_admin()
lang = user.language
st.title(t("admin.overview.title", lang))  # first: it replaces the sign-in form at once
with st.spinner(t("admin.overview.loading", lang)):
    deps = app_deps()
    data = dashboards.overview(deps, user)
counts = data.counts
row = st.columns(5)
row[0].metric(
    t("admin.overview.active_employees", lang),
    counts["employees"],
    help=t("admin.overview.inactive_admins", lang, inactive=counts["inactive"], admins=counts["admins"]),
)
row[1].metric(
    t("admin.overview.published_courses", lang),
    counts["published_courses"],
    help=t("admin.overview.drafts", lang, drafts=counts["draft_courses"]),
)
row[2].metric(t("admin.overview.open_enrollments", lang), counts["open_enrollments"])
row[3].metric(
    t("admin.overview.skills_without_expert", lang),
    counts["skills_without_expert"],
    help=t("admin.overview.of_skills", lang, skills=counts["skills"]),
)
row[4].metric(
    t("admin.overview.alerts", lang),
    counts["alerts"],
    help=t("admin.overview.high_alerts", lang, high=counts["high_alerts"]),
)

st.subheader(t("admin.overview.alerts", lang))
table_with_csv(data.alerts, "alerts", empty=t("admin.overview.no_alerts", lang))
st.subheader(t("admin.overview.skills_with_no_expert", lang))
table_with_csv(data.gaps, "skills_without_expert", empty=t("admin.overview.every_skill_has_expert", lang))

with st.expander(t("engine.card.title", lang)):  # the capability probe, run once per process
    engine = engine_status(deps.llm)
    if engine["engine"] == "offline":
        st.caption(t("engine.card.offline", lang))
    elif not engine["reachable"]:
        st.warning(t("engine.card.unreachable", lang, model=engine["model"]))
    else:
        yes_no = {True: t("engine.card.yes", lang), False: t("engine.card.no", lang)}
        unknown = "?"
        st.markdown(
            t(
                "engine.card.summary",
                lang,
                model=engine["model"],
                speed=format_number(engine["tokens_per_second"], lang, decimals=1)
                if engine["tokens_per_second"]
                else unknown,
                ttft=format_number((engine["ttft_ms"] or 0) / 1000, lang, decimals=1),
                context=format_number(engine["context_tokens"], lang) if engine["context_tokens"] else unknown,
            )
        )
        st.caption(
            t(
                "engine.card.features",
                lang,
                **{k: yes_no[bool(engine[k])] for k in ("streaming", "json_mode", "tool_calling", "usage")},
            )
        )
        if not engine["tool_calling"]:
            st.info(t("engine.card.no_tools", lang))
        if engine["slow"]:
            st.info(t("engine.card.slow", lang))
