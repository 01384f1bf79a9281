"""Stale lessons on screen: the learner's "updated policy" note and the content studio's review panel."""

from __future__ import annotations

import streamlit as st

from agents.content import stale
from agents.i18n import t


def updated_policy_note(deps, user, lesson_id) -> None:
    """A note above a lesson whose sources changed after it was written."""
    if lesson_id in stale.stale_lessons(deps, user, [lesson_id]):
        st.info(t("insights.stale.learner_note", user.language))


def stale_panel(deps, user) -> None:
    """Flagged modules: old vs new passage side by side; regenerate (reviewed draft), keep or edit."""
    lang = user.language
    flags = stale.stale_flags(deps, user)
    st.subheader(t("insights.stale.title", lang))
    if not flags:
        st.caption(t("insights.stale.none", lang))
        return
    st.caption(t("insights.stale.caption", lang))
    by_module: dict = {}
    for flag in flags:
        by_module.setdefault(flag.module_id, []).append(flag)
    for module_id, module_flags in by_module.items():
        first = module_flags[0]
        with st.expander(
            t("insights.stale.module", lang, course=first.course_title, module=first.module_title, n=len(module_flags)),
            expanded=len(by_module) == 1,
        ):
            by_passage: dict = {}
            for flag in module_flags:
                by_passage.setdefault(flag.old_chunk_id, []).append(flag)
            for passage_flags in by_passage.values():
                _passage(lang, passage_flags)
            _decisions(deps, user, module_id, module_flags)


def _passage(lang: str, flags) -> None:
    """One changed passage: what changed, who cites it, then both versions side by side."""
    flag = flags[0]
    st.markdown(
        f"**{flag.document_title} › {flag.heading or '—'}** · {t('insights.stale.change.' + flag.change, lang)}"
    )
    gone, added = stale.changed_sentences(flag.old_content, flag.new_content)
    for sentence in gone:
        st.markdown(f"➖ {t('insights.stale.old', lang)}: {sentence}")
    for sentence in added:
        st.markdown(f"➕ {t('insights.stale.new', lang)}: {sentence}")
    st.caption(
        t("insights.stale.cited_by", lang)
        + " "
        + " · ".join(
            t("insights.stale.item", lang, kind=t("insights.stale.kind." + f.entity_type, lang), title=f.entity_title)
            for f in flags
        )
    )
    with st.popover(t("insights.stale.both_versions", lang)):
        before, now = st.columns(2)
        before.caption(t("insights.stale.old", lang))
        before.text(flag.old_content)
        now.caption(t("insights.stale.new", lang))
        now.text(flag.new_content or t("insights.stale.gone", lang))


def _decisions(deps, user, module_id, module_flags) -> None:
    lang, key = user.language, f"stale_draft_{module_id}"
    regenerate, keep = st.columns(2)
    if regenerate.button(t("insights.stale.regenerate", lang), key=f"regen_{module_id}", type="primary"):
        with st.spinner():
            st.session_state[key] = stale.draft_regeneration(deps, user, module_id)
    if keep.button(t("insights.stale.keep", lang), key=f"keep_{module_id}"):
        stale.keep_module(deps, user, module_id)
        st.success(t("insights.stale.kept", lang))
        st.rerun()
    lessons = {f.entity_id: f.entity_title for f in module_flags if f.entity_type == "lesson"}
    if lessons:
        st.caption(t("insights.stale.edit_hint", lang))
        with st.popover(t("insights.stale.edit", lang)):
            lesson_id = st.selectbox(
                t("insights.stale.kind.lesson", lang),
                list(lessons),
                format_func=lessons.__getitem__,
                key=f"edit_pick_{module_id}",
            )
            text = st.text_area(t("insights.stale.edit", lang), key=f"edit_text_{module_id}_{lesson_id}", height=200)
            if st.button(t("insights.stale.save_edit", lang), key=f"edit_save_{module_id}"):
                try:
                    stale.edit_lesson(deps, user, lesson_id, text)
                except stale.StaleError as exc:
                    st.error(str(exc))
                else:
                    st.success(t("insights.stale.saved_edit", lang))
    draft = st.session_state.get(key)
    if draft is None:
        return
    with st.container(border=True):
        st.markdown(f"**{t('insights.stale.draft_title', lang, module=draft.title, engine=draft.engine)}**")
        st.warning(t("insights.stale.draft_warning", lang))
        for lesson in draft.lessons:
            st.markdown(f"##### {lesson['title']}")
            st.markdown(lesson["content"])
        st.caption(t("insights.stale.exercises", lang, n=len(draft.exercises)))
        approve, discard = st.columns(2)
        if approve.button(t("insights.stale.approve", lang), key=f"approve_{module_id}", type="primary"):
            stale.apply_regeneration(deps, user, draft)
            st.session_state.pop(key, None)
            st.success(t("insights.stale.replaced", lang))
            st.rerun()
        if discard.button(t("insights.stale.discard", lang), key=f"discard_{module_id}"):
            st.session_state.pop(key, None)
            st.rerun()
