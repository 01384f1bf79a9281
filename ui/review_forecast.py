"""Review planning on screen: a learner's 30-day forecast (Reviews page) and, for admins, the
organisation's desired retention, the forecast per learner of a course and the FSRS fit."""

from __future__ import annotations

import plotly.graph_objects as go
import streamlit as st

from agents.i18n import format_date, format_number, format_percent, number_separators, plotly_config, t
from agents.learning import review_planning
from ui.tables import table_with_csv


def learner_forecast_chart(deps, user) -> None:
    lang = user.language
    forecast = review_planning.learner_forecast(deps, user)
    retention = review_planning.settings(deps, user).desired_retention
    with st.expander(t("insights.reviews.forecast", lang)):
        st.caption(t("insights.reviews.forecast_caption", lang, retention=format_percent(retention, lang)))
        if not forecast["reviews"].sum():
            st.caption(t("insights.reviews.none_planned", lang))
        else:
            _forecast_chart(lang, forecast)


def _forecast_chart(lang, forecast) -> None:
    busiest = forecast.loc[forecast["reviews"].idxmax()]
    st.caption(
        t(
            "insights.reviews.total",
            lang,
            n=format_number(forecast["reviews"].sum(), lang),
            day=format_date(busiest["day"], lang),
            peak=format_number(busiest["reviews"], lang),
        )
    )
    count = t("insights.reviews.count", lang)
    figure = go.Figure(
        go.Bar(
            x=forecast["day"],
            y=forecast["reviews"],
            marker_color="#3b82f6",
            hovertemplate=f"%{{x|%d/%m}} · {count}: %{{y:d}}<extra></extra>",
        )
    )
    # Whole reviews on the axis too: below a peak of 6 plotly's own ticks go in halves (0.5 reviews)
    figure.update_layout(
        height=240,
        margin={"l": 10, "r": 10, "t": 10, "b": 10},
        separators=number_separators(lang),
        yaxis={
            "title": count,
            "tickformat": ",d",
            "rangemode": "tozero",
            **({"dtick": 1} if busiest["reviews"] < 6 else {}),
        },
        xaxis_tickformat="%d/%m",
    )  # no month names: plotly's are English
    st.plotly_chart(figure, key="review_forecast", config=plotly_config(lang))


def review_planning_section(deps, admin, course_title: str) -> None:
    lang = admin.language
    current = review_planning.settings(deps, admin)
    st.subheader(t("insights.reviews.planning", lang))
    st.caption(t("insights.reviews.tradeoff", lang))
    left, right = st.columns([3, 1])
    value = left.slider(
        t("insights.reviews.retention", lang),
        review_planning.MIN_RETENTION,
        review_planning.MAX_RETENTION,
        float(current.desired_retention),
        step=0.01,
        key="retention",
    )
    if right.button(
        t("insights.reviews.save_retention", lang),
        key="save_retention",
        disabled=round(value, 2) == round(current.desired_retention, 2),
    ):
        try:
            review_planning.set_desired_retention(deps, admin, value)
        except review_planning.PlanningError as exc:
            st.error(str(exc))
        else:
            st.success(t("insights.reviews.retention_saved", lang))
    st.markdown(f"**{t('insights.reviews.course_forecast', lang)}**")
    table = review_planning.course_forecast(deps, admin, course_title)
    if not table.empty:
        table["busiest_day"] = table["busiest_day"].map(lambda d: format_date(d, lang))
        table = table.rename(
            columns={
                "learner": t("insights.reviews.col_learner", lang),
                "today": t("insights.reviews.col_today", lang),
                "next_7_days": t("insights.reviews.col_7", lang),
                "next_30_days": t("insights.reviews.col_30", lang),
                "busiest_day": t("insights.reviews.col_busiest", lang),
            }
        )
    table_with_csv(table, "review_forecast", empty=t("insights.reviews.no_cards", lang))
    if current.report:
        _report(lang, current.report)
    if st.button(
        t("insights.reviews.optimise", lang), key="optimise_fsrs", help=t("insights.reviews.optimise_help", lang)
    ):
        try:
            with st.spinner():
                _report(lang, review_planning.optimise(deps, admin))
        except review_planning.PlanningError as exc:
            st.info(str(exc))


def _report(lang: str, report: dict) -> None:
    st.caption(
        t(
            "insights.reviews.optimised",
            lang,
            n=report["reviews"],
            before=format_number(report["log_loss_before"], lang, decimals=3),
            after=format_number(report["log_loss_after"], lang, decimals=3),
            verdict=t("insights.reviews.applied" if report["applied"] else "insights.reviews.not_applied", lang),
        )
    )
