"""The service against a real PostgreSQL: ACL, idempotency, conflicts, caps, confirm, abort, restart, TTL."""

from __future__ import annotations

import json
import uuid
from dataclasses import replace

import pytest

from agents.helpdesk import audit, metrics, service, upkeep
from agents.helpdesk.guards import Settings
from agents.helpdesk.service import HelpdeskError
from core.turns import Step, finish
from storage import helpdesk_sessions as sessions
from storage import tickets
from tests.fake_openai import Reply
from tests.helpdesk.conftest import local_toolbox, make_deps
from tests.people import upsert_user


def _count(pool, org_id) -> int:
    with pool.connection() as conn:
        return len(tickets.list_tickets(conn, org_id))


def latest_turn(pool, org) -> service.AgentTurn:
    """Bob's most recent helpdesk session as the page would show it."""
    with pool.connection() as conn:
        return service.AgentTurn.from_row(sessions.list_sessions(conn, org.org.id, user_id=org.bob.id, limit=1)[0])


def _answer_until_draft(user, turn, deps, replies=("Only me", "Since yesterday")):
    replies = list(replies)
    while turn.kind == "question":
        turn = service.resume(deps, user, turn.session_id, question_id=turn.question_id, text=replies.pop(0))
    return turn


def test_duplicate_in_the_database_is_offered_and_linked(org, deps, pool):
    steps: list[Step] = []
    turn = finish(service.start_turn(deps, org.bob, "Oracle Financials returns 403 on budget reports"), steps.append)
    assert turn.kind == "duplicate" and turn.ticket["title"].startswith("Oracle Financials returns 403")
    assert Step("search_existing_issues", "Searching existing tickets…") in steps
    before = _count(pool, org.org.id)
    linked = service.resume(deps, org.bob, turn.session_id, question_id=turn.question_id, action="link")
    assert linked.kind == "linked" and f"#{turn.ticket['number']}" in linked.message
    assert _count(pool, org.org.id) == before
    with pool.connection() as conn:
        row = sessions.get_session(conn, org.org.id, org.bob.id, turn.session_id)
    assert (row.status, row.outcome) == ("done", "linked")


def test_full_flow_files_one_ticket_even_when_confirmed_twice(org, deps, pool):
    turn = service.start(deps, org.ana, "Mi portátil no arranca y la pantalla parpadea")
    assert turn.kind == "question" and turn.message.startswith("¿")
    draft = _answer_until_draft(org.ana, turn, deps, ["Solo a mí", "Desde ayer, sin mensaje de error"])
    assert draft.kind == "draft_ready" and draft.draft["category"] == "hardware"
    before = _count(pool, org.org.id)
    edited = {**draft.draft, "title": "Portátil no arranca (editado)", "severity": "high"}
    filed = service.confirm(deps, org.ana, draft.session_id, question_id=draft.question_id, draft=edited)
    again = service.confirm(deps, org.ana, draft.session_id, question_id=draft.question_id, draft=edited)
    assert filed.kind == again.kind == "filed" and filed.ticket["number"] == again.ticket["number"]
    assert _count(pool, org.org.id) == before + 1
    with pool.connection() as conn:
        ticket = tickets.get_by_number(conn, org.org.id, filed.ticket["number"])
    assert ticket.title == "Portátil no arranca (editado)" and ticket.severity == "high"
    assert ticket.source == "helpdesk" and ticket.created_by == org.ana.id
    assert "agent_session: " + draft.session_id in ticket.body and "chat_session: " in ticket.body


def test_another_users_session_is_not_found_and_counted(org, deps):
    turn = service.start(deps, org.ana, "No puedo imprimir en la planta 3")
    before = metrics.ACL_VIOLATIONS._value.get()
    for call in (
        lambda: service.get_turn(deps, org.bob, turn.session_id),
        lambda: service.resume(deps, org.bob, turn.session_id, question_id=turn.question_id, text="x"),
        lambda: service.confirm(deps, org.bob, turn.session_id, question_id=turn.question_id),
        lambda: service.abort(deps, org.bob, turn.session_id),
    ):
        with pytest.raises(HelpdeskError) as caught:
            call()
        assert caught.value.code == "not_found"
    assert metrics.ACL_VIOLATIONS._value.get() == before + 4
    with pytest.raises(HelpdeskError) as unknown:
        service.get_turn(deps, org.bob, uuid.uuid4())
    assert unknown.value.code == "not_found" and str(unknown.value) == str(caught.value).replace("es", "es")
    assert metrics.ACL_VIOLATIONS._value.get() == before + 4  # a missing id is not a violation
    assert service.get_turn(deps, org.ana, turn.session_id).kind == "question"


