"""The content studio's panel for a published job: open the course and manual, export SCORM, set how the
tutor answers, and assign the course to employees after a preview and the admin's confirm."""

from __future__ import annotations

import streamlit as st

from agents.admin import assign
from agents.i18n import t
from ui.links import page_link
from ui.scorm import scorm_download
from ui.tutor_mode import tutor_mode_setting


def published_panel(deps, user, job_id: str, job) -> None:
    lang = user.language
    st.success(t("content.studio.published", lang))
    if job.result_course_id:
        course_id = str(job.result_course_id)
        page_link("pages/course_player.py", t("content.studio.open_course", lang), "▶️", {"course": course_id})
        if job.result_manual_id:
            page_link(
                "pages/manuals.py", t("content.studio.open_manual", lang), "📘", {"manual": str(job.result_manual_id)}
            )
        scorm_download(deps, user, job.result_course_id)
        tutor_mode_setting(deps, user, course_id)  # how the tutor answers the learners taking it (issue 29)
        # keyed: its open state lives in the session, so a rerun that redraws the panel above keeps it open
        with st.expander(t("content.studio.assign", lang), key=f"assign-{job_id}", on_change="rerun"):
            people = assign.employees(deps, user)
            chosen = st.multiselect(
                t("content.studio.assign_who", lang),
                list(people),
                format_func=lambda person: people[person],
                key=f"assign-who-{job_id}",
                placeholder=t("content.studio.assign_pick", lang),
            )
            deadline = st.date_input(t("content.studio.assign_deadline", lang), value=None, key=f"assign-dl-{job_id}")
            if st.button(t("content.studio.assign_preview", lang), key=f"assign-prev-{job_id}", disabled=not chosen):
                try:
                    st.session_state[f"assign-plan-{job_id}"] = assign.preview(
                        deps, user, course_id, chosen, deadline.isoformat() if deadline else None
                    )
                except assign.AssignError as exc:
                    st.error(str(exc))
            if done := st.session_state.pop(f"assign-done-{job_id}", None):
                st.success(done)
            plan = st.session_state.get(f"assign-plan-{job_id}")
            if plan:
                st.markdown(plan["preview"])
                if st.button(t("content.studio.assign_confirm", lang), type="primary", key=f"assign-ok-{job_id}"):
                    try:  # the preview goes once it has run: drawn again, its Confirm would invite a second run
                        st.session_state[f"assign-done-{job_id}"] = assign.confirm(deps, user, plan["arguments"])
                        st.session_state.pop(f"assign-plan-{job_id}", None)
                        st.rerun()
                    except assign.AssignError as exc:
                        st.error(str(exc))
