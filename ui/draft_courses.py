"""The studio's draft courses: each one opened in the course player, then published or deleted, each write
only after its preview and the admin's confirm (agents/content/drafts.py audits both)."""

from __future__ import annotations

import streamlit as st

from agents.content import drafts
from agents.i18n import t
from core.markup import safe_markdown
from ui.links import page_link

# the two writes a draft offers: (preview, write, button label, confirm label, confirm button key prefix)
_ACTIONS = {
    "publish": (
        drafts.publish_preview,
        drafts.publish_draft,
        "content.draft.finish",
        "content.draft.confirm",
        "draft-ok",
    ),
    "discard": (
        drafts.discard_preview,
        drafts.discard_draft,
        "content.draft.discard",
        "content.draft.discard_confirm",
        "draft-delok",
    ),
}
_PREVIEW_KEYS = {"publish": "draft-prev", "discard": "draft-del"}


def draft_courses(deps, user) -> None:
    lang = user.language
    if done := st.session_state.pop("draft-done", None):
        st.success(done)
    unpublished = drafts.drafts(deps, user)
    if not unpublished:
        return
    with st.expander(t("content.draft.heading", lang, count=len(unpublished))):
        st.caption(t("content.draft.caption", lang))
        for draft in unpublished:
            _draft(deps, user, draft)


def _draft(deps, user, draft) -> None:
    lang, key = user.language, str(draft.id)
    st.markdown(
        t(
            "content.draft.summary",
            lang,
            title=safe_markdown(draft.title),
            modules=draft.modules,
            lessons=draft.lessons,
            exercises=draft.exercises,
        )
    )
    page_link("pages/course_player.py", t("content.draft.open", lang), "▶️", {"course": key})
    buttons = st.columns(2)
    for column, (action, (preview, _, label, _, _)) in zip(buttons, _ACTIONS.items()):
        if column.button(t(label, lang), key=f"{_PREVIEW_KEYS[action]}-{key}"):
            try:
                st.session_state[f"draft-plan-{key}"] = (action, preview(deps, user, draft.id))
            except drafts.DraftError as exc:
                st.error(str(exc))
    if plan := st.session_state.get(f"draft-plan-{key}"):
        action, text = plan
        _, write, _, confirm, confirm_key = _ACTIONS[action]
        (st.warning if action == "discard" else st.info)(text)
        if st.button(t(confirm, lang), type="primary", key=f"{confirm_key}-{key}"):
            st.session_state.pop(f"draft-plan-{key}")
            try:
                st.session_state["draft-done"] = write(deps, user, draft.id)
            except drafts.DraftError as exc:
                st.error(str(exc))
            else:
                st.rerun()
