"""Alerts for HR admins, computed from learning data (pure: rows in, alerts out).

Rules (``today`` is the admin's date; rows come from ``storage.enrollments.alert_rows``, open
enrollments only):
- overdue            the deadline has passed and the course is not completed            -> high
- deadline_at_risk   not overdue, and either the learner is more than RISK_MARGIN of the course
                     behind a steady pace (remaining work > share of time left + margin), or the
                     deadline is within a week with less than half done                  -> high when
                     3 days or fewer are left, else medium
- repeated_failures  FAILURE_STREAK or more consecutive wrong answers (the most recent ones) on one
                     exercise                                                            -> medium (high at 5+)
- inactive           no learning activity for INACTIVE_DAYS while a course is open; one alert a
                     person, naming their open courses                                   -> low (medium at 30+)
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from uuid import UUID

from agents.i18n import format_date, format_percent, t
from storage.enrollments import AlertRow

RISK_MARGIN = 0.25
FAILURE_STREAK = 3
INACTIVE_DAYS = 14
_SEVERITY_ORDER = {"high": 0, "medium": 1, "low": 2}


@dataclass(frozen=True)
class Alert:
    kind: str  # overdue | deadline_at_risk | repeated_failures | inactive
    user: str  # the person's full name
    course: str  # course title (inactive: their open courses, comma separated)
    detail: str
    severity: str  # high | medium | low
    user_id: UUID | None = None
    course_id: UUID | None = None


def failure_streak(outcomes: list[bool]) -> int:
    """Consecutive wrong answers counted from the newest."""
    streak = 0
    for correct in outcomes:
        if correct:
            break
        streak += 1
    return streak


def deadline_at_risk(progress: float, assigned_on: date, deadline: date, today: date) -> bool:
    days_left = (deadline - today).days
    if days_left < 0:
        return False
    total_days = max((deadline - assigned_on).days, 1)
    time_left_share = min(days_left / total_days, 1.0)
    remaining_work = 1.0 - progress
    return remaining_work > time_left_share + RISK_MARGIN or (days_left <= 7 and progress < 0.5)


def compute_alerts(rows: list[AlertRow], today: date, *, lang: str = "es") -> list[Alert]:
    """Every alert the rows raise, most severe first."""
    alerts: list[Alert] = []
    last_activity: dict[UUID, tuple[str, date, list[str]]] = {}
    for row in rows:
        progress = format_percent(row.progress, lang)
        if row.deadline and row.deadline < today:
            days = (today - row.deadline).days
            alerts.append(
                Alert(
                    "overdue",
                    row.user_name,
                    row.course_title,
                    t("alerts.overdue", lang, days=days, deadline=format_date(row.deadline, lang), progress=progress),
                    "high",
                    row.user_id,
                    row.course_id,
                )
            )
        elif row.deadline and deadline_at_risk(row.progress, row.assigned_on, row.deadline, today):
            days = (row.deadline - today).days
            alerts.append(
                Alert(
                    "deadline_at_risk",
                    row.user_name,
                    row.course_title,
                    t(
                        "alerts.deadline_at_risk",
                        lang,
                        days=days,
                        deadline=format_date(row.deadline, lang),
                        progress=progress,
                    ),
                    "high" if days <= 3 else "medium",
                    row.user_id,
                    row.course_id,
                )
            )
        for prompt, outcomes in row.outcomes.items():
            streak = failure_streak(outcomes)
            if streak >= FAILURE_STREAK:
                alerts.append(
                    Alert(
                        "repeated_failures",
                        row.user_name,
                        row.course_title,
                        t("alerts.repeated_failures", lang, streak=streak, prompt=prompt),
                        "high" if streak >= 5 else "medium",
                        row.user_id,
                        row.course_id,
                    )
                )
        seen = row.last_activity_on or row.assigned_on
        name, latest, courses = last_activity.get(row.user_id, (row.user_name, seen, []))
        last_activity[row.user_id] = (name, max(latest, seen), [*courses, row.course_title])
    for user_id, (name, latest, courses) in last_activity.items():
        idle = (today - latest).days
        if idle >= INACTIVE_DAYS:
            alerts.append(
                Alert(
                    "inactive",
                    name,
                    ", ".join(courses),
                    t("alerts.inactive", lang, days=idle),
                    "medium" if idle >= 30 else "low",
                    user_id,
                    None,
                )
            )
    return sorted(alerts, key=lambda a: (_SEVERITY_ORDER[a.severity], a.kind, a.user, a.course))
