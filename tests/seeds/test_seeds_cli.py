"""python -m seeds: JSON summary, and --reset reloading the same organisation."""
import json

from seeds.__main__ import main


def test_json_summary_then_reset_gives_same_counts(seeded_db_url, capsys):
    assert main(["--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["org"] == "acme"
    assert summary["users"] == {"admin": "admin@acme.test", "employee": "lucia@acme.test"}
    assert summary["counts"]["tickets"] >= 15 and summary["counts"]["users"] >= 22

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
