"""Skills over time on screen: the group chart (skills matrix page) and one person's history with the
expiry of their verified skills (employee page)."""

from __future__ import annotations

import streamlit as st

from agents.i18n import plotly_config, t
from agents.insights import skill_history


def skills_evolution_chart(deps, user) -> None:
    """ "Skills evolution" for a department and/or a skill (None: all of them)."""
    lang, everyone = user.language, t("insights.skills.all", user.language)
    st.subheader(t("insights.skills.evolution", lang))
    st.caption(t("insights.skills.evolution_caption", lang))
    if "evolution_department" not in st.session_state:
        # one department at first: every skill of the whole organisation at once is too many lines to read
        st.session_state["evolution_department"] = next(iter(skill_history.departments(deps, user)), None)
    view = skill_history.group_evolution(
        deps, user, department=st.session_state["evolution_department"], skill=st.session_state.get("evolution_skill")
    )
    left, right = st.columns(2)
    left.selectbox(
        t("insights.skills.department", lang),
        [None, *view.departments],
        key="evolution_department",
        format_func=lambda name: everyone if name is None else view.departments.get(name, name),
    )
    right.selectbox(
        t("insights.skills.skill", lang),
        [None, *view.skills],
        key="evolution_skill",
        format_func=lambda name: everyone if name is None else view.skills.get(name, name),
    )
    if view.figure is None:
        st.caption(t("insights.skills.no_history", lang))
    else:
        st.plotly_chart(view.figure, key="skills_evolution", config=plotly_config(lang))


def person_skills_over_time(deps, user, email: str) -> None:
    """One person's level changes (chart and table) and the expiry of their verified skills."""
    lang = user.language
    frame, figure = skill_history.person_evolution(deps, user, email)
    st.markdown(f"**{t('insights.skills.evolution', lang)}**")
    st.caption(t("insights.skills.person_caption", lang))
    if figure is None:
        st.caption(t("insights.skills.no_history", lang))
    else:
        st.plotly_chart(figure, key=f"person_evolution_{email}", config=plotly_config(lang))
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
        skill_id = left.selectbox(t("insights.skills.skill", lang), list(names), format_func=names.__getitem__)
        expires = middle.date_input(t("insights.skills.expires_on", lang), value=None, format="DD/MM/YYYY")
        if st.form_submit_button(t("insights.skills.save_expiry", lang)):
            try:
                skill_history.set_expiry(deps, user, email, skill_id, expires)
            except skill_history.SkillHistoryError as exc:
                st.error(str(exc))
            else:
                st.success(t("insights.skills.expiry_saved", lang))
