"""The offline twin on the admin request set (issue 32): the held-out half's figures per language, and
no write preview that loses a value the request gave. Run with -s to read the figures and failures."""

from __future__ import annotations

import pytest

from agents.admin import twin
from agents.admin.resolve import ToolContext
from agents.runtime.deps import process_embedder
from tests.admin import request_set

TODAY, REQUESTS = request_set.load()
EMBEDDER = process_embedder()


@pytest.fixture(scope="module")
def plans(seeded_pool, admin):
    with seeded_pool.connection() as conn:
        return {r.text: twin.plan_offline(conn, admin.org_id, r.text, TODAY, EMBEDDER)[0] for r in REQUESTS}


def _report(half: str, scores: dict, *, misses: bool = True) -> None:
    """The figures per language and slice; the misses too, except for a set held out (not read while tuning)."""
    print(f"\n== {half}")
    for key in sorted(scores):
        print(f"{key:20} {scores[key]}")
    for lang in ("en", "es") if misses else ():
        for failure in scores[lang].failures:
            print(f"  [{lang}] {failure}")


def test_the_set_is_broad_and_split_in_two():
    assert len(REQUESTS) >= 200 and {r.lang for r in REQUESTS} == {"en", "es"}
    held_out = [r for r in REQUESTS if r.held_out]
    assert 0.4 < len(held_out) / len(REQUESTS) < 0.6


def test_held_out_accuracy_per_language(plans):
    train = request_set.score([r for r in REQUESTS if not r.held_out], lambda r: plans[r.text])
    held_out = request_set.score([r for r in REQUESTS if r.held_out], lambda r: plans[r.text])
    _report("train", train)
    _report("held-out", held_out)
    for lang in ("en", "es"):
        s = held_out[lang]
        assert s.tool / s.n >= 0.95 and s.arguments / s.n >= 0.9, (lang, str(s), s.failures)


def test_no_preview_loses_a_value_the_request_gave(plans, seeded_pool, admin):
    lost, read = {}, {"en": 0, "es": 0}
    with seeded_pool.connection() as conn:
        for request in (r for r in REQUESTS if r.held_out):
            ctx = ToolContext(conn, admin.org_id, admin, request.lang, TODAY, EMBEDDER)
            shown: list[str] = []
            if missing := request_set.lost_values(ctx, request, plans[request.text], shown):
                lost[request.text] = missing
            if shown and read[request.lang] < 10:  # printed to be read as the admin reads them (pytest -s)
                read[request.lang] += 1
                print(f"\n>>> {request.text}", *shown, sep="\n")
        conn.rollback()
    print(f"\npreviews losing a value: {len(lost)}", *lost.items(), sep="\n  ")
    assert not lost


def test_a_second_held_out_set_written_after_the_changes(seeded_pool, admin):
    """Figures only (no thresholds): new phrasings, never used to tune the twin."""
    today, fresh = request_set.load(request_set.FRESH)
    with seeded_pool.connection() as conn:
        scores = request_set.score(fresh, lambda r: twin.plan_offline(conn, admin.org_id, r.text, today, EMBEDDER)[0])
    _report("fresh", scores)
    assert {"en", "es"} <= set(scores)


