"""The course's tutor mode, where an admin looks at one course (course statistics): saved as it is picked."""

from __future__ import annotations

import streamlit as st

from agents.content import tutor_mode
from agents.i18n import code_label, t


def tutor_mode_setting(deps, user, course_id: str) -> None:
    lang = user.language
    current = tutor_mode.current_mode(deps, user, course_id) or tutor_mode.MODES[0]
    picked = st.radio(
        t("admin.tutor_mode.label", lang),
        tutor_mode.MODES,
        index=tutor_mode.MODES.index(current),
        format_func=lambda mode: code_label("tutor_mode", mode, lang),
        help=t("admin.tutor_mode.help", lang),
        horizontal=True,
        key=f"tutor-mode-{course_id}",
    )
    if picked != current:
        try:
            st.success(tutor_mode.set_mode(deps, user, course_id, picked))
        except tutor_mode.TutorModeError as exc:
            st.error(str(exc))
