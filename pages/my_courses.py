"""My courses: assigned, in progress and completed, with deadlines, progress and scores."""

import streamlit as st

from agents.i18n import format_date, format_percent, t
from agents.learning import service
from ui.deps import app_deps
from ui.session import require_user

user = require_user()
deps = app_deps()
lang = user.language
service.leave_exercises(deps, user)  # the course player is closed: its exercise is no longer in progress
enrollments = service.my_courses(deps, user)

st.title(t("learning.my_courses", lang))
if not enrollments:
    st.info(t("learning.no_courses", lang))
for status in ("in_progress", "assigned", "completed"):
    mine = [e for e in enrollments if e.status == status]
    if not mine:
        continue
    st.subheader(f"{t(f'learning.group.{status}', lang)} ({len(mine)})")
    for enrollment in mine:
        with st.container(border=True):
            left, right = st.columns([4, 1])
            left.markdown(f"**{enrollment.course_title}**")
            facts = []
            if enrollment.deadline:
                late = enrollment.deadline < deps.now().date() and status != "completed"
                facts.append(
                    ("⚠️ " if late else "") + t("learning.deadline", lang, date=format_date(enrollment.deadline, lang))
                )
            if enrollment.score is not None:
                facts.append(t("learning.score", lang, percent=format_percent(enrollment.score, lang)))
            if facts:
                left.caption(" · ".join(facts))
            left.progress(enrollment.progress, text=format_percent(enrollment.progress, lang))
            label = t("learning.revisit" if status == "completed" else "learning.open", lang)
            if right.button(label, key=f"open_{enrollment.course_id}"):
                st.session_state["learn_course_id"] = str(enrollment.course_id)
                st.switch_page("pages/course_player.py")
