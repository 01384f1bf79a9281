"""Organisation overview for HR admins: headcounts, courses, skills without experts, alerts."""
import streamlit as st

from agents.admin import dashboards
from agents.i18n import t
from ui.session import require_admin
from ui.tables import table_with_csv

user = require_admin()
lang = user.language
data = dashboards.overview(user)
counts = data.counts
st.title(t("admin.overview.title", lang))
row = st.columns(5)
row[0].metric(t("admin.overview.active_employees", lang), counts["employees"],
              help=t("admin.overview.inactive_admins", lang, inactive=counts["inactive"], admins=counts["admins"]))
row[1].metric(t("admin.overview.published_courses", lang), counts["published_courses"],
              help=t("admin.overview.drafts", lang, drafts=counts["draft_courses"]))
row[2].metric(t("admin.overview.open_enrollments", lang), counts["open_enrollments"])
row[3].metric(t("admin.overview.skills_without_expert", lang), counts["skills_without_expert"],
              help=t("admin.overview.of_skills", lang, skills=counts["skills"]))
row[4].metric(t("admin.overview.alerts", lang), counts["alerts"],
              help=t("admin.overview.high_alerts", lang, high=counts["high_alerts"]))

st.subheader(t("admin.overview.alerts", lang))
table_with_csv(data.alerts, "alerts", empty=t("admin.overview.no_alerts", lang))
st.subheader(t("admin.overview.skills_with_no_expert", lang))
table_with_csv(data.gaps, "skills_without_expert", empty=t("admin.overview.every_skill_has_expert", lang))
