"""Skills over time on screen: the group chart (skills matrix page) and one person's history with the
expiry of their verified skills (employee page)."""
from __future__ import annotations

import pandas as pd
import streamlit as st

from agents.admin import skill_history
from agents.i18n import code_label, format_date, t
from ui.tables import table_with_csv


def skills_evolution_chart(deps, user) -> None:
    """"Skills evolution" for a department and/or a skill."""
    lang, everyone = user.language, t("insights.skills.all", user.language)
    st.subheader(t("insights.skills.evolution", lang))
    st.caption(t("insights.skills.evolution_caption", lang))
    # one department at first: every skill of the whole organisation at once is too many lines to read
    department = (st.session_state.get("evolution_department")
                  or next(iter(skill_history.departments(deps, user)), everyone))
    skill = st.session_state.get("evolution_skill", everyone)
    view = skill_history.group_evolution(deps, user, department=None if department == everyone else department,
                                         skill=None if skill == everyone else skill)
    st.session_state.setdefault("evolution_department", department)
    left, right = st.columns(2)
    left.selectbox(t("insights.skills.department", lang), [everyone, *view.departments], key="evolution_department")
    right.selectbox(t("insights.skills.skill", lang), [everyone, *view.skills], key="evolution_skill")
    if view.figure is None:
        st.caption(t("insights.skills.no_history", lang))
    else:
        st.plotly_chart(view.figure, key="skills_evolution")


def person_skills_over_time(deps, user, email: str) -> None:
    """One person's level changes (chart and table) and the expiry of their verified skills."""
    lang = user.language
    frame, figure = skill_history.person_evolution(deps, user, email)
    st.markdown(f"**{t('insights.skills.evolution', lang)}**")
    st.caption(t("insights.skills.person_caption", lang))
    if figure is None:
        st.caption(t("insights.skills.no_history", lang))
    else:
        st.plotly_chart(figure, key=f"person_evolution_{email}")
    _expiry_form(deps, user, email)


def _expiry_form(deps, user, email: str) -> None:
    lang = user.language
    st.markdown(f"**{t('insights.skills.expiry', lang)}**")
    st.caption(t("insights.skills.expiry_caption", lang, days=skill_history.WARN_DAYS))
    verified = skill_history.verified_skills(deps, user, email)
    if not verified:
        st.caption(t("insights.skills.no_verified", lang))
        return
    names = {s.skill_id: s.skill for s in verified}
    with st.form(f"expiry_{email}"):
        left, middle = st.columns(2)
        skill_id = left.selectbox(t("insights.skills.skill", lang), list(names), format_func=names.get)
        expires = middle.date_input(t("insights.skills.expires_on", lang), value=None, format="DD/MM/YYYY")
        if st.form_submit_button(t("insights.skills.save_expiry", lang)):
            try:
                skill_history.set_expiry(deps, user, email, skill_id, expires)
            except skill_history.SkillHistoryError as exc:
                st.error(str(exc))
            else:
                st.success(t("insights.skills.expiry_saved", lang))
