"""Course statistics: enrolled, completion, average score; per course the hardest exercises."""
import streamlit as st

from agents.admin import dashboards
from ui.session import require_admin
from ui.tables import table_with_csv

user = require_admin()


def say(es: str, en: str) -> str:
    return es if user.language == "es" else en


report = dashboards.course_report(user, st.session_state.get("stats_course"))
st.title(say("📊 Estadísticas de cursos", "📊 Course statistics"))
table_with_csv(report.courses, "courses")
st.selectbox(say("Curso", "Course"), report.titles, index=None, key="stats_course",
             placeholder=say("Elige un curso para ver el detalle", "Pick a course for its detail"))
if report.stats:
    stats = report.stats
    row = st.columns(5)
    row[0].metric(say("Inscritos", "Enrolled"), stats["enrolled"])
    row[1].metric(say("Completados", "Completed"), stats["completed"])
    row[2].metric(say("Finalización", "Completion"), f"{round(stats['completion_rate'] * 100)}%")
    row[3].metric(say("Nota media", "Average score"), "—" if stats["avg_score"] is None else round(stats["avg_score"], 2))
    row[4].metric(say("Vencidos", "Overdue"), stats["overdue"])
    st.subheader(say("Ejercicios más difíciles", "Hardest exercises"))
    table_with_csv(report.hardest, "hardest_exercises", empty=say("Aún sin intentos.", "No attempts yet."))
