"""Course health on screen (course statistics and the content studio): flagged exercises first, each with
its reasons, evidence and two actions (regenerate: a reviewed draft to confirm; retire), then the
facility/discrimination chart and the modules' and exercises' tables with their CSV."""

from __future__ import annotations

import pandas as pd
import plotly.express as px
import streamlit as st

from agents.content import health, health_actions
from agents.i18n import code_label, format_datetime, plotly_config, t
from ui.tables import table_with_csv


def course_health_section(deps, user, course_id) -> None:
    lang = user.language
    st.subheader(t("content.health.title", lang))
    st.caption(t("content.health.caption", lang))
    if (done := st.session_state.pop("health_done", None)) is not None:  # the last action, after its rerun
        st.success(done)
    report = health.course_health(deps.pool, user.org_id, course_id, lang)
    if not report.items:
        st.caption(t("content.health.no_exercises", lang))
        return
    st.caption(
        t("content.health.computed_at", lang, when=format_datetime(report.computed_at, lang))
        if report.computed_at
        else t("content.health.never", lang)
    )
    flagged = [item for item in report.items if item.flags]
    st.markdown(f"**{t('content.health.flagged', lang)}**")
    if flagged:
        st.caption(t("content.health.flagged_caption", lang, n=len(flagged), total=len(report.items)))
    else:
        st.caption(t("content.health.no_flags", lang))
    for item in flagged:
        _flagged_item(deps, user, item)
    _chart(report, lang)
    st.markdown(f"**{t('content.health.modules', lang)}**")
    table_with_csv(
        pd.DataFrame(
            [
                {
                    "module": m.title,
                    "exercises": m.exercises,
                    "mean_facility": m.mean_facility,
                    "flagged_share": m.flagged_share,
                }
                for m in report.modules
            ]
        ),
        "course_health_modules",
        key=f"csv_health_modules_{course_id}",
    )
    st.markdown(f"**{t('content.health.exercises', lang)}**")
    table_with_csv(_items_frame(report), "course_health_exercises", key=f"csv_health_items_{course_id}")


def _items_frame(report: health.CourseHealth) -> pd.DataFrame:
    return pd.DataFrame(
        [
            {
                "module": i.module_title,
                "lesson": i.lesson_title,
                "exercise": i.text,
                "type": i.type,
                "attempts": i.attempts,
                "facility": i.facility,
                "discrimination": None if i.discrimination is None else round(i.discrimination, 2),
                "method": i.method,
                "flags": " · ".join(f.reason for f in i.flags) or i.note,
            }
            for i in report.items
        ]
    )


def _chart(report: health.CourseHealth, lang: str) -> None:
    judged = [i for i in report.items if i.enough_answers and i.facility is not None and i.discrimination is not None]
    if not judged:
        return
    st.markdown(f"**{t('content.health.chart', lang)}**")
    frame = pd.DataFrame(
        {
            "facility": [i.facility for i in judged],
            "discrimination": [i.discrimination for i in judged],
            "state": [
                t("content.health.chart_flagged" if i.flags else "content.health.chart_fine", lang) for i in judged
            ],
            "exercise": [i.text[:80] for i in judged],
            "flags": [" · ".join(f.reason for f in i.flags) for i in judged],
        }
    )
    flagged, fine = t("content.health.chart_flagged", lang), t("content.health.chart_fine", lang)
    figure = px.scatter(
        frame,
        x="facility",
        y="discrimination",
        color="state",
        hover_name="exercise",
        color_discrete_map={flagged: "#d62728", fine: "#1f77b4"},
        hover_data={"flags": True, "state": False},
        labels={
            "facility": t("col.facility", lang),
            "discrimination": t("col.discrimination", lang),
            "state": "",
            "flags": t("col.flags", lang),
        },
        range_x=[-0.05, 1.05],
    )
    figure.add_hline(y=0, line_dash="dot")
    figure.update_xaxes(tickformat=".0%")
    st.plotly_chart(figure, config=plotly_config(lang))
    st.caption(t("content.health.chart_help", lang))


