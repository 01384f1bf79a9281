"""Skill gaps (fewer than N experts), who knows a skill, and mentorship suggestions."""
import streamlit as st

from agents.admin import dashboards
from ui.session import require_admin
from ui.tables import table_with_csv

user = require_admin()
LEVELS = ["low", "medium", "high"]


def say(es: str, en: str) -> str:
    return es if user.language == "es" else en


insights = dashboards.skill_insights(user, threshold=int(st.session_state.get("gaps_threshold", 1)),
                                     skill=st.session_state.get("who_skill"),
                                     min_level=st.session_state.get("who_level", "medium"))
st.title(say("🎯 Brechas de habilidades", "🎯 Skill gaps"))
gaps_tab, who_tab, mentor_tab = st.tabs([say("Brechas", "Gaps"), say("¿Quién sabe?", "Who knows"),
                                         say("Mentorías", "Mentorship")])
with gaps_tab:
    st.number_input(say("Mínimo de expertos (nivel alto)", "Minimum experts (high level)"), min_value=1,
                    max_value=20, value=1, key="gaps_threshold")
    table_with_csv(insights.gaps, "skill_gaps", empty=say("Ninguna habilidad bajo el umbral.", "No skill below the threshold."))
with who_tab:
    left, right = st.columns([3, 1])
    left.selectbox(say("Habilidad", "Skill"), insights.skills, index=None, key="who_skill",
                   placeholder=say("Elige una habilidad", "Pick a skill"))
    right.selectbox(say("Nivel mínimo", "Minimum level"), LEVELS, index=1, key="who_level")
    if insights.error:
        st.error(insights.error)
    elif st.session_state.get("who_skill"):
        table_with_csv(insights.who_knows, "who_knows", empty=say("Nadie con ese nivel.", "Nobody at that level."))
with mentor_tab:
    st.caption(say("Expertos (alto) emparejados con personas de nivel bajo en la misma habilidad; "
                   "mismo departamento primero.",
                   "Experts (high) paired with people at low level on the same skill; same department first."))
    table_with_csv(insights.mentorship, "mentorship", empty=say("Sin sugerencias.", "No suggestions."))
