"""Course health on the demo data: the check-up course's cohort shows every flag with its real cause,
the seeded wrong key is flagged "key may be wrong", and the CLI prints it (bad input: one line, exit 2)."""

from __future__ import annotations

import json

import pytest

from agents.content.__main__ import main as content_cli
from agents.content.health import FLAG_ORDER
from storage import courses

COURSE = "Store policy check-up"


@pytest.fixture(scope="module")
def report(seeded_pool, capsys_module=None):
    with seeded_pool.connection() as conn:
        org_id = conn.execute("SELECT id FROM organizations WHERE slug = 'acme'").fetchone()[0]
        course_id = courses.course_id_by_title(conn, org_id, COURSE)
    return course_id


def _health(capsys, course_id, *extra) -> dict:
    assert content_cli(["health", str(course_id), "--json", *extra]) == 0
    return json.loads(capsys.readouterr().out)


def test_every_flag_shows_on_the_demo_with_its_cause(report, capsys):
    health = _health(capsys, report)
    by_prompt = {item["prompt"]: item for item in health["exercises"]}
    flagged = {flag["code"] for item in health["exercises"] for flag in item["flags"]}
    assert flagged == set(FLAG_ORDER)
    card = by_prompt["How long can a card refund take to appear in the customer's account?"]
    assert {"negative_discrimination", "distractor_beats_key"} <= {f["code"] for f in card["flags"]}
    assert all(f["key_may_be_wrong"] and "key may be wrong" in f["reason"] for f in card["flags"])
    assert "“14 days” chosen by 12 of 21; the key “2 working days” by 5." in [f["evidence"] for f in card["flags"]]
    codes = {item["prompt"]: [f["code"] for f in item["flags"]] for item in health["exercises"]}
    assert codes["Complete the guarantee rule."] == ["too_hard"]
    assert codes["For how long is a gift receipt valid?"] == ["unused_distractor"]
    by_text = {item["text"]: [f["code"] for f in item["flags"]] for item in health["exercises"]}
    assert by_text["The returns team checks returned products within 2 working days."] == [
        "tf_all_same",
        "not_discriminating",
    ]
    assert by_text["Refunds are made to the original payment method."] == ["tf_all_same", "too_easy"]
    assert health["exercises"][0]["flags"], "flagged exercises come first"
    healthy = codes["Complete the rule for gift receipts."]
    assert healthy == []
    first, second = health["modules"]
    assert first["flagged_share"] == 1.0 and second["flagged_share"] == 0.0
    assert 0 < second["mean_facility"] < 1


def test_reasons_in_spanish(report, capsys):
    health = _health(capsys, report, "--lang", "es")
    reasons = [f["reason"] for item in health["exercises"] for f in item["flags"]]
    assert any("La clave puede estar mal" in r for r in reasons)


def test_courses_with_few_answers_say_so(seeded_pool, capsys):
    with seeded_pool.connection() as conn:
        org_id = conn.execute("SELECT id FROM organizations WHERE slug = 'acme'").fetchone()[0]
        course_id = courses.course_id_by_title(conn, org_id, "Seguridad en el almacén")
    health = _health(capsys, course_id)
    assert all(not item["flags"] or item["flags"][0]["code"] == "tf_all_same" for item in health["exercises"])
    assert any(item["note"].startswith("Aún no hay respuestas suficientes") for item in health["exercises"])


@pytest.mark.parametrize("argv", [["health", "not-a-uuid"], ["health", "00000000-0000-0000-0000-000000000000"]])
def test_bad_input_is_one_line_and_exit_2(seeded_pool, capsys, argv):
    assert content_cli(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1


def test_the_course_statistics_page_shows_health_in_spanish(seeded_pool):
    from tests.apptest import open_page, texts
    from tests.insights.conftest import person

    at = open_page(person(seeded_pool, "admin@acme.test"), "pages/course_stats.py", stats_course=COURSE)
    shown = texts(at)
    assert "Salud del curso" in shown and "Ejercicios señalados" in shown
    warnings = [w.value for w in at.warning]
    assert warnings[0].startswith("La clave puede estar mal")  # flags first, the wrong key first of all
    assert "«14 days» la eligieron 12 de 21; la clave «2 working days», 5." in shown
    assert len(at.get("plotly_chart")) == 1
    assert {b.label for b in at.button} >= {"Regenerar este ejercicio", "Retirar"}
