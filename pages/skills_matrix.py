"""The skills matrix: employees × skills as a heatmap (hover: level, source, date) and as a list."""

import streamlit as st

from agents.admin import dashboards
from agents.i18n import plotly_config, t
from ui.deps import app_deps
from ui.session import require_admin
from ui.skills_evolution import skills_evolution_chart
from ui.tables import table_with_csv

user = require_admin()
deps = app_deps()
lang = user.language
department = st.session_state.get("matrix_department")
category = st.session_state.get("matrix_category")
view = dashboards.matrix_view(deps, user, department=department, category=category)

st.title(t("admin.matrix.title", lang))
left, right = st.columns(2)
left.selectbox(
    t("col.department", lang),
    list(view.departments),
    index=None,
    key="matrix_department",
    placeholder=t("admin.all", lang),
    format_func=view.departments.get,
)
right.selectbox(
    t("col.category", lang),
    list(view.categories),
    index=None,
    key="matrix_category",
    placeholder=t("admin.all", lang),
    format_func=view.categories.get,
)
st.caption(t("admin.matrix.shape", lang, employees=view.shape[0], skills=view.shape[1]))
if view.shape[0] and view.shape[1]:
    st.plotly_chart(view.figure, key="matrix_heatmap", config=plotly_config(lang))
# The heatmap is the matrix; the table lists it a person and skill a row (22 skills side by side, a column
# each, were 3,700 px wide in a 938-px page), which sorts by level and filters as a spreadsheet does.
levels = view.table.melt(["employee", "department"], view.skill_columns, "skill", "level", ignore_index=False)
table_with_csv(levels[levels["level"] != ""].sort_index(kind="stable"), "skills_matrix")
skills_evolution_chart(deps, user)
