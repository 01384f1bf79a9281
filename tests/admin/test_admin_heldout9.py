"""The admin request set's ninth part (tests/admin/data/admin_requests_heldout9.yaml), held out whole: written in
session 18 before any change to the assistant that session, by a writer who read none of its misses or recent
changes; committed (65c1af4), then measured once on main 0554336 (load 11-13, offline twin): en tool 0.57 (20/35)
args 0.51 (18/35), es tool 0.69 (25/36) args 0.58 (21/36); one English write preview lost a value the request gave,
no Spanish one. The floors sit one request under those; the lost values may not grow. Only the per-language figures
are printed (pytest -s): a slice of one request would tell which missed."""

from __future__ import annotations

from pathlib import Path

from tests.admin import request_set

HELDOUT9 = Path(__file__).parent / "data" / "admin_requests_heldout9.yaml"
FLOORS = {"en": (0.54, 0.48), "es": (0.66, 0.55)}  # (tool, arguments): 19/35, 17/35; 24/36, 20/36
# write previews losing a value the request gave: the English one ("due the last day of this month" read as today)
# was fixed in session 19 by the lead, who read it after the measurement; none may come back
LOST_AT_MOST = {"en": 0, "es": 0}


def test_the_ninth_set_is_what_its_header_says():
    today, requests = request_set.load(HELDOUT9)
    assert today.isoweekday() == 3  # a Wednesday: "by Friday" is two days on, "next Wednesday" seven
    for lang in ("en", "es"):
        mine = [r for r in requests if r.lang == lang]
        assert len(mine) >= 34
        assert any(r.previous for r in mine) and any(not r.calls for r in mine)
        assert any(len(r.calls) == 2 for r in mine)


def test_a_ninth_set_held_out_whole(seeded_pool, admin):
    with seeded_pool.connection() as conn:
        scores, lost = request_set.held_out_figures(conn, admin, HELDOUT9)
    for lang, (tool, arguments) in FLOORS.items():
        s = scores[lang]
        print(f"\nninth set (held out) {lang}: {s}, previews losing a value: {lost[lang]}")
        assert s.n >= 34 and s.tool / s.n >= tool and s.arguments / s.n >= arguments, (lang, str(s))
        assert lost[lang] <= LOST_AT_MOST[lang], lang
