"""My courses: assigned, in progress and completed, with deadlines, progress and scores."""
from datetime import date

import streamlit as st

from agents.learning import service
from ui.exercises import t
from ui.session import require_user

user = require_user()
lang = user.language
enrollments = service.my_courses(user)

st.title(t(lang, "Mis cursos", "My courses"))
if not enrollments:
    st.info(t(lang, "Aún no tienes cursos asignados.", "You have no courses assigned yet."))
groups = [("in_progress", t(lang, "En curso", "In progress")), ("assigned", t(lang, "Asignados", "Assigned")),
          ("completed", t(lang, "Completados", "Completed"))]
for status, heading in groups:
    mine = [e for e in enrollments if e.status == status]
    if not mine:
        continue
    st.subheader(f"{heading} ({len(mine)})")
    for enrollment in mine:
        with st.container(border=True):
            left, right = st.columns([4, 1])
            left.markdown(f"**{enrollment.course_title}**")
            facts = []
            if enrollment.deadline:
                late = enrollment.deadline < date.today() and status != "completed"
                facts.append(("⚠️ " if late else "") + t(lang, f"Fecha límite: {enrollment.deadline}",
                                                          f"Deadline: {enrollment.deadline}"))
            if enrollment.score is not None:
                facts.append(t(lang, f"Nota: {round(enrollment.score * 100)}%", f"Score: {round(enrollment.score * 100)}%"))
            if facts:
                left.caption(" · ".join(facts))
            left.progress(enrollment.progress, text=f"{round(enrollment.progress * 100)}%")
            label = t(lang, "Repasar", "Revisit") if status == "completed" else t(lang, "Abrir", "Open")
            if right.button(label, key=f"open_{enrollment.course_id}"):
                st.session_state["learn_course_id"] = str(enrollment.course_id)
                st.switch_page("pages/course_player.py")
