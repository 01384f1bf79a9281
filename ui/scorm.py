"""The content studio's SCORM 1.2 download for a published course."""

from __future__ import annotations

import streamlit as st

from agents.content.scorm import ExportError, build_package
from agents.i18n import t


def scorm_download(deps, user, course_id) -> None:
    try:
        name, package = build_package(deps, user.org_id, course_id)
    except ExportError:  # not (or no longer) published: nothing to offer
        st.caption(t("common.not_found", user.language))
        return
    st.download_button(
        t("insights.scorm.download", user.language),
        package,
        file_name=name,
        mime="application/zip",
        help=t("insights.scorm.download_help", user.language),
        key=f"scorm_{course_id}",
    )
