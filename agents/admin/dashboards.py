"""Data for the admin dashboards: the skills matrix heatmap, gaps, who knows, mentorship, alerts,
course statistics and employee detail. One function per page; every one checks the caller is an
active admin, and the tables come from the same tools the assistant uses (one set of numbers)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from agents.admin import tools
from agents.admin.resolve import ToolContext, ToolError
from agents.admin.service import verified_admin
from agents.i18n import code_label, format_date, number_separators, t
from agents.runtime.deps import AppDeps
from storage import courses as course_store
from storage import skill_matrix
from storage import skills as skill_store
from storage import users as user_store
from storage.users import User

LEVEL_VALUE = {"low": 1, "medium": 2, "high": 3}
# none is left blank; low → high runs pale to deep
LEVEL_COLORS = [[0.0, "#fde2c8"], [0.5, "#7fb8da"], [1.0, "#1b4f8a"]]


def _frame(rows: list[dict]) -> pd.DataFrame:
    return pd.DataFrame(rows)


def _context(deps: AppDeps, conn, user: User) -> ToolContext:
    admin = verified_admin(conn, user)
    return ToolContext(conn, admin.org_id, admin, admin.language, deps.now().date(), deps)


@dataclass
class Overview:
    counts: dict[str, int]
    alerts: pd.DataFrame
    gaps: pd.DataFrame


def overview(deps: AppDeps, user: User) -> Overview:
    with deps.pool.connection() as conn:
        ctx = _context(deps, conn, user)
        people = user_store.list_employees(conn, ctx.org_id)
        courses = course_store.list_course_summaries(conn, ctx.org_id)
        alerts = tools.get_alerts(ctx, {})["rows"]
        gaps = tools.get_skill_gaps(ctx, {"threshold": 1})["rows"]
        skills = skill_store.list_skills(conn, ctx.org_id)
    counts = {
        "employees": sum(p.role == "employee" and p.is_active for p in people),
        "inactive": sum(not p.is_active for p in people),
        "admins": sum(p.role == "admin" and p.is_active for p in people),
        "published_courses": sum(c.status == "published" for c in courses),
        "draft_courses": sum(c.status == "draft" for c in courses),
        "open_enrollments": sum(p.active_courses for p in people),
        "skills": len(skills),
        "skills_without_expert": len(gaps),
        "alerts": len(alerts),
        "high_alerts": sum(a["severity"] == "high" for a in alerts),
    }
    return Overview(counts, _frame(alerts), _frame(gaps))


@dataclass
class MatrixView:
    table: pd.DataFrame  # employee, department, then one level column per skill
    figure: go.Figure
    departments: dict[str, str]  # canonical name (what the filter takes) -> name in the reader's language
    categories: dict[str, str]
    shape: tuple[int, int]  # (employees, skills)
    skill_columns: list[str]  # the table's level columns


def matrix_figure(matrix: skill_matrix.SkillsMatrix, lang: str) -> tuple[go.Figure, pd.DataFrame]:
    """The heatmap (hover: level, source, date, in the reader's language) and the same matrix as a table."""
    rows = {person.id: i for i, person in enumerate(matrix.employees)}
    cols = {skill.id: j for j, skill in enumerate(matrix.skills)}
    shape = (len(rows), len(cols))
    z = np.full(shape, np.nan)
    hover = np.full(shape, "", dtype=object)  # one string a cell: plotly serialises it ~8x faster than 3-d customdata
    levels = np.full(shape, "", dtype=object)
    for cell in matrix.cells:
        i, j = rows.get(cell.user_id), cols.get(cell.skill_id)
        if i is None or j is None:
            continue
        z[i, j] = LEVEL_VALUE[cell.level]
        levels[i, j] = cell.level
        hover[i, j] = (
            f"<b>{code_label('level', cell.level, lang)}</b> · {code_label('source', cell.source, lang)}"
            f" · {format_date(cell.last_assessed_at, lang)}"
        )
    names = [f"{p.full_name} · {p.department or '—'}" for p in matrix.employees]
    skills = [s.name_in(lang) for s in matrix.skills]
    figure = go.Figure(
        go.Heatmap(
            z=z,
            x=skills,
            y=names,
            text=hover,
            zmin=1,
            zmax=3,
            colorscale=LEVEL_COLORS,
            xgap=1,
            ygap=1,
            hoverongaps=False,
            colorbar={
                "tickvals": [1, 2, 3],
                "title": t("col.level", lang),
                "ticktext": [code_label("level", level, lang) for level in LEVEL_VALUE],
            },
            hovertemplate="%{y}<br>%{x}: %{text}<extra></extra>",
        )
    )
    figure.update_layout(
        height=min(1400, max(320, 22 * shape[0] + 160)),
        margin={"l": 10, "r": 10, "t": 30, "b": 10},
        separators=number_separators(lang),
        xaxis={"side": "top", "tickangle": -40},
        yaxis={"autorange": "reversed"},
    )
    table = pd.DataFrame(levels, columns=skills)
    table.insert(0, "department", [p.department for p in matrix.employees])
    table.insert(0, "employee", [p.full_name for p in matrix.employees])
    return figure, table


def matrix_view(deps: AppDeps, user: User, *, department: str | None = None, category: str | None = None) -> MatrixView:
    with deps.pool.connection() as conn:
        ctx = _context(deps, conn, user)
        matrix = skill_matrix.skills_matrix(conn, ctx.org_id, department=department, category=category, lang=ctx.lang)
        departments = skill_store.department_names(conn, ctx.org_id, ctx.lang)
        categories = skill_store.category_names(conn, ctx.org_id, ctx.lang)
    figure, table = matrix_figure(matrix, ctx.lang)
    return MatrixView(
        table,
        figure,
        departments,
        categories,
        (len(matrix.employees), len(matrix.skills)),
        [s.name_in(ctx.lang) for s in matrix.skills],
    )


@dataclass
class SkillInsights:
    gaps: pd.DataFrame
    mentorship: pd.DataFrame
    skills: list[str]
    who_knows: pd.DataFrame = field(default_factory=pd.DataFrame)
    error: str | None = None


def skill_insights(
    deps: AppDeps, user: User, *, threshold: int = 1, skill: str | None = None, min_level: str = "medium"
) -> SkillInsights:
    with deps.pool.connection() as conn:
        ctx = _context(deps, conn, user)
        insights = SkillInsights(
            _frame(tools.get_skill_gaps(ctx, {"threshold": threshold})["rows"]),
            _frame(tools.get_mentorship_suggestions(ctx, {})["rows"]),
            [s.name_in(ctx.lang) for s in skill_store.list_skills(conn, ctx.org_id)],
        )
        if skill:
            try:
                insights.who_knows = _frame(tools.who_knows(ctx, {"skill_name": skill, "min_level": min_level})["rows"])
            except ToolError as exc:
                insights.error = str(exc)
    return insights


@dataclass
class CourseReport:
    courses: pd.DataFrame
    titles: dict[str, str]  # canonical title (what the picker keeps) -> title in the reader's language
    stats: dict | None = None
    hardest: pd.DataFrame = field(default_factory=pd.DataFrame)
    course_id: str | None = None  # the picked course's id, for a link to preview it in the course player


def course_report(deps: AppDeps, user: User, course_title: str | None = None) -> CourseReport:
    with deps.pool.connection() as conn:
        ctx = _context(deps, conn, user)
        courses = tools.list_courses(ctx, {})["rows"]
        listed = course_store.list_courses(conn, ctx.org_id)
        titles = {c.title: c.title_in(ctx.lang) for c in listed}
        report = CourseReport(_frame(courses), titles)
        if course_title:
            result = tools.get_course_stats(ctx, {"course_title": course_title})
            report.stats, report.hardest = result["course"], _frame(result["rows"])
            report.course_id = next((str(c.id) for c in listed if c.title == course_title), None)
    return report


@dataclass
class EmployeeReport:
    employees: pd.DataFrame
    profile: dict | None = None
    skills: pd.DataFrame = field(default_factory=pd.DataFrame)
    enrollments: pd.DataFrame = field(default_factory=pd.DataFrame)
    activity: pd.DataFrame = field(default_factory=pd.DataFrame)


def employee_report(deps: AppDeps, user: User, email: str | None = None) -> EmployeeReport:
    with deps.pool.connection() as conn:
        ctx = _context(deps, conn, user)
        report = EmployeeReport(_frame(tools.list_employees(ctx, {})["rows"]))
        if email:
            detail = tools.get_employee_detail(ctx, {"employee_name": email})
            report.profile = detail["employee"]
            report.skills, report.enrollments, report.activity = (
                _frame(detail["rows"]),
                _frame(detail["enrollments"]),
                _frame(detail["activity"]),
            )
    return report