def test_the_scoring_catches_planted_defects(plans, seeded_pool, admin):
    """Judge the judge: a planner that drops deadlines, or reads writes as lookups, is caught."""
    dated = [
        r
        for r in REQUESTS
        if any(isinstance(args.get("deadline"), str) and args["deadline"] != "?" for _, args in r.calls)
    ]

    def without_deadline(request):
        return [
            {**c, "arguments": {k: v for k, v in c["arguments"].items() if k != "deadline"}}
            for c in plans[request.text]
        ]

    def as_lookup(request):
        return [
            {"tool": "get_employee_detail", "arguments": {}} if c["tool"] == "assign_course" else c
            for c in plans[request.text]
        ]

    assert all(s.arguments == 0 for key, s in request_set.score(dated, without_deadline).items() if "/" not in key)
    caught = built = 0
    with seeded_pool.connection() as conn:
        for request in dated:
            shown: list[str] = []
            lost = request_set.lost_values(
                ToolContext(conn, admin.org_id, admin, request.lang, TODAY, EMBEDDER),
                request,
                without_deadline(request),
                shown,
            )
            built += any(not text.startswith("(refused)") for text in shown)  # else: "nothing to change"
            caught += bool(lost)
        conn.rollback()
    assert built >= 5 and caught == built
    writes = [r for r in REQUESTS if any(tool == "assign_course" for tool, _ in r.calls)]
    assert all(s.tool == 0 for key, s in request_set.score(writes, as_lookup).items() if "/" not in key)


def _whole_set(pool, admin, path, name: str, *, held_out: bool = False, at_least: int = 60) -> tuple[dict, dict]:
    """A set scored whole (no split): its scores, and the previews that lose a value the request gave. A set
    still held out prints its figures only, never which requests missed."""
    today, requests = request_set.load(path)
    lost = {}
    with pool.connection() as conn:
        plans = {  # a two-turn request is planned with the admin's previous message, as the assistant does
            r.text: twin.plan_offline(conn, admin.org_id, r.text, today, EMBEDDER, r.previous)[0] for r in requests
        }
        for request in requests:
            ctx = ToolContext(conn, admin.org_id, admin, request.lang, today, EMBEDDER)
            if missing := request_set.lost_values(ctx, request, plans[request.text]):
                lost[request.text] = missing
        conn.rollback()
    scores = request_set.score(requests, lambda r: plans[r.text])
    _report(name, scores, misses=not held_out)
    for lang in ("en", "es") if held_out else ():
        print(f"previews losing a value [{lang}]: {sum(r.lang == lang and r.text in lost for r in requests)}")
    if not held_out:
        print(f"\npreviews losing a value: {len(lost)}", *lost.items(), sep="\n  ")
    assert {"en", "es"} <= set(scores) and all(scores[lang].n >= at_least for lang in ("en", "es"))
    return scores, lost


def test_the_third_set_stays_above_what_it_read_unseen(seeded_pool, admin):
    """Written before reading the twin's rules, measured once unseen, then its misses read (it is train now).
    Issue 32 asks tool >= 0.95 and arguments >= 0.9 per language; unseen it read en 0.87/0.83, es 0.86/0.82,
    the floor kept here."""
    scores, lost = _whole_set(seeded_pool, admin, request_set.HELDOUT2, "third set (train since read)")
    assert not lost
    for lang, (tool, arguments) in {"en": (0.87, 0.82), "es": (0.85, 0.81)}.items():
        s = scores[lang]
        assert s.tool / s.n >= tool and s.arguments / s.n >= arguments, (lang, str(s))


def test_the_fourth_set_stays_above_what_it_read_unseen(seeded_pool, admin):
    """Written after the third set's misses were read and before the twin changed for them; measured once
    after those changes (en 0.92/0.90, es 0.93/0.93), then its misses read in session 13 (it is train now)."""
    scores, lost = _whole_set(seeded_pool, admin, request_set.HELDOUT3, "fourth set (train since read)")
    assert not lost
    for lang, (tool, arguments) in {"en": (0.98, 0.98), "es": (0.98, 0.98)}.items():  # 1.00 since read
        s = scores[lang]
        assert s.tool / s.n >= tool and s.arguments / s.n >= arguments, (lang, str(s))


