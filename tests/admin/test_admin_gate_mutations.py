"""Judge the judge: the plan check (``gate.plan_disagreement``) and the preview, each given planted misreadings of
real requests — a value dropped, a wrong person, a wrong date, a wrong level, a wrong amount — measured per kind.

The reference is the twin's plan of train requests (sets read since, never the held-out seventh); the planted
plan is what a model might send instead. The gate must send every planted write back to the twin's plan, and the
preview built from a planted plan must show that it no longer says what the request said. Run with -s for the
figures."""

from __future__ import annotations

from collections import Counter
from datetime import date, timedelta

import pytest

from agents.admin import twin
from agents.admin.gate import WRITE_TOOLS, plan_disagreement
from agents.admin.resolve import ToolContext
from agents.runtime.deps import process_embedder
from tests.admin import request_set

EMBEDDER = process_embedder()
TRAIN = (request_set.HELDOUT2, request_set.HELDOUT3, request_set.HELDOUT4, request_set.FIXES, request_set.FIXES15)
OTHER_PEOPLE = ("Ana Morales", "Sergio Delgado", "Chloe Evans")
LEVELS = ("low", "medium", "high")


def _planted(args: dict):
    """(kind, planted arguments) for each misreading this write's arguments allow."""
    if deadline := args.get("deadline"):
        yield "dropped value", {k: v for k, v in args.items() if k != "deadline"}
        if deadline != request_set.UNREADABLE and request_set._is_iso(deadline):
            yield "wrong date", {**args, "deadline": (date.fromisoformat(deadline) + timedelta(days=1)).isoformat()}
    for key in ("extend_days", "extend_months"):
        if args.get(key):
            yield "wrong amount", {**args, key: args[key] + 1}
            yield "dropped value", {k: v for k, v in args.items() if k != key}
    if names := args.get("employee_names"):
        other = next(p for p in OTHER_PEOPLE if p not in names)
        yield "wrong person", {**args, "employee_names": [other, *names[1:]]}
        yield "dropped value", {**args, "employee_names": names[:-1]}
    if name := args.get("employee_name"):
        yield "wrong person", {**args, "employee_name": next(p for p in OTHER_PEOPLE if p != name)}
    if level := args.get("level"):
        yield "wrong level", {**args, "level": next(v for v in LEVELS if v != level)}
        yield "dropped value", {k: v for k, v in args.items() if k != "level"}


@pytest.fixture(scope="module")
def planted(seeded_pool, admin):
    """[(kind, request, today, the twin's plan, the planted plan)] over every train write the twin reads right."""
    cases = []
    with seeded_pool.connection() as conn:
        for path in TRAIN:
            today, requests = request_set.load(path)
            for request in requests:
                if not any(tool in WRITE_TOOLS for tool, _ in request.calls):
                    continue
                plan = twin.plan_offline(conn, admin.org_id, request.text, today, EMBEDDER)[0]
                if not request_set.score([request], lambda r, read=plan: read)[request.lang].arguments:
                    continue  # a misread reference would judge nothing
                for n, call in enumerate(plan):
                    if call["tool"] not in WRITE_TOOLS:
                        continue
                    for kind, args in _planted(call["arguments"]):
                        mutated = [*plan[:n], {**call, "arguments": args}, *plan[n + 1 :]]
                        cases.append((kind, request, today, plan, mutated))
    return cases


def test_the_plan_check_sends_every_planted_misreading_back(planted):
    caught, total = Counter(), Counter()
    for kind, _request, _today, plan, mutated in planted:
        total[kind] += 1
        caught[kind] += plan_disagreement(mutated, plan) is not None
    print("\nplan check catches:", {kind: f"{caught[kind]}/{total[kind]}" for kind in sorted(total)})
    assert set(total) >= {"dropped value", "wrong date", "wrong person", "wrong level"}
    assert all(total[kind] >= 3 for kind in total), total
    assert caught == total, {kind: f"{caught[kind]}/{total[kind]}" for kind in total}


def test_the_preview_of_a_planted_plan_shows_the_change(planted, seeded_pool, admin):
    """What the admin reads before confirming: the planted call's preview lacks the value the request said, or
    the tool refuses it (nothing to confirm). Each planted call judged alone."""
    caught, total = Counter(), Counter()
    with seeded_pool.connection() as conn:
        for kind, request, today, plan, mutated in planted:
            if kind == "wrong amount":  # an amount shows as a date moved, read by the deadline tests
                continue
            [n] = [i for i, (was, now) in enumerate(zip(plan, mutated)) if was != now]
            alone = request_set.Request(request.text, request.lang, request.slice, [request.calls[n]])
            ctx = ToolContext(conn, admin.org_id, admin, request.lang, today, EMBEDDER)
            shown: list[str] = []
            lost = request_set.lost_values(ctx, alone, [mutated[n]], shown)
            total[kind] += 1
            caught[kind] += bool(lost) or bool(shown) and all(text.startswith("(refused)") for text in shown)
        conn.rollback()
    print("\npreview shows the misreading:", {kind: f"{caught[kind]}/{total[kind]}" for kind in sorted(total)})
    assert caught == total, {kind: f"{caught[kind]}/{total[kind]}" for kind in total}


def test_a_clean_plan_is_never_sent_back(planted):
    """The other half of judging the judge: each request's own expected calls, sent as a model would send them,
    pass the plan check against the twin's plan (a request whose deadline no parser reads is left out: its
    expected value is a placeholder, not what a model would send)."""
    flagged, total = [], 0
    for request in {request.text: request for _kind, request, _today, _plan, _mutated in planted}.values():
        if any(args.get("deadline") == request_set.UNREADABLE for _tool, args in request.calls):
            continue
        plan = next(plan for _kind, r, _today, plan, _mutated in planted if r is request)
        clean = [{"tool": tool, "arguments": dict(args)} for tool, args in request.calls]
        total += 1
        if plan_disagreement(clean, plan) is not None:
            flagged.append(request.text)
    print(f"\nclean plans sent back: {len(flagged)}/{total}")
    assert total >= 50 and not flagged, flagged
