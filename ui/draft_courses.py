"""The studio's draft courses: each one opened in the course player, its exercises edited (the final review's
dialog; the course reviewer reads the edit again) or deleted, then published or deleted, each deletion and the
publishing only after its preview and the admin's confirm (agents/content/drafts.py audits every write)."""

from __future__ import annotations

import streamlit as st

from agents.content import drafts
from agents.i18n import t
from core.markup import safe_markdown
from ui.exercise_forms import edit_button, exercise_dialog, exercise_summary
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
OPEN = "draft-open"  # the draft whose exercises were just edited


def draft_courses(deps, user) -> None:
    lang = user.language
    if done := st.session_state.pop("draft-done", None):
        st.success(done)
    unpublished = drafts.drafts(deps, user)
    if not unpublished:
        return
    # the draft whose exercise was just saved stays open, its findings in view ("… hallazgos debajo")
    with st.expander(t("content.draft.heading", lang, count=len(unpublished)), expanded=OPEN in st.session_state):
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
    _exercises(deps, user, key)
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
            _write(lambda: write(deps, user, draft.id))


def _exercises(deps, user, key: str) -> None:
    """The draft's exercises, each with the final review's editor (re-reviewed when saved) and a delete."""
    lang = user.language
    listed = drafts.draft_exercises(deps, user, key)
    with st.expander(t("content.draft.exercises", lang, count=len(listed)), expanded=st.session_state.get(OPEN) == key):
        for item in listed:
            exercise, where = item.exercise, {"module": item.module, "n": item.number}
            st.markdown(
                t(
                    "content.draft.exercise_line",
                    lang,
                    **where,
                    kind=t("content.exercise_type." + exercise["type"], lang),
                    bloom=t("content.bloom." + exercise["bloom_level"], lang),
                    prompt=safe_markdown(exercise["prompt"]),
                )
            )
            st.markdown(exercise_summary(exercise, lang))
            for issue in st.session_state.get(f"draft-review-{item.id}", []):
                st.warning(t("content.severity." + issue["severity"], lang) + ": " + issue["description"])
            edit, delete = st.columns(2)
            if edit_button(edit, lang, f"dx-edit-{item.id}"):

                def save(fields: dict, item: drafts.DraftExercise = item) -> bool:
                    return _save(deps, user, key, item, fields)

                exercise_dialog(exercise, lang, item.number, f"dx-form-{item.id}", save)
            if delete.button(t("content.draft.delete_exercise", lang), key=f"dx-del-{item.id}"):
                st.session_state[f"dx-deleting-{key}"] = item.id
            if st.session_state.get(f"dx-deleting-{key}") == item.id:
                st.warning(t("content.draft.delete_exercise_preview", lang, **where, prompt=exercise["prompt"]))
                if st.button(
                    t("content.draft.delete_exercise_confirm", lang), type="primary", key=f"dx-delok-{item.id}"
                ):
                    st.session_state.pop(f"dx-deleting-{key}")
                    _write(lambda gone=item.id: drafts.delete_exercise(deps, user, key, gone))


def _save(deps, user, key: str, item: drafts.DraftExercise, fields: dict) -> bool:
    """The editor's save: the edit written and re-reviewed; what the reviewer found shows under it."""
    try:
        new_id, findings = drafts.edit_exercise(deps, user, key, item.id, fields)
    except drafts.DraftError as exc:
        st.error(str(exc))
        return False
    st.session_state[f"draft-review-{new_id}"] = findings
    st.session_state[OPEN] = key
    where = {"module": item.module, "n": item.number}
    line = "content.draft.exercise_saved_findings" if findings else "content.draft.exercise_saved"
    st.session_state["draft-done"] = t(line, user.language, **where, count=len(findings))
    st.rerun()


def _write(write) -> None:
    try:
        st.session_state["draft-done"] = write()
    except drafts.DraftError as exc:
        st.error(str(exc))
    else:
        st.rerun()
