"""Manuals (employees and admins): the published reference manuals, section by section, with their
sources, and downloads as Markdown and PDF."""

import streamlit as st

from agents.content import manuals
from agents.i18n import format_date, t
from ui.deps import app_deps
from ui.links import page_link
from ui.session import require_user

user = require_user()
lang = user.language
deps = app_deps()

st.title(t("content.manuals.title", lang))
found = manuals.list_for(deps, user)
if not found:
    st.info(t("content.manuals.none_admin" if user.is_admin else "content.manuals.none", lang))
    if user.is_admin:
        page_link("pages/content_studio.py", t("content.manuals.to_studio", lang), "🏭", {})
    st.stop()
by_id = {str(m.id): m for m in found}
wanted = st.query_params.get("manual")
manual_id = st.selectbox(
    t("content.manuals.pick", lang),
    list(by_id),
    index=list(by_id).index(wanted) if wanted in by_id else 0,
    format_func=lambda i: by_id[i].title,
    key="manual_pick",
)
manual = manuals.get_for(deps, user, manual_id)
st.caption(
    t(
        "content.manuals.meta",
        lang,
        date=format_date(manual.created_at, lang),
        language=t(f"content.manuals.lang_{manual.language}", lang)
        if manual.language in ("es", "en")
        else manual.language,
    )
)
sections = manuals.sections_of(manual)
left, right = st.columns([1, 3])
with left:
    st.subheader(t("content.manual.toc", manual.language))
    headings = [("\u2003" * (s.get("level", 1) - 1)) + s["heading"] for s in sections]
    anchors = [s.get("anchor") for s in sections]
    asked = st.query_params.get("section")  # a tutor citation's section (the source viewer links here)
    chosen = st.radio(
        t("content.manuals.section", lang),
        range(len(sections)),
        format_func=lambda i: headings[i],
        index=anchors.index(asked) if asked in anchors and manual_id == wanted else 0,
        key=f"section-{manual_id}",
        label_visibility="collapsed",
    )
    st.download_button(
        t("content.manuals.download_md", lang),
        manual.content_md,
        file_name=f"{manual.title}.md",
        mime="text/markdown",
        key="dl_md",
    )
    st.download_button(
        t("content.manuals.download_pdf", lang),
        manuals.pdf_bytes(manual),
        file_name=f"{manual.title}.pdf",
        mime="application/pdf",
        key="dl_pdf",
    )
with right:
    section = sections[chosen]
    st.header(section["heading"])
    st.markdown(section["body"])
    sources = [
        p
        for p in (
            section.get("document"),
            section.get("page") and t("content.lesson.page", manual.language, page=section["page"]),
        )
        if p
    ]
    if sources or section.get("chunk_ids"):
        st.caption(
            t(
                "content.manuals.sources",
                lang,
                sources=" · ".join(sources) or manual.title,
                count=len(section.get("chunk_ids") or []),
            )
        )
