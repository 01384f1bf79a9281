"""Each hint moves one level on from where the learner started (spec 003's graded hints)."""

from __future__ import annotations

from agents.learning import service as learning
from agents.tutor.adapt import exercise_level
from tests.conftest import make_deps


def test_each_hint_given_moves_one_level_on_from_where_the_learner_started(seeded_pool, james):
    """James got the jacket dialogue wrong once, so his first hint is the second level ("where to look"); asking
    for another gave him the second again, word for word (session 16's walk). It gives the third."""
    with seeded_pool.connection() as conn:
        [exercise] = conn.execute("SELECT id FROM exercises WHERE prompt LIKE 'A customer wants to return a jacket%'")
    deps = make_deps(seeded_pool)
    assert [exercise_level(seeded_pool, james.org_id, james.id, exercise[0], given) for given in (0, 1, 2)] == [1, 2, 3]
    learning.open_exercise(deps, james, exercise[0])
    learning.submit_answer(deps, james, exercise[0], [0], "jacket-wrong-once")  # the cash refund: wrong
    assert [exercise_level(seeded_pool, james.org_id, james.id, exercise[0], given) for given in (0, 1, 2)] == [2, 3, 3]