def test_idempotency_key_replays_the_same_session(org, deps):
    key = uuid.uuid4().hex
    before = metrics.SESSION_DEDUP._value.get()
    first = service.start(deps, org.bob, "Teams crashes when sharing my screen", idempotency_key=key)
    second = service.start(deps, org.bob, "Teams crashes when sharing my screen", idempotency_key=key)
    assert first.session_id == second.session_id and second.question_id == first.question_id
    assert metrics.SESSION_DEDUP._value.get() == before + 1
    other = service.start(deps, org.bob, "Teams crashes when sharing my screen", idempotency_key=uuid.uuid4().hex)
    assert other.session_id != first.session_id


def test_stale_pending_question_is_a_conflict(org, deps):
    turn = service.start(deps, org.bob, "Excel freezes when opening large files")
    assert turn.kind == "question"
    with pytest.raises(HelpdeskError) as caught:
        service.resume(deps, org.bob, turn.session_id, question_id="stale-tab", text="Only me")
    assert caught.value.code == "conflict"
    nxt = service.resume(deps, org.bob, turn.session_id, question_id=turn.question_id, text="Only me")
    with pytest.raises(HelpdeskError):  # the first question id is stale now
        service.resume(deps, org.bob, turn.session_id, question_id=turn.question_id, text="again")
    assert nxt.question_id != turn.question_id


def test_daily_cap_refuses_with_retry_after(org, pool, checkpointer):
    capped = make_deps(pool, checkpointer, replace(Settings(), max_sessions_per_day=1))
    user = org.admin
    service.start(capped, user, "The badge reader rejects my card")
    refusals = metrics.DAILY_CAP_REFUSALS._value.get()
    with pytest.raises(HelpdeskError) as caught:
        service.start(capped, user, "Another problem with the badge reader")
    assert caught.value.code == "daily_cap" and 0 < caught.value.retry_after <= 86_401
    assert metrics.DAILY_CAP_REFUSALS._value.get() == refusals + 1


def test_disabled_and_kill_switch_refuse_new_sessions(org, pool, checkpointer):
    for settings in (
        replace(Settings(), enabled=False),
        replace(Settings(), kill_switch=True),
        replace(Settings(), enabled_user_ids=frozenset({"someone-else"})),
    ):
        with pytest.raises(HelpdeskError) as caught:
            service.start(make_deps(pool, checkpointer, settings), org.bob, "The VPN is slow")
        assert caught.value.code == "disabled"


def test_the_deadline_offers_the_draft_so_far(org, pool, checkpointer):
    ticks = iter(range(0, 10_000, 40))
    slow = make_deps(pool, checkpointer, replace(Settings(), deadline_seconds=60), clock=lambda: float(next(ticks)))
    turn = service.start(slow, org.bob, "Outlook calendar does not sync on my phone")
    assert turn.kind == "draft_ready" and turn.reason == "deadline" and "Outlook" in turn.draft["body"]
    assert service.get_turn(slow, org.bob, turn.session_id).reason == "deadline"


def test_token_cap_is_a_hard_stop(org, pool, checkpointer, fake_openai):
    from agents.llm import LLM
    from agents.llm import Settings as LLMSettings

    fake_openai.responder = lambda request: '{"next_action": "search_duplicates", "reason": "x"}'
    llm = LLM(LLMSettings.from_env())
    capped = make_deps(pool, checkpointer, replace(Settings(), max_tokens=300), llm=llm)
    turn = service.start(capped, org.bob, "SAP payroll export fails with error 500")
    assert turn.kind == "draft_ready" and turn.reason == "budget_exhausted"  # what was found, not nothing
    assert turn.actions == ["search_duplicates", "write_draft"] and len(fake_openai.chat_requests) >= 1