def _flagged_item(deps, user, item: health.ItemHealth) -> None:
    lang, key = user.language, f"health_draft_{item.exercise_id}"
    with st.container(border=True, key=f"health_item_{item.exercise_id}"):
        st.markdown(f"**{item.text}**")
        st.caption(f"{item.module_title} › {item.lesson_title} · {code_label('exercise_type', item.type, lang)}")
        for flag in item.flags:
            st.warning(flag.reason, icon="⚠️" if flag.key_may_be_wrong else "🔎")
            st.caption(flag.evidence)
        if item.options:
            with st.expander(t("content.health.options", lang)):
                table_with_csv(
                    pd.DataFrame(
                        [{"option": o.label, "picks": o.picks, "share": o.share, "key": o.is_key} for o in item.options]
                    ),
                    "options",
                    key=f"csv_options_{item.exercise_id}",
                )
        first = item.flags[0]
        regenerate, retire = st.columns(2)
        if regenerate.button(t("content.health.regenerate", lang), key=f"regen_{item.exercise_id}", type="primary"):
            try:
                with st.spinner():
                    st.session_state[key] = health_actions.draft_replacement(
                        deps, user, item.exercise_id, first.code, first.reason
                    )
            except health_actions.HealthActionError as exc:
                st.error(str(exc))
        if retire.button(t("content.health.retire", lang), key=f"retire_{item.exercise_id}"):
            try:
                health_actions.retire(deps, user, item.exercise_id, first.code, first.reason)
            except health_actions.HealthActionError as exc:
                st.error(str(exc))
            else:
                st.session_state["health_done"] = t("content.health.retired", lang)
                st.rerun()
        if (draft := st.session_state.get(key)) is not None:
            _draft(deps, user, key, draft)


def _describe(exercise: dict, lang: str) -> str:
    """The draft as a reviewer reads it: the question and its answer."""
    content, kind = exercise["content"], exercise["type"]
    lines = [exercise["prompt"]]
    if kind == "test":
        lines += [f"{'✅' if n == content['answer'] else '▫️'} {option}" for n, option in enumerate(content["options"])]
    elif kind == "true_false":
        lines += [
            content["statement"],
            t("content.health.answer", lang, answer=t(f"content.health.{content['answer']}".lower(), lang)),
        ]
    elif kind == "fill_blank":
        lines += [content["text"], t("content.health.answer", lang, answer=" / ".join(content["answers"]))]
    elif kind == "order_steps":
        lines += [f"{n}. {step}" for n, step in enumerate(content["steps"], 1)]
    elif kind == "practical_case":
        lines += [content["scenario"], *(f"- {point}" for point in content["rubric"])]
    elif kind == "dialogue":
        lines += [content["nodes"][content["start"]]["text"]]
    return "\n\n".join(lines)


def _draft(deps, user, key: str, draft: health_actions.Replacement) -> None:
    lang = user.language
    with st.container(border=True):
        st.markdown(f"**{t('content.health.draft_title', lang, engine=draft.engine)}**")
        st.caption(t("content.health.note", lang, reason=draft.note))
        st.markdown(_describe(draft.exercise, lang))
        st.caption(
            t("content.health.review_findings", lang, findings="; ".join(draft.findings))
            if draft.findings
            else t("content.health.review_clean", lang)
        )
        st.warning(t("content.health.draft_warning", lang))
        confirm, discard = st.columns(2)
        if confirm.button(t("content.health.confirm", lang), key=f"confirm_{key}", type="primary"):
            try:
                health_actions.apply_replacement(deps, user, draft)
            except health_actions.HealthActionError as exc:
                st.error(str(exc))
            else:
                st.session_state.pop(key, None)
                st.session_state["health_done"] = t("content.health.replaced", lang)
                st.rerun()
        if discard.button(t("content.health.discard", lang), key=f"discard_{key}"):
            st.session_state.pop(key, None)
            st.rerun()


def studio_health_panel(deps, user) -> None:
    """The studio's view: pick a published course, see its health."""
    lang = user.language
    courses = health.published_courses(deps.pool, user.org_id)
    with st.expander(t("content.health.title", lang), expanded=bool(st.session_state.get("health_course"))):
        picked = st.selectbox(
            t("content.health.pick_course", lang),
            list(courses),
            index=None,
            format_func=courses.__getitem__,
            placeholder=t("admin.stats.pick_course", lang),
            key="health_course",
        )
        if picked:
            course_health_section(deps, user, picked)
