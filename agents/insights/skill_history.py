"""Skills over time: how levels moved (one person, a department or a skill) and certificates that
expire. Levels become 1 (low) · 2 (medium) · 3 (high); a group's line is the mean level of the
people holding that skill, stepping at each change."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from uuid import UUID

import pandas as pd
import plotly.graph_objects as go
import psycopg

from agents.i18n import code_label, format_date, number_separators, t
from agents.insights.alerts import Alert
from agents.runtime.deps import AppDeps
from storage import audit, skill_history, skills, users

WARN_DAYS = 90  # alert this long before a verified skill expires
URGENT_DAYS = 30  # ... and rate it high from here on
LEVEL_VALUE = {"low": 1, "medium": 2, "high": 3}
_SEVERITY_ORDER = {"high": 0, "medium": 1, "low": 2}


class SkillHistoryError(ValueError):
    """A request about skills over time that cannot be done; one line in the admin's language."""


def skill_expiry_alerts(conn: psycopg.Connection, org_id: UUID, today: date, lang: str) -> list[Alert]:
    """Expired verified skills (high) and those expiring within WARN_DAYS (high within URGENT_DAYS)."""
    alerts = []
    for row in skill_history.expiring_skills(conn, org_id, today + timedelta(days=WARN_DAYS), lang):
        days = (row.expires_at - today).days
        when = format_date(row.expires_at, lang)
        if days < 0:
            detail = t("insights.skills.expired", lang, skill=row.skill, date=when, days=-days)
            alerts.append(Alert("skill_expired", row.full_name, "", detail, "high", row.user_id))
        else:
            alerts.append(
                Alert(
                    "skill_expiring",
                    row.full_name,
                    "",
                    t("insights.skills.expiring", lang, skill=row.skill, date=when, days=days),
                    "high" if days <= URGENT_DAYS else "medium",
                    row.user_id,
                )
            )
    return alerts


def merge_alerts(*groups: list[Alert]) -> list[Alert]:
    """One list, most severe first (the order ``compute_alerts`` uses)."""
    return sorted(
        (a for group in groups for a in group), key=lambda a: (_SEVERITY_ORDER[a.severity], a.kind, a.user, a.course)
    )


def evolution(events: list[skill_history.LevelEvent], *, by_person: bool) -> pd.DataFrame:
    """Columns date · skill · level (1–3): one person's levels, or a group's mean level per skill."""
    if not events:
        return pd.DataFrame(columns=["date", "skill", "level"])
    rows: list[dict[str, object]] = []
    held: dict[str, dict[UUID, int]] = {}  # skill -> person -> level value
    for event in events:
        held.setdefault(event.skill, {})[event.user_id] = LEVEL_VALUE[event.level]
        people = held[event.skill]
        value = people[event.user_id] if by_person else sum(people.values()) / len(people)
        rows.append({"date": event.changed_at, "skill": event.skill, "level": round(value, 2)})
    frame = pd.DataFrame(rows)
    return frame.groupby(["skill", "date"], as_index=False).last().sort_values(["skill", "date"])


def _month_step(frame: pd.DataFrame) -> str:
    """A tick every month, or every few months so that a long history keeps about a dozen ticks."""
    if frame.empty:
        return "M1"
    first, last = frame["date"].min(), frame["date"].max()
    months = (last.year - first.year) * 12 + last.month - first.month + 1
    return f"M{max(1, -(-months // 12))}"


def evolution_figure(frame: pd.DataFrame, lang: str, *, today: date) -> go.Figure:
    figure = go.Figure()
    for skill, points in frame.groupby("skill"):
        # the last level still holds today: extend each line to the right edge
        xs = [*points["date"], pd.Timestamp(today, tz=points["date"].iloc[-1].tz)]
        figure.add_trace(
            go.Scatter(
                x=xs, y=[*points["level"], points["level"].iloc[-1]], name=skill, mode="lines+markers", line_shape="hv"
            )
        )
    figure.update_layout(
        height=380,
        margin={"l": 10, "r": 10, "t": 10, "b": 10},
        legend={"orientation": "h"},
        separators=number_separators(lang),  # a group's mean level reads 2,33 in Spanish
        xaxis_tickformat="%m/%Y",  # no month names: plotly's are English
        xaxis_dtick=_month_step(frame),  # plotly's own ticks fall mid-month: '09/2026' twice
        yaxis={
            "range": [0.8, 3.2],
            "tickvals": [1, 2, 3],
            "ticktext": [code_label("level", level, lang) for level in LEVEL_VALUE],
            "title": t("insights.skills.level_axis", lang),
        },
    )
    return figure