def test_the_fifth_set_stays_above_what_it_read_unseen(seeded_pool, admin):
    """Written in session 13 after the fourth set's misses were read and before the twin changed for them
    (course-status questions, ambiguous course titles, yes/no questions among its slices). Measured before the
    changes: en tool 0.90 args 0.90, es 0.95/0.88, one preview losing a value; once after: en 0.97/0.97,
    es 0.98/0.95, asserted as floors. The one lost value ("para cuando vuelva de vacaciones": a deadline no
    parser reads, dropped) was fixed after the after run. Read in session 14: train since."""
    scores, lost = _whole_set(seeded_pool, admin, request_set.HELDOUT4, "fifth set (train since read)")
    assert not lost
    for lang, (tool, arguments) in {"en": (0.96, 0.96), "es": (0.98, 0.95)}.items():
        s = scores[lang]
        assert s.tool / s.n >= tool and s.arguments / s.n >= arguments, (lang, str(s))


def test_the_requests_fixed_in_session_14(seeded_pool, admin):
    """Train: what admins still got wrong (a department deactivated, "one more week", a person's progress in a
    course, experts, who is behind, a department's alerts, empty courses) and the fifth set's last misses."""
    scores, lost = _whole_set(seeded_pool, admin, request_set.FIXES, "session 14 fixes (train)", at_least=10)
    assert not lost
    assert all(scores[lang].arguments == scores[lang].n for lang in ("en", "es")), scores


def test_the_requests_fixed_in_session_15(seeded_pool, admin):
    """Train: admin3's leftovers — "the beginners at X" (that level only), "one more month", half-published
    (draft) courses, "infosec" / "ciberseguridad" for the information security course, "HR" / "RRHH" — and what
    reading replies to fresh requests found (courses "being written", "algún curso sin terminar")."""
    scores, lost = _whole_set(seeded_pool, admin, request_set.FIXES15, "session 15 fixes (train)", at_least=10)
    assert not lost
    assert all(scores[lang].arguments == scores[lang].n for lang in ("en", "es")), scores


def test_a_sixth_set_held_out_whole(seeded_pool, admin):
    """Written in session 14 before the twin changed for that session's fixes (course nicknames, department-wide
    requests, deadline extensions, a person's progress in a course, people by level, a course's learners who are
    behind, alerts of a department, empty courses); never tuned on, its misses never printed. Measured before the
    changes: en tool 0.78 args 0.60, es 0.78/0.63, one English preview losing a value; once after (main at
    5b30169): en 0.91/0.80, es 0.88/0.88, still one, asserted as floors. Session 15 measured it once before its
    changes (same figures) and once after (main at f40dbe1): en 0.91/0.85, es 0.88/0.88, one — its "infosec"
    was known from session 14's report when the nickname fix was written. Below issue 32's 0.95/0.9: the misses
    are unread (held out), so a next session can read them as train and write a seventh set first."""
    scores, lost = _whole_set(seeded_pool, admin, request_set.HELDOUT5, "sixth set (held out)", held_out=True)
    assert len(lost) <= 1
    for lang, (tool, arguments) in {"en": (0.90, 0.84), "es": (0.87, 0.87)}.items():
        s = scores[lang]
        assert s.tool / s.n >= tool and s.arguments / s.n >= arguments, (lang, str(s))


def test_a_seventh_set_held_out_whole(seeded_pool, admin):
    """Written in session 16 before any change to the twin that session (terse, polite, typos, relative dates, a
    speaker who names themself, overdue extensions, a department's head count and unfinished courses, two-turn
    exchanges whose "it" / "ese curso" points at the previous message); never tuned on, its misses never printed.
    Measured once before the changes (main e1e8a2f): en tool 0.69 args 0.52, es 0.83/0.72, no preview losing a
    value; once after (main c430128): en 0.86/0.76, es 0.90/0.90, none; floors one question under those."""
    scores, lost = _whole_set(
        seeded_pool, admin, request_set.HELDOUT7, "seventh set (held out)", held_out=True, at_least=25
    )
    assert not lost
    for lang, (tool, arguments) in {"en": (0.82, 0.72), "es": (0.86, 0.86)}.items():
        s = scores[lang]
        assert s.tool / s.n >= tool and s.arguments / s.n >= arguments, (lang, str(s))
