"""The admin request set's tenth part (tests/admin/data/admin_requests_heldout10.yaml), held out whole: written in
session 19 before any change to the assistant that session, by a writer who read none of its misses or recent
changes; committed (a75da7f), then measured once on main a75da7f (load 8-10, offline twin): en tool 0.59 (24/41)
args 0.51 (21/41), es tool 0.69 (29/42) args 0.57 (24/42); two English write previews and three Spanish ones lost a
value the request gave (a "?" deadline counts whenever a preview was built). The floors sit one request under those;
the lost values may not grow. Only the per-language figures are printed (pytest -s): a slice of one request would
tell which missed."""

from __future__ import annotations

from pathlib import Path

from tests.admin import request_set

HELDOUT10 = Path(__file__).parent / "data" / "admin_requests_heldout10.yaml"
FLOORS = {"en": (0.56, 0.48), "es": (0.66, 0.54)}  # (tool, arguments): 23/41, 20/41; 28/42, 23/42
# write previews losing a value the request gave: after admin8's once-measured after-figure (097ed2b: unchanged),
# the lead read the five and fixed three classes ("EOW" read as no deadline; "medium… bueno no, en high" kept medium;
# "cuanto antes" previewed with no deadline, now asked for a date); left: a two-step request whose read leaks
# "experts" into the write's level, a person named by her job ("la jefa de turno del almacén") resolved to another
LOST_AT_MOST = {"en": 1, "es": 1}


def test_the_tenth_set_is_what_its_header_says():
    today, requests = request_set.load(HELDOUT10)
    assert today.isoweekday() == 1  # a Monday: "Friday" / "EOW" is four days on, "next Monday" seven
    for lang in ("en", "es"):
        mine = [r for r in requests if r.lang == lang]
        assert len(mine) >= 40
        assert any(r.previous for r in mine) and any(not r.calls for r in mine)
        assert any(len(r.calls) == 2 for r in mine)


def test_a_tenth_set_held_out_whole(seeded_pool, admin):
    with seeded_pool.connection() as conn:
        scores, lost = request_set.held_out_figures(conn, admin, HELDOUT10)
    for lang, (tool, arguments) in FLOORS.items():
        s = scores[lang]
        print(f"\ntenth set (held out) {lang}: {s} ({s.tool}, {s.arguments} of {s.n}), lost values: {lost[lang]}")
        assert s.n >= 40 and s.tool / s.n >= tool and s.arguments / s.n >= arguments, (lang, str(s))
        assert lost[lang] <= LOST_AT_MOST[lang], lang
