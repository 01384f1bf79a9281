"""Employee home: my courses at a glance, reviews due, my skills, recent tutor chats."""

import pandas as pd
import streamlit as st

from agents.i18n import code_label, format_date, format_datetime, format_percent, t
from agents.learning import service
from ui.deps import app_deps
from ui.links import page_link
from ui.session import require_user
from ui.tables import table_with_csv

user = require_user()
lang = user.language
st.title(t("learning.hello", lang, name=user.full_name.split()[0]))  # first: it replaces the sign-in form at once
with st.spinner(t("learning.home_loading", lang)):
    deps = app_deps()
    service.leave_exercises(deps, user)  # the course player is closed: its exercise is no longer in progress
    view = service.home(deps, user)

open_courses = [e for e in view.enrollments if e.status != "completed"]
cols = st.columns(3)
cols[0].metric(t("learning.open_courses", lang), len(open_courses))
cols[1].metric(t("learning.completed_courses", lang), len(view.enrollments) - len(open_courses))
cols[2].metric(t("learning.reviews_due_metric", lang), view.reviews_due)
if view.reviews_due and st.button(t("learning.start_reviews", lang), icon="🔁"):
    st.switch_page("pages/reviews.py")

st.subheader(t("learning.my_courses", lang))
if not view.enrollments:
    st.info(t("learning.no_courses", lang))
elif not open_courses:
    st.success(t("learning.all_done", lang))
for enrollment in open_courses[:5]:
    with st.container(border=True):
        left, right = st.columns([4, 1])
        deadline = (
            " · " + t("learning.deadline_inline", lang, date=format_date(enrollment.deadline, lang))
            if enrollment.deadline
            else ""
        )
        left.markdown(f"**{enrollment.course_title}**{deadline}")
        left.progress(enrollment.progress, text=format_percent(enrollment.progress, lang))
        if right.button(t("learning.continue", lang), key=f"go_{enrollment.course_id}"):
            st.session_state["learn_course_id"] = str(enrollment.course_id)
            st.switch_page("pages/course_player.py")

if view.skills:
    st.subheader(t("learning.my_skills", lang))
    table_with_csv(
        pd.DataFrame(
            [
                {
                    t("learning.col.skill", lang): s.skill,
                    t("learning.col.category", lang): s.category,
                    t("learning.col.level", lang): code_label("level", s.level, lang),
                    t("learning.col.source", lang): t(
                        "learning.skill_source.admin" if s.source == "admin" else "learning.skill_source.evidence", lang
                    ),
                }
                for s in view.skills
            ]
        ),
        "my_skills",
    )

st.subheader(t("learning.recent_chats", lang))
if not view.recent_chats:
    st.caption(t("learning.no_chats", lang))
for session in view.recent_chats:  # each opens its conversation on the Tutor page
    page_link(
        "pages/tutor.py",
        f"{session.title or t('learning.chat', lang)} · {format_datetime(session.updated_at, lang)}",
        "💬",
        {"session": str(session.id)},
    )
