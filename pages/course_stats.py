"""Course statistics: enrolled, completion, average score; per course the hardest exercises and the course's
health (item analysis of every exercise, with flags to act on)."""

import streamlit as st

from agents.admin import dashboards
from agents.i18n import format_percent, t
from ui.course_health import course_health_section
from ui.deps import app_deps
from ui.links import page_link
from ui.review_forecast import review_planning_section
from ui.session import require_admin
from ui.tables import table_with_csv
from ui.tutor_mode import tutor_mode_setting

user = require_admin()
deps = app_deps()
lang = user.language
report = dashboards.course_report(deps, user, st.session_state.get("stats_course"))
st.title(t("admin.stats.title", lang))
table_with_csv(report.courses, "courses")
st.selectbox(
    t("col.course", lang),
    list(report.titles),
    index=None,
    key="stats_course",
    placeholder=t("admin.stats.pick_course", lang),
    format_func=report.titles.get,
)
if report.stats:
    stats = report.stats
    if report.course_id:
        page_link("pages/course_player.py", t("admin.stats.preview", lang), "▶️", {"course": report.course_id})
        tutor_mode_setting(deps, user, report.course_id)  # how the tutor answers the learners taking it
    row = st.columns(5)
    row[0].metric(t("col.enrolled", lang), stats["enrolled"])
    row[1].metric(t("col.completed", lang), stats["completed"])
    row[2].metric(t("col.completion_rate", lang), format_percent(stats["completion_rate"], lang))
    row[3].metric(t("col.avg_score", lang), format_percent(stats["avg_score"], lang) or "—")
    row[4].metric(t("col.overdue", lang), stats["overdue"])
    st.subheader(t("admin.stats.hardest", lang))
    table_with_csv(report.hardest, "hardest_exercises", empty=t("admin.stats.no_attempts", lang))
    if report.course_id:  # beside the hardest exercises: what each exercise's answers say about it
        course_health_section(deps, user, report.course_id)
    review_planning_section(deps, user, stats["title"])
