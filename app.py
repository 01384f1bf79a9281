"""SkillNet: sign in, then the pages your role may use (st.navigation holds nothing else)."""
from __future__ import annotations

import streamlit as st

from ui.session import current_user, sign_in, sign_out
from ui.chat_server import start_chat_server
from ui.startup import prepare_app

st.set_page_config(page_title="SkillNet", page_icon="🎓", layout="wide")
prepare_app()
start_chat_server()  # the Gradio tutor chat, once per process, in the background (pages embed it)

# Pages by role. An employee's navigation never contains an admin page, so an admin URL cannot open.
EMPLOYEE_PAGES = {
    "Learn": [
        st.Page("pages/home_employee.py", title="Home", icon="🏠", default=True),
        st.Page("pages/my_courses.py", title="My courses", icon="📚"),
        st.Page("pages/course_player.py", title="Course player", icon="▶️"),
        st.Page("pages/reviews.py", title="Reviews", icon="🔁"),
        st.Page("pages/tutor.py", title="Tutor", icon="💬"),
        st.Page("pages/helpdesk.py", title="Helpdesk", icon="🛟"),
    ],
}
ADMIN_PAGES = {
    "Organisation": [
        st.Page("pages/home_admin.py", title="Overview", icon="🏢", default=True),
        st.Page("pages/skills_matrix.py", title="Skills matrix", icon="🧩"),
        st.Page("pages/skill_gaps.py", title="Skill gaps", icon="🎯"),
        st.Page("pages/course_stats.py", title="Course statistics", icon="📊"),
        st.Page("pages/employee_detail.py", title="Employees", icon="👥"),
        st.Page("pages/content_studio.py", title="Content studio", icon="🏭"),
        st.Page("pages/admin_assistant.py", title="Admin assistant", icon="🤖"),
        st.Page("pages/helpdesk.py", title="Helpdesk", icon="🛟"),
        st.Page("pages/helpdesk_admin.py", title="Helpdesk tickets", icon="🎫"),
        st.Page("pages/retrieval_lab.py", title="Retrieval lab", icon="🔬"),
    ],
}


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
        st.markdown(f"**{user.full_name}**  \n{user.email} · {'HR admin' if user.is_admin else 'Employee'}")
        if st.button("Sign out / Salir", key="sign_out"):
            sign_out()
            st.rerun()
    st.navigation(ADMIN_PAGES if user.is_admin else EMPLOYEE_PAGES).run()
