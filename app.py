"""SkillNet: sign in, then the pages your role may use (st.navigation holds nothing else)."""
from __future__ import annotations

import streamlit as st

from ui.session import current_user, sign_in, sign_out
from ui.chat_server import start_chat_server
from ui.startup import prepare_app

st.set_page_config(page_title="SkillNet", page_icon="🎓", layout="wide")
prepare_app()
start_chat_server()  # the Gradio tutor chat, once per process, in the background (pages embed it)

# Pages by role: (file, English title, Spanish title, icon); the first is the role's home.
# An employee's navigation never contains an admin page, so an admin URL cannot open.
EMPLOYEE_PAGES = [
    ("pages/home_employee.py", "Home", "Inicio", "🏠"),
    ("pages/my_courses.py", "My courses", "Mis cursos", "📚"),
    ("pages/course_player.py", "Course player", "Curso", "▶️"),
    ("pages/reviews.py", "Reviews", "Repasos", "🔁"),
    ("pages/tutor.py", "Tutor", "Tutor", "💬"),
    ("pages/helpdesk.py", "Helpdesk", "Helpdesk", "🛟"),
    ("pages/my_tickets.py", "My tickets", "Mis tickets", "🎟️"),
]
ADMIN_PAGES = [
    ("pages/home_admin.py", "Overview", "Resumen", "🏢"),
    ("pages/skills_matrix.py", "Skills matrix", "Matriz de habilidades", "🧩"),
    ("pages/skill_gaps.py", "Skill gaps", "Brechas de habilidades", "🎯"),
    ("pages/knowledge_gaps.py", "Knowledge gaps", "Lagunas de conocimiento", "🕳️"),
    ("pages/course_stats.py", "Course statistics", "Estadísticas de cursos", "📊"),
    ("pages/employee_detail.py", "Employees", "Empleados", "👥"),
    ("pages/content_studio.py", "Content studio", "Estudio de contenidos", "🏭"),
    ("pages/admin_assistant.py", "Admin assistant", "Asistente de administración", "🤖"),
    ("pages/helpdesk.py", "Helpdesk", "Helpdesk", "🛟"),
    ("pages/my_tickets.py", "My tickets", "Mis tickets", "🎟️"),
    ("pages/helpdesk_admin.py", "Helpdesk tickets", "Tickets del helpdesk", "🎫"),
    ("pages/operations.py", "Operations", "Operaciones", "🩺"),
    ("pages/retrieval_lab.py", "Retrieval lab", "Laboratorio de búsqueda", "🔬"),
]


def navigation_for(user) -> dict[str, list[st.Page]]:
    spanish = user.language == "es"
    pages, section = (ADMIN_PAGES, ("Organización", "Organisation")) if user.is_admin else \
        (EMPLOYEE_PAGES, ("Aprender", "Learn"))
    return {section[0] if spanish else section[1]: [
        st.Page(path, title=es if spanish else en, icon=icon, default=i == 0)
        for i, (path, en, es, icon) in enumerate(pages)]}


def sign_in_page() -> None:
    st.title("🎓 SkillNet")
    st.caption("Learn from your company's own documents. / Aprende con los documentos de tu empresa.")
    with st.form("sign_in"):
        email = st.text_input("Email")
        password = st.text_input("Password / Contraseña", type="password")
        submitted = st.form_submit_button("Sign in / Entrar", type="primary")
    if submitted:
        if sign_in(email, password):
            st.rerun()
        st.error("Wrong email or password, or the account is inactive. / "
                 "Correo o contraseña incorrectos, o la cuenta está inactiva.")


user = current_user()
if user is None:
    st.navigation([st.Page(sign_in_page, title="Sign in", icon="🔑")], position="hidden").run()
else:
    with st.sidebar:
        role = ("Administración de RR. HH." if user.is_admin else "Empleado/a") if user.language == "es" \
            else ("HR admin" if user.is_admin else "Employee")
        st.markdown(f"**{user.full_name}**  \n{user.email} · {role}")
        if st.button("Sign out / Salir", key="sign_out"):
            sign_out()
            st.rerun()
    st.navigation(navigation_for(user)).run()
