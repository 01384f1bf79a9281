"""Skills over time: every level change is an event (trigger), the demo has a history and expiring
certifications, alerts reach the overview and the admin assistant's get_alerts, the pages chart it."""

from __future__ import annotations

import json
from datetime import UTC, date, timedelta

import pytest

from agents.admin import dashboards, tools
from agents.insights import skill_history
from storage import skill_history as history_store
from storage import skills
from tests.apptest import open_page, texts
from tests.insights.conftest import person


def _forklift(pool, org_id):
    with pool.connection() as conn:
        return next(s for s in skills.find_skills(conn, org_id, "Forklift operation"))


def test_the_demo_has_a_history_oldest_first(seeded_pool, admin):
    javier = person(seeded_pool, "javier@acme.test")
    with seeded_pool.connection() as conn:
        events = [
            e
            for e in history_store.level_events(conn, admin.org_id, user_id=javier.id)
            if e.skill == "Forklift operation"
        ]
    assert [e.level for e in events] == ["low", "medium", "high"]
    assert [e.source for e in events] == ["checkpoint", "checkpoint", "admin"]


def test_a_level_change_becomes_an_event_with_its_source(seeded_pool, admin):
    raul = person(seeded_pool, "raul@acme.test")
    forklift = _forklift(seeded_pool, admin.org_id)
    with seeded_pool.connection() as conn:
        assert skills.set_skill_level(conn, admin.org_id, raul.id, forklift.id, "medium", verified_by=admin.id)
        assert skills.set_skill_level(conn, admin.org_id, raul.id, forklift.id, "medium", verified_by=admin.id)
        events = [
            e
            for e in history_store.level_events(conn, admin.org_id, user_id=raul.id)
            if e.skill == "Forklift operation"
        ]
    assert (events[-1].level, events[-1].previous_level, events[-1].source) == ("medium", "low", "admin")
    assert len(events) == 2  # the same level verified again is not a change


def test_group_evolution_is_the_mean_level_of_the_holders():
    from datetime import datetime
    from uuid import uuid4

    a, b, at = uuid4(), uuid4(), datetime(2026, 1, 1, tzinfo=UTC)
    events = [
        history_store.LevelEvent(a, "A", "X", "Forklift", "low", None, "checkpoint", at),
        history_store.LevelEvent(b, "B", "X", "Forklift", "high", None, "admin", at + timedelta(days=1)),
        history_store.LevelEvent(a, "A", "X", "Forklift", "medium", "low", "checkpoint", at + timedelta(days=2)),
    ]
    frame = skill_history.evolution(events, by_person=False)
    assert frame["level"].tolist() == [1, 2, 2.5]


def test_expiry_alerts_in_the_overview_and_get_alerts(seeded_deps, seeded_pool, admin, admin_en):
    overview = dashboards.overview(seeded_deps, admin).alerts
    expiring = overview[overview["kind"].isin(["skill_expiring", "skill_expired"])]
    assert sorted(zip(expiring["kind"], expiring["user"], expiring["severity"])) == [
        ("skill_expired", "Ana Morales", "high"),
        ("skill_expiring", "Javier Torres", "medium"),
    ]
    assert any("Inspección de estanterías: caducó el" in d for d in expiring["detail"])
    with seeded_pool.connection() as conn:
        rows = tools.get_alerts(dashboards._context(seeded_deps, conn, admin_en), {})["rows"]
    assert any(r["kind"] == "skill_expiring" and "Forklift operation: expires on" in r["detail"] for r in rows)


def test_set_expiry_only_on_verified_skills_of_this_organisation(seeded_deps, seeded_pool, admin):
    forklift = _forklift(seeded_pool, admin.org_id)
    tom = person(seeded_pool, "tom@acme.test")
    with seeded_pool.connection() as conn:
        tom_forklift = skills.get_user_skill(conn, admin.org_id, tom.id, forklift.id)
    if tom_forklift.source != "admin":
        with pytest.raises(skill_history.SkillHistoryError):
            skill_history.set_expiry(
                seeded_deps, admin, "tom@acme.test", forklift.id, date.today() + timedelta(days=10)
            )
    skill_history.set_expiry(seeded_deps, admin, "javier@acme.test", forklift.id, date.today() + timedelta(days=10))
    overview = dashboards.overview(seeded_deps, admin).alerts
    assert ("Javier Torres", "high") in set(
        zip(
            overview[overview["kind"] == "skill_expiring"]["user"],
            overview[overview["kind"] == "skill_expiring"]["severity"],
        )
    )
    with pytest.raises(skill_history.SkillHistoryError):
        skill_history.set_expiry(seeded_deps, admin, "nobody@elsewhere.test", forklift.id, None)


@pytest.mark.parametrize(
    "who, words",
    [
        (
            "admin",
            ("Evolución de las habilidades", "Departamento", "Manejo de carretillas elevadoras", "Tiendas Reino Unido"),
        ),
        ("admin_en", ("Skills evolution", "Department", "Forklift operation", "Stores Spain")),
    ],
)
def test_pages_show_the_charts_and_the_expiry_form(seeded_pool, who, words, request):
    user = request.getfixturevalue(who)
    at = open_page(user, "pages/skills_matrix.py", evolution_department="Logística")
    assert words[0] in texts(at)
    assert len(at.get("plotly_chart")) == 2  # the matrix and the evolution
    department, skill = at.selectbox(key="evolution_department"), at.selectbox(key="evolution_skill")
    assert words[3] in department.options and department.value == "Logística"  # shown translated, kept canonical
    assert words[2] in skill.options
    matrix, evolution = (json.loads(chart.proto.spec) for chart in at.get("plotly_chart"))
    assert matrix["layout"]["separators"] == evolution["layout"]["separators"] == (",." if who == "admin" else ".,")
    assert words[2] in {trace["name"] for trace in evolution["data"]}  # Logistics' lines, named for the reader
    assert {json.loads(chart.proto.config)["locale"] for chart in at.get("plotly_chart")} == {user.language}
    at = open_page(user, "pages/employee_detail.py", detail_email="javier@acme.test")
    assert words[0] in texts(at) and len(at.get("plotly_chart")) == 1
    assert any(b.label in ("Guardar caducidad", "Save expiry") for b in at.get("form_submit_button"))
    at = open_page(user, "pages/home_admin.py")
    assert words[2] in at.dataframe[0].value.to_csv()  # the expiring skill, named in the reader's language


def test_verified_skills_are_named_in_the_admins_language(seeded_deps, admin):
    """The expiry form's picker read 'Complaint handling' to Marta."""
    names = {s.skill for s in skill_history.verified_skills(seeded_deps, admin, "james@acme.test")}
    assert "Gestión de reclamaciones" in names and "Complaint handling" not in names


def test_the_time_axis_has_one_tick_a_month_or_about_a_dozen():
    import pandas as pd

    def frame(start: str, end: str):
        return pd.DataFrame({"date": pd.to_datetime([start, end], utc=True), "skill": ["X", "X"], "level": [1, 2]})

    figure = skill_history.evolution_figure(frame("2026-09-01", "2026-11-20"), "es", today=date(2026, 12, 1))
    assert figure.layout.xaxis.dtick == "M1" and figure.layout.xaxis.tickformat == "%m/%Y"
    long = skill_history.evolution_figure(frame("2022-01-01", "2026-11-20"), "es", today=date(2026, 12, 1))
    assert long.layout.xaxis.dtick == "M5"
