"""Employee home: my courses at a glance, reviews due, my skills, recent tutor chats."""
import pandas as pd
import streamlit as st

from agents.learning import service
from ui.exercises import t
from ui.session import require_user
from ui.tables import table_with_csv

user = require_user()
lang = user.language
view = service.home(user)

st.title(t(lang, f"Hola, {user.full_name.split()[0]} 👋", f"Hi, {user.full_name.split()[0]} 👋"))
open_courses = [e for e in view.enrollments if e.status != "completed"]
cols = st.columns(3)
cols[0].metric(t(lang, "Cursos pendientes", "Open courses"), len(open_courses))
cols[1].metric(t(lang, "Cursos completados", "Completed courses"), len(view.enrollments) - len(open_courses))
cols[2].metric(t(lang, "Repasos pendientes", "Reviews due"), view.reviews_due)
if view.reviews_due and st.button(t(lang, "Empezar repasos", "Start reviews"), icon="🔁"):
    st.switch_page("pages/reviews.py")

st.subheader(t(lang, "Mis cursos", "My courses"))
if not view.enrollments:
    st.info(t(lang, "Aún no tienes cursos asignados.", "You have no courses assigned yet."))
elif not open_courses:
    st.success(t(lang, "¡Has completado todos tus cursos! Repásalos cuando quieras en Mis cursos.",
                 "You have completed all your courses! Revisit them any time in My courses."))
for enrollment in open_courses[:5]:
    with st.container(border=True):
        left, right = st.columns([4, 1])
        deadline = f" · {t(lang, 'fecha límite', 'deadline')} {enrollment.deadline}" if enrollment.deadline else ""
        left.markdown(f"**{enrollment.course_title}**{deadline}")
        left.progress(enrollment.progress, text=f"{round(enrollment.progress * 100)}%")
        if right.button(t(lang, "Continuar", "Continue"), key=f"go_{enrollment.course_id}"):
            st.session_state["learn_course_id"] = str(enrollment.course_id)
            st.switch_page("pages/course_player.py")

if view.skills:
    st.subheader(t(lang, "Mis habilidades", "My skills"))
    levels = {"low": t(lang, "bajo", "low"), "medium": t(lang, "medio", "medium"), "high": t(lang, "alto", "high")}
    table_with_csv(pd.DataFrame([{t(lang, "Habilidad", "Skill"): s.skill, t(lang, "Categoría", "Category"): s.category,
                                  t(lang, "Nivel", "Level"): levels.get(s.level, s.level),
                                  t(lang, "Origen", "Source"): t(lang, "verificado", "verified") if s.source == "admin"
                                  else t(lang, "ejercicios", "exercises")} for s in view.skills]), "my_skills")

st.subheader(t(lang, "Conversaciones recientes con el tutor", "Recent tutor chats"))
if not view.recent_chats:
    st.caption(t(lang, "Todavía no has hablado con el tutor.", "You haven't chatted with the tutor yet."))
for session in view.recent_chats:
    st.markdown(f"- {session.title or t(lang, 'Conversación', 'Chat')} · {session.updated_at:%Y-%m-%d %H:%M}")