def test_abort_persists_aborted_and_later_calls_see_it(org, deps, pool):
    turn = service.start(deps, org.bob, "The projector in room B does not turn on")
    aborted = service.abort(deps, org.bob, turn.session_id)
    assert aborted.kind == "aborted" and aborted.reason == "user_cancelled"
    with pool.connection() as conn:
        row = sessions.get_session(conn, org.org.id, org.bob.id, turn.session_id)
    assert (row.status, row.outcome, row.abort_reason) == ("done", "aborted", "user_cancelled")
    late = service.resume(deps, org.bob, turn.session_id, question_id=turn.question_id, text="x")
    assert late.kind == "aborted"


class SimulatedCrash(BaseException):
    """The process dying mid-step (BaseException: nothing in the agent may swallow it)."""


def test_restart_during_a_tool_call_leaves_the_session_aborted(org, pool, checkpointer):
    def crashing_toolbox(deps_, org_id, user_id):
        box = local_toolbox(deps_, org_id, user_id)

        def crash(query):
            raise SimulatedCrash()

        box.search_existing_issues = crash
        return box

    crashing = make_deps(pool, checkpointer, toolbox=crashing_toolbox)
    with pytest.raises(SimulatedCrash):
        service.start(crashing, org.bob, "My keyboard types the wrong letters")
    with pool.connection() as conn:
        row = sessions.list_sessions(conn, org.org.id, user_id=org.bob.id, limit=1)[0]
    assert row.status == "running"
    restarted = make_deps(pool, checkpointer)
    assert upkeep.sweep_orphans(restarted, stale_after_seconds=0) >= 1
    turn = service.get_turn(restarted, org.bob, row.id)
    assert (
        turn.kind == "aborted" and turn.reason == "server_restart" and "restarted" in turn.message
    )  # Bob reads English
    with pool.connection() as conn:
        row = sessions.get_session(conn, org.org.id, org.bob.id, row.id)
    assert (row.outcome, row.abort_reason) == ("aborted", "server_restart")


def test_recent_work_is_not_swept(org, deps):
    turn = service.start(deps, org.bob, "My mouse is not detected")
    upkeep.sweep_orphans(deps)  # default: only sessions idle for 5 minutes
    assert service.get_turn(deps, org.bob, turn.session_id).kind == "question"


def test_gc_deletes_expired_checkpoints(org, pool, checkpointer):
    short = make_deps(pool, checkpointer, replace(Settings(), checkpoint_ttl_seconds=0))
    turn = service.start(short, org.bob, "The scanner does not sync stock counts")
    result = upkeep.gc(short)
    assert result["checkpoints_deleted"] >= 1 and result["sessions_aborted"] >= 1
    assert short.graph.get_state({"configurable": {"thread_id": turn.session_id}}).values == {}
    assert service.get_turn(short, org.bob, turn.session_id).reason == "expired"


def test_audit_lines_hold_hashes_never_raw_text(org, deps):
    secret_question = "Zebra-unicorn-7781 printer smells of burning plastic"
    turn = service.start(deps, org.bob, secret_question)
    lines = audit.read_events(turn.session_id)
    events = {line["event"] for line in lines}
    assert {"agent.started", "agent.supervisor_decision", "agent.tool_call", "agent.awaiting_user"} <= events
    raw = json.dumps(lines)
    assert "Zebra" not in raw and "burning" not in raw and str(org.bob.id) not in raw
    assert all(line["state_version"] == 1 and line["user_id_hash"] for line in lines if line["event"] != "agent.error")


def test_forget_user_deletes_sessions_and_tombstones_audit(org, pool, checkpointer):
    deps = make_deps(pool, checkpointer)
    with pool.connection() as conn:
        carol = upsert_user(
            conn,
            org.org.id,
            email="carol@hd.test",
            full_name="Carol",
            role="employee",
            password="pw-carol-1",
            language="en",
        )
    turn = service.start(deps, carol, "My monitor flickers all day")
    result = upkeep.forget_user(deps, org.org.id, carol.id)
    assert result["sessions_deleted"] == 1 and result["audit_lines_tombstoned"] >= 1
    assert all(line.get("redacted") for line in audit.read_events() if line.get("agent_session_id") == turn.session_id)
    with pytest.raises(HelpdeskError):
        service.get_turn(deps, carol, turn.session_id)


