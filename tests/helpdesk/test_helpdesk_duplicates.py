"""Duplicates across languages: the calibrated eval, es/en classification that agrees, and the done-when
flow through the QA CLI (a Spanish VPN report filed, the English one offered it, linking counts two)."""

from __future__ import annotations

import json

import pytest

from agents.helpdesk import duplicates, twins
from agents.helpdesk.__main__ import main
from agents.helpdesk.tools import local_ticket_search
from agents.runtime.deps import process_embedder
from tests.conftest import make_deps
from tests.people import upsert_user


@pytest.fixture(scope="module")
def report():
    return duplicates.evaluate(process_embedder())


def test_the_eval_has_enough_pairs_of_both_kinds(report):
    assert report["pairs"] >= 40 and report["same"] >= 20 and report["different"] >= 20
    assert 0 < report["cross_language_pairs"] < report["pairs"]


def test_centred_duplicates_meet_the_targets_and_beat_the_rule_before(report):
    centred, before = report["centred"], report["baseline_before"]
    assert centred["held_out"]["precision"] >= 0.9 and centred["held_out"]["recall"] >= 0.8, centred
    assert centred["all"]["precision"] >= 0.9 and centred["all"]["recall"] >= 0.8, centred
    assert centred["cross_language"]["recall"] > before["cross_language"]["recall"]
    assert centred["corpus"]["recall"] > report["raw_cosine"]["corpus"]["recall"]


def test_the_same_report_in_spanish_and_english_classifies_alike():
    pairs = [json.loads(line) for line in duplicates.PAIRS.read_text(encoding="utf-8").splitlines() if line]
    for pair in (p for p in pairs if p["same"]):
        a, b = (
            twins.classify({"conversation": [{"role": "user", "content": text}], "user_replies": []})
            for text in (pair["ticket"], pair["report"])
        )
        assert (a.category, a.severity) == (b.category, b.severity), pair


def test_an_unrelated_ticket_sharing_words_is_not_offered(org, pool):
    hits = local_ticket_search(make_deps(pool), org.org.id, "No puedo conectarme a la VPN desde esta mañana")
    vpn_drops = next(h for h in hits if h["title"] == "VPN disconnects every ten minutes")
    assert not vpn_drops["strong"]


def _cli(capsys, *argv) -> dict:
    assert main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def _to_outcome(capsys, email: str, turn: dict) -> dict:
    """Answer the agent's questions with the first chip until it offers a duplicate or a draft."""
    while turn["kind"] == "question":
        turn = _cli(capsys, "ask", "-", "--user", email, "--session", turn["session_id"], "--reply", turn["choices"][0])
    return turn


def test_vpn_in_spanish_then_english_through_the_cli(org, pool, capsys):
    first = _to_outcome(
        capsys,
        "ana@hd.test",
        _cli(capsys, "ask", "No puedo conectarme a la VPN desde esta mañana", "--user", "ana@hd.test"),
    )
    assert first["kind"] == "draft_ready" and first["draft"]["category"] == "network"
    filed = _cli(capsys, "ask", "-", "--user", "ana@hd.test", "--session", first["session_id"], "--confirm")
    assert filed["kind"] == "filed"
    number = filed["ticket"]["number"]

    second = _to_outcome(
        capsys,
        "bob@hd.test",
        _cli(capsys, "ask", "I can't connect to the VPN since this morning", "--user", "bob@hd.test"),
    )
    assert second["kind"] == "duplicate" and second["ticket"]["number"] == number, second
    linked = _cli(capsys, "ask", "-", "--user", "bob@hd.test", "--session", second["session_id"], "--reply", "link")
    assert linked["kind"] == "linked" and linked["ticket"]["affected"] == 2

    shown = _cli(capsys, "tickets", "--show", str(number), "--user", "boss@hd.test")
    assert shown["affected"] == 2 and [r["name"] for r in shown["linked"]] == ["Bob"]
    assert _cli(capsys, "tickets", "--mine", "--user", "bob@hd.test")[0]["number"] == number
    # Someone not affected sees the title and status only.
    with pool.connection() as conn:
        upsert_user(
            conn,
            org.org.id,
            email="cleo@hd.test",
            full_name="Cleo",
            role="employee",
            password="pw-cleo-123",
            language="en",
        )
    assert set(_cli(capsys, "tickets", "--show", str(number), "--user", "cleo@hd.test")) == {
        "number",
        "title",
        "status",
    }


def test_cli_bad_input_is_one_line(org, capsys):
    assert main(["ask", "VPN down", "--user", "nobody@hd.test"]) == 2
    assert capsys.readouterr().err.strip() == "error: no user with email nobody@hd.test"
    assert main(["tickets", "--show", "999999", "--user", "bob@hd.test"]) == 2  # bad input: the CLI contract
    assert capsys.readouterr().err.strip() == "error: That ticket does not exist."
