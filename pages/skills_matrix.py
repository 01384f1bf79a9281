"""The skills matrix: employees × skills as a heatmap (hover: level, source, date) and a table."""
import streamlit as st

from agents.admin import dashboards
from ui.session import require_admin
from ui.skills_evolution import skills_evolution_chart
from ui.tables import table_with_csv

user = require_admin()
ALL = "—"


def say(es: str, en: str) -> str:
    return es if user.language == "es" else en


department = st.session_state.get("matrix_department", ALL)
category = st.session_state.get("matrix_category", ALL)
view = dashboards.matrix_view(user, department=None if department == ALL else department,
                              category=None if category == ALL else category)

st.title(say("🧩 Matriz de habilidades", "🧩 Skills matrix"))
left, right = st.columns(2)
left.selectbox(say("Departamento", "Department"), [ALL, *view.departments], key="matrix_department")
right.selectbox(say("Categoría", "Category"), [ALL, *view.categories], key="matrix_category")
st.caption(say(f"{view.shape[0]} empleados × {view.shape[1]} habilidades · vacío = sin evaluar",
               f"{view.shape[0]} employees × {view.shape[1]} skills · blank = not assessed"))
if view.shape[0] and view.shape[1]:
    st.plotly_chart(view.figure, key="matrix_heatmap")
table_with_csv(view.table, "skills_matrix")
skills_evolution_chart(user)