def test_a_stale_running_session_reads_as_restarted(org, deps, pool):
    with pool.connection() as conn:
        row = sessions.create_session(conn, org.org.id, org.bob.id, language="en")
        conn.execute("UPDATE helpdesk_sessions SET updated_at = now() - interval '10 minutes' WHERE id = %s", (row.id,))
    turn = service.get_turn(deps, org.bob, row.id)
    assert turn.kind == "aborted" and turn.reason == "server_restart"


def test_knowledge_base_fix_is_proposed_from_a_real_document(org, pool, checkpointer, tmp_path):
    from agents.helpdesk.tools import default_toolbox
    from agents.ingestion.pipeline import ingest_file

    doc = tmp_path / "expenses.md"
    doc.write_text(
        "# Expenses handbook\n\n## Changing your expense approver\n\nTo change your expense report "
        "approver, open Profile, then Expense Approvers, choose the new approver and press Save. The "
        "change applies to reports submitted afterwards.\n",
        encoding="utf-8",
    )
    ingest_file(pool, org.org.id, doc)
    real = make_deps(pool, checkpointer, toolbox=default_toolbox)
    steps: list[Step] = []
    turn = finish(service.start_turn(real, org.bob, "How do I change my expense report approver?"), steps.append)
    assert "Searching the knowledge base…" in [step.label for step in steps]
    assert turn.kind == "solution" and "Expense Approvers" in turn.message and "Expenses handbook" in turn.message
    done = service.resume(real, org.bob, turn.session_id, question_id=turn.question_id, action="solved")
    assert done.kind == "resolved"


def test_a_checkpoint_of_another_state_version_is_refused(org, deps):
    turn = service.start(deps, org.bob, "The coffee machine app crashes on login")
    config = {"configurable": {"thread_id": turn.session_id}}
    deps.graph.update_state(config, {"state_version": 0})
    with pytest.raises(HelpdeskError) as caught:
        service.resume(deps, org.bob, turn.session_id, question_id=turn.question_id, text="Only me")
    assert caught.value.code == "gone"
    assert service.get_turn(deps, org.bob, turn.session_id).reason == "state_version"


def test_a_slow_model_still_offers_the_duplicate_it_found(org, pool, checkpointer, fake_openai):
    """Issue 13: 1 token/s and a 3 s budget: the duplicate is offered, the first step shows at once."""
    import time

    from agents.llm import LLM
    from agents.llm import Settings as LLMSettings

    def slow_supervisor(request):
        first = not any("search_existing_issues" in str(m.get("content")) for m in request["messages"])
        decision = "search_duplicates" if first else "write_draft"
        return Reply(text=f'{{"next_action": "{decision}", "reason": "x"}}', delay=0 if first else 2.5)

    fake_openai.responder = slow_supervisor
    llm = LLM(LLMSettings.from_env())
    llm.capabilities()
    hurried = make_deps(pool, checkpointer, replace(Settings(), deadline_seconds=3, max_sessions_per_day=1000), llm=llm)
    shown: list[tuple[float, str]] = []
    started = time.monotonic()
    turn = finish(
        service.start_turn(hurried, org.bob, "Oracle Financials returns 403 on budget reports"),
        lambda step: shown.append((time.monotonic() - started, step.label)),
    )
    assert shown and shown[0][0] < 2.0 and shown[0][1] == "Reading your report…"
    assert turn.kind == "duplicate" and turn.ticket["title"].startswith("Oracle Financials returns 403")
    assert time.monotonic() - started < 15


