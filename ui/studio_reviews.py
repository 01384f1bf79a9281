"""The content studio's two checkpoints: the course's structure before writing, and the finished course and
manual before publishing. Each decision is queued for the worker (agents/content/decisions.py)."""

from __future__ import annotations

import hashlib
import json

import pandas as pd
import streamlit as st

from agents.content import decisions, service
from agents.i18n import code_label, format_number, format_percent, t
from core.markup import safe_markdown
from ui.exercise_forms import edit_button, exercise_dialog, exercise_summary

KINDS = ["theory", "example", "exercise", "summary"]


def act(deps, user, action, *args, **kwargs) -> bool:
    """Run a service call; a refusal is shown as one line and changes nothing."""
    try:
        action(deps, user, *args, **kwargs)
    except service.ContentServiceError as exc:
        st.error(str(exc))
        return False
    st.toast(t("content.studio.queued", user.language))
    st.rerun()


def structure_review(deps, user, job_id: str, view) -> None:
    """Checkpoint 1: the outline, editable as a table, approved, edited, redesigned from notes or rejected."""
    lang = user.language
    outline = view.state["course_outline"]
    # a redesign brings a new outline: fresh widgets for it, not the edits typed over the previous one
    rev = f"{job_id}-{hashlib.sha1(json.dumps(outline, sort_keys=True).encode()).hexdigest()[:8]}"
    st.subheader(t("content.studio.structure_review", lang))
    title = st.text_input(t("content.studio.course_title", lang), outline["title"], key=f"title-{rev}")
    description = st.text_area(t("content.studio.description", lang), outline.get("description", ""), key=f"desc-{rev}")
    outcome = st.text_area(t("content.studio.outcome", lang), outline.get("outcome", ""), key=f"outcome-{rev}")
    st.caption(t("content.studio.outline_help", lang))
    kind_column = st.column_config.SelectboxColumn(
        t("content.studio.kind", lang), options=KINDS, format_func=lambda kind: t(f"content.kind.{kind}", lang)
    )
    rows = st.data_editor(
        pd.DataFrame(service.outline_rows(outline)),
        num_rows="dynamic",
        width="stretch",
        key=f"outline-{rev}",
        hide_index=True,
        column_config={
            "module": st.column_config.NumberColumn(t("content.studio.module", lang), min_value=1, step=1),
            "module_title": t("content.studio.module_title", lang),
            "lesson": st.column_config.NumberColumn(t("content.studio.lesson", lang), min_value=1, step=1),
            "lesson_title": t("content.studio.lesson_title", lang),
            "content_type": kind_column,
            "origin": st.column_config.NumberColumn(t("content.studio.origin", lang), disabled=True),
        },
    )
    notes = st.text_area(
        t("content.studio.redesign_notes", lang), key=f"snotes-{rev}", help=t("content.studio.redesign_help", lang)
    )

    def edited_outline() -> dict:  # the notes are not applied here: the design pass reads them
        return service.outline_from_rows(
            rows.where(pd.notna(rows), None).to_dict("records"),
            {**outline, "title": title, "description": description, "outcome": outcome},
        )

    a, e, d, r = st.columns(4)
    if a.button(t("content.studio.approve", lang), type="primary", key="s_approve"):
        act(deps, user, decisions.review_structure, job_id, "approve", notes=notes or None)
    if e.button(t("content.studio.apply_edits", lang), key="s_edit"):
        act(deps, user, decisions.review_structure, job_id, "edit", outline=edited_outline(), notes=notes or None)
    if d.button(t("content.studio.redesign", lang), key="s_redesign", disabled=not notes):
        act(deps, user, decisions.review_structure, job_id, "redesign", outline=edited_outline(), notes=notes)
    if r.button(t("content.studio.reject", lang), key="s_reject"):
        act(deps, user, decisions.review_structure, job_id, "reject", notes=notes or None)