@dataclass
class Evolution:
    frame: pd.DataFrame
    figure: go.Figure | None
    departments: dict[str, str]  # canonical name (what the filter takes) -> name in the reader's language
    skills: dict[str, str]


def group_evolution(
    deps: AppDeps,
    admin: users.User,
    *,
    department: str | None = None,
    skill: str | None = None,
    today: date | None = None,
) -> Evolution:
    """The "Skills evolution" chart for a department and/or a skill, by canonical name (all of them
    when both are None); lines and pickers read in the admin's language."""
    with deps.pool.connection() as conn:
        admin = _verified(conn, admin)
        events = skill_history.level_events(conn, admin.org_id, department=department, skill=skill, lang=admin.language)
        departments = skills.department_names(conn, admin.org_id, admin.language)
        names = {s.name: s.name_in(admin.language) for s in skills.list_skills(conn, admin.org_id)}
    frame = evolution(events, by_person=False)
    today = today or deps.now().date()
    return Evolution(
        frame, evolution_figure(frame, admin.language, today=today) if len(frame) else None, departments, names
    )


def departments(deps: AppDeps, admin: users.User) -> list[str]:
    with deps.pool.connection() as conn:
        return skills.departments(conn, _verified(conn, admin).org_id)


def _verified(conn: psycopg.Connection, admin: users.User) -> users.User:
    """The caller re-read from the database: an active admin of their organisation, else refused."""
    fresh = users.get_user(conn, admin.org_id, admin.id) if admin else None
    if fresh is None or not fresh.is_active or not fresh.is_admin:
        raise SkillHistoryError(t("common.admins_only", admin.language if admin else None))
    return fresh


def _person(conn: psycopg.Connection, admin: users.User, email: str) -> users.User:
    admin = _verified(conn, admin)
    person = users.get_user_by_email(conn, (email or "").strip().lower())
    if person is None or person.org_id != admin.org_id:
        raise SkillHistoryError(t("common.not_found", admin.language))
    return person


def person_evolution(
    deps: AppDeps, admin: users.User, email: str, today: date | None = None
) -> tuple[pd.DataFrame, go.Figure | None]:
    with deps.pool.connection() as conn:
        person = _person(conn, admin, email)
        events = skill_history.level_events(conn, admin.org_id, user_id=person.id, lang=admin.language)
    frame = evolution(events, by_person=True)
    return frame, evolution_figure(frame, admin.language, today=today or deps.now().date()) if len(frame) else None


def verified_skills(deps: AppDeps, admin: users.User, email: str) -> list[skills.UserSkill]:
    """The person's skills verified by HR: the ones that may carry an expiry; named in the admin's language."""
    with deps.pool.connection() as conn:
        person = _person(conn, admin, email)
        return [s for s in skills.user_skills(conn, admin.org_id, person.id, admin.language) if s.source == "admin"]


def set_expiry(deps: AppDeps, admin: users.User, email: str, skill_id: UUID, expires_at: date | None) -> None:
    """An admin sets (or clears) when a verified skill expires; audited."""
    with deps.pool.connection() as conn:
        person = _person(conn, admin, email)
        if not skill_history.set_expiry(conn, admin.org_id, person.id, skill_id, expires_at):
            raise SkillHistoryError(t("insights.skills.not_verified", admin.language))
        audit.record(
            conn,
            admin.org_id,
            actor_id=admin.id,
            action="skill.set_expiry",
            entity_type="user_skill",
            entity_id=f"{person.id}:{skill_id}",
            before=None,
            after={"expires_at": expires_at.isoformat() if expires_at else None},
        )
