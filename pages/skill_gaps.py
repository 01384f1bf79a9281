"""Skill gaps (fewer than N experts), who knows a skill, and mentorship suggestions."""

import streamlit as st

from agents.admin import dashboards
from agents.i18n import code_label, t
from ui.deps import app_deps
from ui.session import require_admin
from ui.tables import table_with_csv

user = require_admin()
deps = app_deps()
lang = user.language
LEVELS = ["low", "medium", "high"]
insights = dashboards.skill_insights(
    deps,
    user,
    threshold=int(st.session_state.get("gaps_threshold", 1)),
    skill=st.session_state.get("who_skill"),
    min_level=st.session_state.get("who_level", "medium"),
)
st.title(t("admin.gaps.title", lang))
gaps_tab, who_tab, mentor_tab = st.tabs(
    [t("admin.gaps.tab_gaps", lang), t("admin.gaps.tab_who", lang), t("admin.gaps.tab_mentorship", lang)]
)
with gaps_tab:
    st.number_input(t("admin.gaps.threshold", lang), min_value=1, max_value=20, value=1, key="gaps_threshold")
    table_with_csv(insights.gaps, "skill_gaps", empty=t("admin.gaps.none_below", lang))
with who_tab:
    left, right = st.columns([3, 1])
    left.selectbox(
        t("col.skill", lang), insights.skills, index=None, key="who_skill", placeholder=t("admin.gaps.pick_skill", lang)
    )
    right.selectbox(
        t("admin.gaps.min_level", lang),
        LEVELS,
        index=1,
        key="who_level",
        format_func=lambda level: code_label("level", level, lang),
    )
    if insights.error:
        st.error(insights.error)
    elif st.session_state.get("who_skill"):
        table_with_csv(insights.who_knows, "who_knows", empty=t("admin.gaps.nobody", lang))
with mentor_tab:
    st.caption(t("admin.gaps.mentorship_caption", lang))
    table_with_csv(
        insights.mentorship,
        "mentorship",
        empty=t("admin.gaps.no_suggestions", lang),
        columns=["skill", "mentor", "mentee", "mentee_level", "same_department"],  # emails: in the CSV
    )
