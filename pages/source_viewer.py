"""Source viewer: a citation or lesson source opened as its document, the cited passage highlighted and
scrolled to, its page for PDFs, and the original file. ``?chunk=ID`` | ``?document=ID`` | ``?lesson=ID`` |
``?manual=ID&section=ANCHOR`` (a manual's section; the Manuals page opens the whole manual), optionally
``&quote=TEXT`` (the cited sentence, to mark within a document kept whole)."""

import streamlit as st

from agents.i18n import t
from agents.tutor.sources import SOURCE_KEYS, open_source
from ui.deps import app_deps
from ui.exercises import link_to_source
from ui.session import require_user
from ui.source_html import source_html, source_summary

user = require_user()
lang = user.language
params = st.query_params
st.title(t("tutor.source.title", lang))
view = open_source(app_deps(), user, **{key: params.get(key) for key in SOURCE_KEYS})
if view is None:
    st.info(t("tutor.source.not_found", lang))
    st.stop()
st.subheader(source_summary(view, lang))
if any(block.cited for block in view.blocks):
    sentence = any(block.marks for block in view.blocks if block.cited)
    st.caption(t("tutor.source.cited_sentence" if sentence else "tutor.source.cited", lang))
st.html(source_html(view, lang))  # no script: the text is the document's
if view.kind == "document":
    original = view.original
    if original is not None:
        st.download_button(
            t("tutor.source.download", lang, name=original.name),
            original.read_bytes(),
            file_name=original.name,
            mime=view.mime_type or None,
            icon="📄",
        )
    else:
        st.caption(t("tutor.source.no_original", lang))
        st.download_button(
            t("tutor.source.download_text", lang),
            "\n\n".join(block.text for block in view.blocks).encode(),
            file_name=f"{view.title}.txt",
            mime="text/plain",
            icon="📄",
        )
if view.kind == "manual":
    link_to_source(
        t("tutor.source.open_manual", lang),
        {"manual": view.manual_id, "section": params.get("section", "")},
        page="pages/manuals.py",
        icon="📘",
    )
