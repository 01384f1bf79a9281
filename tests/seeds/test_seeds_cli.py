"""python -m seeds: JSON summary, and --reset reloading the same organisation."""

import json

from seeds.__main__ import main


def test_json_summary_then_reset_gives_same_counts(seeded_db_url, capsys):
    assert main(["--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["org"] == "acme"
    assert summary["users"] == {"admin": "admin@acme.test", "employee": "lucia@acme.test"}
    assert summary["counts"]["tickets"] >= 15 and summary["counts"]["users"] >= 22
    who = {
        person["email"]: (person["name"], person["role"], person["language"], person["password"])
        for person in summary["sign_ins"]
    }
    assert who["admin@acme.test"] == ("Marta Ruiz", "admin", "es", "skillnet-admin")
    assert who["oliver@acme.test"] == ("Oliver Grant", "admin", "en", "skillnet-admin")
    assert who["lucia@acme.test"] == ("Lucía Fernández", "employee", "es", "skillnet-demo")
    assert who["james@acme.test"] == ("James Carter", "employee", "en", "skillnet-demo")
    assert "andres@acme.test" not in who, "someone who left cannot sign in, so is not listed"
    assert len(who) == summary["counts"]["users"] - 1, "every active person, each once"

    assert main(["--reset", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["counts"] == summary["counts"]


def test_failure_is_one_line_and_non_zero(monkeypatch, capsys):
    monkeypatch.setenv("DATABASE_URL", "postgresql://nobody@127.0.0.1:1/none")
    from storage import db

    db.reset_pools()
    assert main(["--json"]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: ") and "\n" not in err
    db.reset_pools()
