"""Employees: the list, and one person's skills, enrollments and recent activity."""
import streamlit as st

from agents.admin import dashboards
from ui.session import require_admin
from ui.skills_evolution import person_skills_over_time
from ui.tables import table_with_csv

user = require_admin()


def say(es: str, en: str) -> str:
    return es if user.language == "es" else en


report = dashboards.employee_report(user, st.session_state.get("detail_email"))
st.title(say("👥 Empleados", "👥 Employees"))
table_with_csv(report.employees, "employees")
emails = report.employees["email"].tolist() if not report.employees.empty else []
names = dict(zip(emails, report.employees["full_name"])) if emails else {}
st.selectbox(say("Empleado", "Employee"), emails, index=None, key="detail_email",
             format_func=lambda email: f"{names.get(email, email)} · {email}",
             placeholder=say("Elige una persona", "Pick a person"))
if report.profile:
    person = report.profile
    st.subheader(person["full_name"])
    st.caption(" · ".join(str(v) for v in (person["email"], person["job_title"], person["department"],
                                           say("activo", "active") if person["is_active"] else say("inactivo", "inactive")) if v))
    skills_tab, courses_tab, activity_tab = st.tabs([say("Habilidades", "Skills"), say("Cursos", "Courses"),
                                                     say("Actividad", "Activity")])
    with skills_tab:
        table_with_csv(report.skills, "employee_skills", empty=say("Sin habilidades registradas.", "No skills recorded."))
        person_skills_over_time(user, person["email"])
    with courses_tab:
        table_with_csv(report.enrollments, "employee_enrollments", empty=say("Sin cursos.", "No courses."))
    with activity_tab:
        table_with_csv(report.activity, "employee_activity", empty=say("Sin actividad reciente.", "No recent activity."))