def final_review(deps, user, job_id: str, view) -> None:
    """Checkpoint 2: the review's findings, each module's lessons and exercises to edit or regenerate, then
    publish, refine or reject."""
    lang = user.language
    state = view.state
    report = state.get("review_report") or {}
    checks = report.get("checks") or {}
    issues = report.get("issues") or []
    count = {severity: sum(i["severity"] == severity for i in issues) for severity in ("critical", "major", "minor")}
    st.subheader(t("content.studio.final_review", lang))
    last = view.events[-1] if view.events else None
    if last and last.event_type == "exercise_regenerated" and not last.data.get("replaced"):
        st.info(
            t("content.studio.no_other_exercise", lang, n=last.data["exercise"] + 1, module=last.data["module"] + 1)
        )
    # what a trainer weighs: the score, the findings by weight, how much of the source's facts the course teaches
    cols = st.columns(5)
    cols[0].metric(
        t("content.studio.quality_score", lang),
        format_number(report.get("overall_score", 0), lang, decimals=2),
        help=t("content.studio.quality_score_help", lang),
    )
    for col, severity in zip(cols[1:4], ("critical", "major", "minor")):
        col.metric(t(f"content.studio.count_{severity}", lang), count[severity])
    cols[4].metric(t("content.studio.fact_coverage", lang), format_percent(checks.get("fact_coverage"), lang))
    st.caption(t("content.studio.reviewed_by", lang, engine=report.get("engine", "—")))
    if issues:
        table = pd.DataFrame(
            [
                {
                    t("content.studio.severity", lang): t("content.severity." + i["severity"], lang),
                    t("content.studio.module", lang): "" if i.get("module_index") is None else i["module_index"] + 1,
                    t("content.studio.issue", lang): i["description"],
                    t("content.studio.suggestion", lang): i["suggestion"],
                }
                for i in sorted(issues, key=lambda i: ("critical", "major", "minor").index(i["severity"]))
            ]
        )
        st.dataframe(table, hide_index=True, width="stretch")
    else:
        st.success(t("content.studio.no_issues", lang))
    written = service.template_modules(state)  # issue 13: say which modules the model did not write
    replaced = [m for m in written if m["fallback"]]
    if written and len(written) == len(state.get("generated_modules") or []) and not replaced:
        st.info(t("content.studio.template_offline", lang))
    elif written:
        st.warning(
            "\n".join(
                [t("content.studio.template_banner", lang, count=len(written))]
                + [
                    "- "
                    + (
                        t(
                            "content.studio.template_why",
                            lang,
                            title=safe_markdown(m["title"]),
                            reason=code_label("fallback", m["fallback"], lang),
                        )
                        if m["fallback"]
                        else safe_markdown(m["title"])
                    )
                    for m in written
                ]
            )
        )

    with st.expander(t("content.studio.metadata", lang)):
        outline = state["course_outline"]
        with st.form(f"meta-{job_id}"):
            values = {
                name: st.text_area(
                    t("content.studio." + label, lang), outline.get(name, ""), key=f"meta-{job_id}-{name}"
                )
                for name, label in (("title", "course_title"), ("description", "description"), ("outcome", "outcome"))
            }
            if st.form_submit_button(t("content.form.save", lang)):
                changed = {k: v for k, v in values.items() if v != outline.get(k, "")}
                if changed:
                    act(deps, user, decisions.edit_content, job_id, "course", fields=changed)
    scores = report.get("module_scores") or []
    modules = state.get("generated_modules") or []
    for index, module in enumerate(modules):
        score = f" · {format_number(scores[index], lang, decimals=2)}" if index < len(scores) else ""
        with st.expander(f"{index + 1}. {module['module_spec']['title']}{score} · {module.get('engine', '')}"):
            for li, lesson in enumerate(module["lessons"]):
                kind = t("content.kind." + lesson["content_type"], lang)
                text = st.text_area(
                    f"{lesson['title']} ({kind})", lesson["content"], height=180, key=f"l-{job_id}-{index}-{li}"
                )
                if text != lesson["content"] and st.button(
                    t("content.studio.save_lesson", lang), key=f"ls-{job_id}-{index}-{li}"
                ):
                    act(deps, user, decisions.edit_content, job_id, f"module.{index}.lesson.{li}", "content", text)
            for ei, exercise in enumerate(module["exercises"]):
                found = [i for i in issues if i.get("module_index") == index and i.get("exercise_index") == ei]
                kind = t("content.exercise_type." + exercise["type"], lang)
                bloom = t("content.bloom." + exercise["bloom_level"], lang)
                st.markdown(f"**{ei + 1}. {kind}** · {bloom} · {safe_markdown(exercise['prompt'])}")
                st.markdown(exercise_summary(exercise, lang))
                for issue in found:
                    st.warning(t("content.severity." + issue["severity"], lang) + ": " + issue["description"])
                edit, again = st.columns([1, 1])
                if edit_button(edit, lang, f"ee-{job_id}-{index}-{ei}"):

                    def save(fields: dict, target: str = f"module.{index}.exercise.{ei}") -> bool:
                        return act(deps, user, decisions.edit_content, job_id, target, fields=fields)

                    exercise_dialog(exercise, lang, ei + 1, f"ef-{job_id}-{index}-{ei}", save)
                if again.button(t("content.studio.regenerate_exercise", lang), key=f"rx-{job_id}-{index}-{ei}"):
                    act(deps, user, decisions.regenerate_exercise, job_id, index, ei)
            instructions = st.text_input(t("content.studio.regenerate_notes", lang), key=f"ri-{job_id}-{index}")
            if st.button(t("content.studio.regenerate", lang), key=f"rg-{job_id}-{index}"):
                act(deps, user, decisions.regenerate_module, job_id, index, instructions or None)
    manual = state.get("generated_manual")
    if manual:
        with st.expander(t("content.studio.manual", lang)):
            st.markdown(safe_markdown(manual["content_md"]))
    notes = st.text_input(t("content.studio.refine_notes", lang), key=f"fnotes-{job_id}")
    waiver = st.text_input(t("content.studio.waiver", lang), key=f"waive-{job_id}") if count["critical"] else None
    accept = st.checkbox(t("content.studio.template_accept", lang), key=f"tpl-{job_id}") if replaced else False
    a, f, r = st.columns(3)
    if a.button(t("content.studio.publish", lang), type="primary", key="f_approve"):
        act(
            deps,
            user,
            decisions.review_final,
            job_id,
            "approve",
            waive_reason=waiver or None,
            accept_template_modules=accept,
        )
    if f.button(t("content.studio.refine", lang), key="f_refine"):
        act(deps, user, decisions.review_final, job_id, "refine", notes=notes or None)
    if r.button(t("content.studio.reject", lang), key="f_reject"):
        act(deps, user, decisions.review_final, job_id, "reject", notes=notes or None)
