"""A draft course's exercises edited and deleted in the studio (the walk's trainer found no way to edit one):
the final review's edit, checked the same way, re-reviewed by the course reviewer against the passages the
exercise cites, put in its place and audited; a delete is audited; nothing changes for a refused edit, an
employee, or a published course."""

from __future__ import annotations

import pytest

from agents.content import drafts
from agents.i18n import t
from storage import audit, users
from storage import courses as course_store


def _people(pool):
    with pool.connection() as conn:
        return (
            users.get_user_by_email(conn, "admin@acme.test"),  # Marta, Spanish
            users.get_user_by_email(conn, "oliver@acme.test"),  # English
            users.get_user_by_email(conn, "james@acme.test"),
        )


def test_a_drafts_exercise_is_edited_re_reviewed_and_audited(seeded_pool, seeded_deps):
    deps = seeded_deps
    marta, oliver, james = _people(seeded_pool)
    [draft] = drafts.drafts(deps, marta)
    listed = drafts.draft_exercises(deps, marta, draft.id)
    assert len(listed) == draft.exercises and [x.number for x in listed if x.module == 1][:2] == [1, 2]
    allowance = next(x for x in listed if x.exercise["type"] == "test")
    options = allowance.exercise["content"]["options"]
    assert options[allowance.exercise["content"]["answer"]] == "50 EUR"

    # the right option changed to a figure the policy never states: the reviewer says the answer is not there
    wrong = {"options": [o.replace("50 EUR", "55 EUR") for o in options], "answer": options.index("50 EUR")}
    new_id, findings = drafts.edit_exercise(deps, marta, draft.id, allowance.id, {"content": wrong})
    assert "unanswerable" in {f["code"] for f in findings}, findings
    assert all(f["description"] for f in findings)
    after = {x.id: x for x in drafts.draft_exercises(deps, marta, draft.id)}
    assert allowance.id not in after and after[new_id].exercise["content"] == wrong  # in its place
    assert (after[new_id].module, after[new_id].number) == (allowance.module, allowance.number)
    with seeded_pool.connection() as conn:
        [entry] = audit.list_entries(conn, marta.org_id, action="content.edit_draft_exercise")
    assert entry.actor_id == marta.id and entry.after["content"] == wrong
    assert entry.before["content"]["options"] == options and "unanswerable" in [
        r["code"] for r in entry.after["review"]
    ]

    # put right again (Oliver, in English): the reviewer finds nothing to fix
    back, findings = drafts.edit_exercise(deps, oliver, draft.id, new_id, {"content": allowance.exercise["content"]})
    assert [f for f in findings if f["severity"] in ("critical", "major")] == []

    # refused: an unknown Bloom level, an employee, an exercise no longer live, a published course
    with pytest.raises(drafts.DraftError, match="bloom_level"):
        drafts.edit_exercise(deps, marta, draft.id, back, {"bloom_level": "memorise"})
    with pytest.raises(drafts.DraftError, match="borrador|draft"):
        drafts.edit_exercise(deps, james, draft.id, back, {"prompt": "¿Cuánto?"})
    with pytest.raises(drafts.DraftError, match="^Ese ejercicio ya no está en un curso en borrador"):
        drafts.edit_exercise(deps, marta, draft.id, allowance.id, {"prompt": "¿Cuánto?"})
    assert {x.id for x in drafts.draft_exercises(deps, marta, draft.id)} == (set(after) - {new_id}) | {back}


def test_a_drafts_exercise_is_deleted_and_audited(seeded_pool, seeded_deps):
    deps = seeded_deps
    marta, oliver, james = _people(seeded_pool)
    [draft] = drafts.drafts(deps, marta)
    first, *rest = drafts.draft_exercises(deps, marta, draft.id)
    with pytest.raises(drafts.DraftError):
        drafts.delete_exercise(deps, james, draft.id, first.id)
    assert drafts.delete_exercise(deps, oliver, draft.id, first.id) == (
        "The exercise was deleted from «Business Expenses and Travel»."
    )
    assert [x.id for x in drafts.draft_exercises(deps, marta, draft.id)] == [x.id for x in rest]
    assert drafts.drafts(deps, marta)[0].exercises == len(rest)
    with pytest.raises(drafts.DraftError, match="no longer in a draft course"):
        drafts.delete_exercise(deps, oliver, draft.id, first.id)
    with seeded_pool.connection() as conn:
        [entry] = audit.list_entries(conn, marta.org_id, action="content.delete_draft_exercise")
        assert entry.actor_id == oliver.id and entry.before["prompt"] == first.exercise["prompt"]
        course_store.set_course_status(conn, marta.org_id, draft.id, "published")
    with pytest.raises(drafts.DraftError, match="not a draft"):
        drafts.delete_exercise(deps, oliver, draft.id, rest[0].id)


def test_the_saved_line_reads_in_both_languages():
    assert t("content.draft.exercise_saved_findings", "es", n=1, module=1, count=2).endswith("2 hallazgos debajo.")
    assert t("content.draft.exercise_saved", "en", n=1, module=1).startswith("Exercise 1 of module 1 saved.")
