"""The real-model bench's admin scenarios (tests/bench/real_model_agents.py) through the offline twin: every
read gives a tool result, every write a preview that a confirm executes (issue 13 item 4). The
scenario lists are read from the bench file itself, so the two never drift apart."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench" / "real_model_agents.py"  # the bench's scenario set


def _bench_list(name: str) -> list[str]:
    """A module-level list of the bench, read without importing it (importing sets its environment)."""
    for node in ast.parse(BENCH.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == name for t in node.targets):
            return ast.literal_eval(node.value)
    raise LookupError(name)


READS, WRITES = _bench_list("ADMIN_READS"), _bench_list("ADMIN_WRITES")


def test_the_bench_has_its_ten_reads_and_three_writes():
    assert len(READS) == 10 and len(WRITES) == 3


@pytest.mark.parametrize("message", READS)
def test_every_bench_read_yields_a_tool_result(turn, message):
    reply = turn(message)
    results = [c for c in reply.tool_calls if "error" not in c["result"]]
    assert results, (message, reply.tool_calls, reply.response)
    assert reply.pending is None and reply.response


@pytest.mark.parametrize("message", WRITES)
def test_every_bench_write_is_previewed_and_a_confirm_executes_it(turn, message):
    reply = turn(message)
    assert reply.pending, (message, reply.tool_calls, reply.response)
    done = turn(session=reply.session, confirm=reply.pending["id"])
    assert done.executed and "error" not in done.executed[0]["result"], done.executed


def test_an_unknown_skill_is_answered_from_the_tool_nobody_and_the_closest(turn):
    reply = turn("Who knows Excel?")
    call = reply.tool_calls[0]
    assert call["tool"] == "who_knows" and call["result"]["rows"] == []
    assert call["result"]["unknown_skill"] == "Excel" and len(call["result"]["closest"]) == 3
    assert "Excel" in reply.response and call["result"]["closest"][0] in reply.response


def test_how_is_a_person_doing_opens_their_progress(turn):
    reply = turn("How is Priya doing?")
    call = reply.tool_calls[0]
    assert call["tool"] == "get_employee_detail" and call["result"]["employee"]["full_name"] == "Priya Shah"
    assert "Information Security Essentials" in reply.response


def test_a_skill_named_by_its_acronym_is_found_for_the_preview(turn):
    reply = turn("Verify Tom Baker's LOTO skill at medium level")
    assert reply.pending and reply.pending["arguments"]["skill_name"] == "Lockout-tagout (LOTO)"
    assert reply.pending["arguments"]["employee_name"] == "Tom Baker"
    turn(session=reply.session, cancel=True)


def test_a_write_naming_a_course_several_titles_share_asks_which_one_and_the_full_title_previews(
    turn, seeded_pool, admin
):
    """The real-model bench's database held four "Returns and Refunds …" courses (three from content runs): the
    twin took "to Ryan" for the course. Now the reply names the candidates, and nothing is held to confirm; the
    bench's write names the seeded course by its full title, so on that database it still previews."""
    from storage import courses

    with seeded_pool.connection() as conn:
        for title in ("Returns and Refunds Policy", "Returns and Refunds Policy (v2)"):
            courses.create_course(conn, admin.org_id, title=title, status="published")
    reply = turn("Assign the Returns and Refunds course to Ryan with deadline 2099-01-15")
    call = reply.tool_calls[0]
    assert call["tool"] == "assign_course" and call["arguments"]["course_title"] == "Returns and Refunds"
    assert call["arguments"]["employee_names"] == ["Ryan Mitchell"] and reply.pending is None
    assert all(
        title in reply.response for title in ("Returns and Refunds Essentials", "Returns and Refunds Policy (v2)")
    )
    reply = turn(WRITES[0])  # a preview, or "nothing to change" once the bench write above ran: no question
    assert reply.tool_calls[0]["arguments"]["course_title"] == "Returns and Refunds Essentials"
    assert "Returns and Refunds Policy" not in reply.response, reply.response
