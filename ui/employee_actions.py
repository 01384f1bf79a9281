"""The Employees page's changes to one person — assign a course, verify a skill, deactivate — through the
assistant's own write path: a preview first, then Confirm or Cancel (agents.admin.actions)."""

from __future__ import annotations

import streamlit as st

from agents.admin import actions
from agents.admin.service import AdminInputError
from agents.i18n import code_label, t
from storage.skills import LEVELS

PROPOSAL_KEY = "employee_proposal"


def _propose(deps, user, tool: str, arguments: dict) -> None:
    try:
        proposal = actions.propose(deps, user, tool, arguments)
    except AdminInputError as exc:
        st.error(str(exc))
        return
    st.session_state[PROPOSAL_KEY] = {"id": proposal.id, "preview": proposal.preview}
    st.rerun()


def _pending_card(deps, user, lang: str) -> None:
    proposal = st.session_state[PROPOSAL_KEY]
    with st.container(border=True):
        st.markdown(t("admin.assistant.pending", lang))
        st.text(proposal["preview"])
        confirm, cancel = st.columns(2)
        if confirm.button(t("admin.assistant.confirm", lang), type="primary", key=f"confirm_{proposal['id']}"):
            st.session_state.pop(PROPOSAL_KEY)
            try:
                st.session_state["employee_done"] = actions.confirm(deps, user, proposal["id"])
            except AdminInputError as exc:
                st.session_state["employee_done"] = str(exc)
            st.rerun()
        if cancel.button(t("admin.assistant.cancel", lang), key=f"cancel_{proposal['id']}"):
            st.session_state.pop(PROPOSAL_KEY)
            actions.cancel(deps, user, proposal["id"])
            st.rerun()


def employee_actions(deps, user, person: dict) -> None:
    lang, email = user.language, person["email"]
    st.markdown(f"**{t('admin.actions.title', lang)}**")
    if done := st.session_state.pop("employee_done", None):
        st.success(done)
    if st.session_state.get(PROPOSAL_KEY):
        _pending_card(deps, user, lang)
        return
    choices = actions.options(deps, user)
    assign_tab, verify_tab, deactivate_tab = st.tabs(
        [
            t("admin.actions.tab_assign", lang),
            t("admin.actions.tab_verify", lang),
            t("admin.actions.tab_deactivate", lang),
        ]
    )
    with assign_tab:
        course = st.selectbox(
            t("col.course", lang), list(choices.courses), format_func=choices.courses.__getitem__, key="action_course"
        )
        deadline = st.date_input(
            t("admin.actions.deadline", lang), value=None, key="action_deadline", format="DD/MM/YYYY"
        )
        if st.button(t("admin.actions.preview", lang), key="preview_assign") and course:
            _propose(
                deps,
                user,
                "assign_course",
                {
                    "course_id": course,
                    "course_title": choices.courses[course],
                    "employee_names": [email],
                    **({"deadline": deadline.isoformat()} if deadline else {}),
                },
            )
    with verify_tab:
        skill = st.selectbox(
            t("col.skill", lang), list(choices.skills), format_func=choices.skills.__getitem__, key="action_skill"
        )
        level = st.selectbox(
            t("col.level", lang), list(LEVELS), format_func=lambda c: code_label("level", c, lang), key="action_level"
        )
        if st.button(t("admin.actions.preview", lang), key="preview_verify") and skill:
            _propose(deps, user, "verify_skill", {"employee_name": email, "skill_name": skill, "level": level})
    with deactivate_tab:
        st.caption(t("admin.actions.deactivate_hint", lang))
        if st.button(t("admin.actions.preview", lang), key="preview_deactivate", disabled=not person["is_active"]):
            _propose(deps, user, "deactivate_employee", {"employee_name": email})
