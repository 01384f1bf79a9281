"""Organisation overview for HR admins: headcounts, courses, skills without experts, alerts."""
import streamlit as st

from agents.admin import dashboards
from ui.session import require_admin
from ui.tables import table_with_csv

user = require_admin()


def say(es: str, en: str) -> str:
    return es if user.language == "es" else en


data = dashboards.overview(user)
counts = data.counts
st.title(say("🏢 Organización", "🏢 Organisation"))
row = st.columns(5)
row[0].metric(say("Empleados activos", "Active employees"), counts["employees"],
              help=say(f"{counts['inactive']} inactivos · {counts['admins']} administradores",
                       f"{counts['inactive']} inactive · {counts['admins']} admins"))
row[1].metric(say("Cursos publicados", "Published courses"), counts["published_courses"],
              help=say(f"{counts['draft_courses']} en borrador", f"{counts['draft_courses']} drafts"))
row[2].metric(say("Inscripciones abiertas", "Open enrollments"), counts["open_enrollments"])
row[3].metric(say("Habilidades sin experto", "Skills without an expert"), counts["skills_without_expert"],
              help=say(f"de {counts['skills']} habilidades", f"of {counts['skills']} skills"))
row[4].metric(say("Alertas", "Alerts"), counts["alerts"],
              help=say(f"{counts['high_alerts']} de prioridad alta", f"{counts['high_alerts']} high severity"))

st.subheader(say("Alertas", "Alerts"))
table_with_csv(data.alerts, "alerts", empty=say("Sin alertas.", "No alerts."))
st.subheader(say("Habilidades sin ningún experto", "Skills with no expert"))
table_with_csv(data.gaps, "skills_without_expert", empty=say("Todas tienen al menos un experto.",
                                                              "Every skill has at least one expert."))
