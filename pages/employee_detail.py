"""Employees: the list, one person's skills, enrollments and recent activity, changes to that person
(previewed, then confirmed), and locked sign-ins."""

import pandas as pd
import streamlit as st

from agents import auth
from agents.admin import dashboards
from agents.i18n import code_label, t
from ui.deps import app_deps
from ui.employee_actions import employee_actions
from ui.session import require_admin
from ui.skills_evolution import person_skills_over_time
from ui.tables import table_with_csv

user = require_admin()
deps = app_deps()
lang = user.language
report = dashboards.employee_report(deps, user, st.session_state.get("detail_email"))
st.title(t("admin.employees.title", lang))
# a row of the directory fits the page: email and role are in the CSV, the picker and the person's card
DIRECTORY = [
    "full_name",
    "department",
    "job_title",
    "is_active",
    "active_courses",
    "completed_courses",
    "skills_count",
    "last_active_at",
]
table_with_csv(report.employees, "employees", columns=DIRECTORY)
emails = report.employees["email"].tolist() if not report.employees.empty else []
names = dict(zip(emails, report.employees["full_name"])) if emails else {}
st.selectbox(
    t("col.employee", lang),
    emails,
    index=None,
    key="detail_email",
    format_func=lambda email: f"{names.get(email, email)} · {email}",
    placeholder=t("admin.employees.pick_person", lang),
)
if report.profile:
    person = report.profile
    st.subheader(person["full_name"])
    state = code_label("kind", "active" if person["is_active"] else "inactive", lang)
    st.caption(" · ".join(str(v) for v in (person["email"], person["job_title"], person["department"], state) if v))
    skills_tab, courses_tab, activity_tab = st.tabs(
        [
            t("admin.employees.tab_skills", lang),
            t("admin.employees.tab_courses", lang),
            t("admin.employees.tab_activity", lang),
        ]
    )
    with skills_tab:
        table_with_csv(report.skills, "employee_skills", empty=t("admin.employees.no_skills", lang))
        person_skills_over_time(deps, user, person["email"])
    with courses_tab:
        table_with_csv(report.enrollments, "employee_enrollments", empty=t("admin.employees.no_courses", lang))
    with activity_tab:
        table_with_csv(report.activity, "employee_activity", empty=t("admin.employees.no_activity", lang))
    employee_actions(deps, user, person)

st.subheader(t("admin.locked.title", lang))
locked = auth.locked_accounts(deps, user)
table_with_csv(
    pd.DataFrame([{"subject": a.subject, "failures": a.failures, "locked_until": a.locked_until} for a in locked]),
    "locked_accounts",
    empty=t("admin.locked.none", lang),
)
if locked:
    left, right = st.columns([3, 1])
    chosen = left.selectbox(t("admin.locked.account", lang), [a.subject for a in locked], key="unlock_email")
    if right.button(t("admin.locked.unlock", lang), key="unlock_account"):
        if auth.unlock_account(deps, user, chosen):
            st.toast(t("admin.locked.unlocked", lang, email=chosen))
            st.rerun()