def test_the_sweeps_run_on_the_task_queue_every_ten_minutes(org, pool):
    from agents.helpdesk import sweeper
    from agents.runtime import tasks
    from agents.runtime.deps import process_deps
    from storage import queue

    schedule = {p.periodic_id: p.cron for p in tasks.app.periodic_registry.periodic_tasks.values()}
    assert schedule["helpdesk-sweeps"] == "*/10 * * * *"
    with pool.connection() as conn:  # stopped mid-step long ago: the next sweep ends it
        row = sessions.create_session(conn, org.org.id, org.bob.id, language="en")
        conn.execute("UPDATE helpdesk_sessions SET updated_at = now() - interval '1 hour' WHERE id = %s", (row.id,))
    assert sweeper.defer_helpdesk_sweeps() and not sweeper.defer_helpdesk_sweeps()  # one waiting sweep at a time
    with pool.connection() as conn:
        assert queue.open_job_status(conn, "helpdesk.sweep") == "todo"
    tasks.work(wait=False)  # any worker takes it
    with pool.connection() as conn:
        assert queue.open_job_status(conn, "helpdesk.sweep") is None
    deps = process_deps()
    assert service.get_turn(deps, org.bob, row.id).reason == "server_restart"
    assert sweeper.sweep_once(deps)["orphans_aborted"] == 0  # idempotent: nothing left to end


def test_cancel_while_a_tool_is_in_flight_stops_within_two_seconds(org, pool, checkpointer):
    import threading
    import time

    from tests.helpdesk.conftest import local_toolbox, make_deps

    release = threading.Event()

    def slow_toolbox(deps_, org_id, user_id):
        box = local_toolbox(deps_, org_id, user_id)
        box.search_existing_issues = lambda query: (release.wait(8), [])[1]  # a tool that hangs
        return box

    deps = make_deps(pool, checkpointer, toolbox=slow_toolbox)
    outcome: dict = {}
    runner = threading.Thread(
        target=lambda: outcome.update(
            turn=service.start(deps, org.bob, "The shredder on floor 4 jams, only me, since today, no error")
        )
    )
    runner.start()
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not latest_turn(pool, org).kind == "working":
            time.sleep(0.05)
        session_id = latest_turn(pool, org).session_id
        clicked = time.monotonic()
        cancelled = service.abort(deps, org.bob, session_id)
        runner.join(10)
        stopped_after = time.monotonic() - clicked
    finally:
        release.set()
    assert cancelled.kind == "aborted" and cancelled.reason == "user_cancelled"
    assert not runner.is_alive() and stopped_after < 2.0, stopped_after
    assert outcome["turn"].reason == "user_cancelled"
    with pool.connection() as conn:
        row = sessions.get_session(conn, org.org.id, org.bob.id, session_id)
    assert (row.status, row.outcome, row.abort_reason) == ("done", "aborted", "user_cancelled")


def test_a_finished_session_is_rated_by_its_owner_only_and_staff_see_the_rate(org, deps, pool):
    turn = service.start(deps, org.bob, "Oracle Financials returns 403 on budget reports")
    linked = service.resume(deps, org.bob, turn.session_id, question_id=turn.question_id, action="link")
    for code, call in (
        ("not_found", lambda: service.rate(deps, org.ana, linked.session_id, True)),  # someone else's
        ("not_found", lambda: service.rate(deps, org.bob, uuid.uuid4(), True)),
    ):
        with pytest.raises(HelpdeskError) as refused:
            call()
        assert refused.value.code == code
    assert latest_turn(pool, org).helpful is None
    service.rate(deps, org.bob, linked.session_id, False)
    service.rate(deps, org.bob, linked.session_id, True)  # a second answer replaces the first
    assert latest_turn(pool, org).helpful is True and latest_turn(pool, org).rateable

    running = service.start(deps, org.bob, "The projector in room D does not turn on")
    with pytest.raises(HelpdeskError) as unfinished:
        service.rate(deps, org.bob, running.session_id, True)
    assert unfinished.value.code == "not_rateable" and "finished" in str(unfinished.value)
    service.abort(deps, org.bob, running.session_id)
    with pytest.raises(HelpdeskError):  # stopped: nothing was offered to rate
        service.rate(deps, org.bob, running.session_id, False)

    from agents.helpdesk import admin

    helpful = {h["outcome"]: h for h in admin.dashboard(deps, org.admin)["helpful"]}
    assert helpful["linked"]["answered"] >= 1 and helpful["linked"]["helpful"] >= 1
    assert set(helpful) == {"resolved_by_agent", "linked", "filed"}
