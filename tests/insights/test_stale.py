"""Stale lessons: changing one paragraph of a demo document and re-ingesting it flags exactly the
lessons and exercises citing it; regenerating the module (after review) clears the flags; keeping
is recorded; learners see a note; the tutor cites only passages that exist."""

from __future__ import annotations

import json

import pytest

from agents.content import stale
from agents.content.__main__ import main as content_cli
from agents.ingestion.pipeline import ingest_file
from core.turns import Citations
from seeds.loader import DOCUMENTS
from storage import audit, documents, sources
from storage.users import get_user_by_email
from tests.conftest import make_deps

OLD = "within 30 days of purchase for a full refund"
NEW = "within 45 days of purchase for a full refund"


def _citers(conn, chunk_id) -> set[tuple[str, str]]:
    rows = conn.execute(
        """SELECT 'lesson', id::text FROM lessons WHERE %(c)s = ANY(source_chunk_ids)
                           UNION SELECT 'exercise', id::text FROM exercises WHERE %(c)s = ANY(source_chunk_ids)""",
        {"c": chunk_id},
    ).fetchall()
    return {tuple(r) for r in rows}


def _dangling(conn) -> int:
    return conn.execute("""SELECT count(*) FROM (SELECT unnest(source_chunk_ids) AS c FROM lessons
                                                 UNION ALL SELECT unnest(source_chunk_ids) FROM exercises) refs
                           WHERE NOT EXISTS (SELECT 1 FROM document_chunks d WHERE d.id = refs.c)""").fetchone()[0]


@pytest.fixture(scope="module")
def changed(seeded_pool, admin, tmp_path_factory):
    """returns_policy.md with one paragraph changed, re-ingested; yields who cited that paragraph."""
    with seeded_pool.connection() as conn:
        doc = documents.find_by_source_name(conn, admin.org_id, "returns_policy.md")
        chunk = next(c for c in documents.document_chunks(conn, admin.org_id, doc.id) if OLD in c.content)
        citers = _citers(conn, chunk.id)
        assert _dangling(conn) == 0
    edited = tmp_path_factory.mktemp("docs") / "returns_policy.md"
    edited.write_text((DOCUMENTS / "returns_policy.md").read_text(encoding="utf-8").replace(OLD, NEW), encoding="utf-8")
    result = ingest_file(seeded_pool, admin.org_id, edited, uploaded_by=admin.id)
    assert result.status == "replaced"
    return citers


def _stale_json(capsys) -> list[dict]:
    assert content_cli(["stale", "--org", "acme", "--json"]) == 0
    return json.loads(capsys.readouterr().out)["stale"]


def test_reingest_flags_exactly_what_cites_the_changed_paragraph(changed, seeded_pool, capsys):
    assert len(changed) >= 2 and {kind for kind, _ in changed} == {"lesson", "exercise"}
    flags = _stale_json(capsys)
    assert {(f["type"], f["id"]) for f in flags} == changed
    assert all(f["change"] == "changed" and OLD in f["old_passage"] and NEW in f["new_passage"] for f in flags)
    changed = flags[0]["what_changed"]  # only the changed sentence, not the whole passage
    assert len(changed["before"]) == len(changed["after"]) == 1
    assert OLD in changed["before"][0] and NEW in changed["after"][0]
    with seeded_pool.connection() as conn:
        assert _dangling(conn) == 0  # unchanged and changed passages: references moved to the new ids


@pytest.mark.parametrize(
    "email, words",
    [
        ("admin@acme.test", ("Lecciones cuyas fuentes cambiaron", "Regenerar este módulo")),
        ("oliver@acme.test", ("Lessons whose sources changed", "Regenerate this module")),
    ],
)
def test_the_studio_shows_old_and_new_passages(changed, seeded_pool, email, words):
    from tests.apptest import open_page, texts

    with seeded_pool.connection() as conn:
        user = get_user_by_email(conn, email)
    at = open_page(user, "pages/content_studio.py")
    assert words[0] in texts(at)
    assert any(OLD in e.value for e in at.text) and any(NEW in e.value for e in at.text)  # both versions
    assert any(e.value.startswith("➕") and NEW in e.value for e in at.markdown)  # what changed
    assert [b.label for b in at.button].count(words[1]) == 1


def test_the_same_file_again_flags_nothing_more(changed, seeded_pool, admin, capsys, tmp_path):
    again = tmp_path / "returns_policy.md"
    again.write_text((DOCUMENTS / "returns_policy.md").read_text(encoding="utf-8").replace(OLD, NEW), encoding="utf-8")
    assert ingest_file(seeded_pool, admin.org_id, again).status == "unchanged"
    assert {(f["type"], f["id"]) for f in _stale_json(capsys)} == changed


def test_learners_see_which_lessons_changed(changed, seeded_pool, seeded_deps, admin):
    lesson_ids = {i for kind, i in changed if kind == "lesson"}
    with seeded_pool.connection() as conn:
        james = get_user_by_email(conn, "james@acme.test")
        every = [r[0] for r in conn.execute("SELECT id FROM lessons WHERE org_id = %(o)s", {"o": admin.org_id})]
    flagged = {str(i) for i in stale.stale_lessons(seeded_deps, james, every)}
    assert lesson_ids <= flagged and len(flagged) < len(every)


def test_the_course_player_shows_the_updated_policy_note(changed, seeded_pool):
    from tests.apptest import open_page

    with seeded_pool.connection() as conn:
        james = get_user_by_email(conn, "james@acme.test")
        course_id, lesson_id = conn.execute(
            """SELECT m.course_id, l.id FROM lessons l JOIN modules m ON m.id = l.module_id
               WHERE l.id = ANY(%s::uuid[]) ORDER BY m.position, l.position LIMIT 1""",
            ([i for kind, i in changed if kind == "lesson"],),
        ).fetchone()
    at = open_page(
        james, "pages/course_player.py", learn_course_id=str(course_id), **{f"learn_lesson_{course_id}": lesson_id}
    )
    assert any("Updated policy" in i.value for i in at.info)


def test_regenerating_the_module_clears_its_flags(changed, seeded_pool, seeded_deps, admin, capsys):
    flags = _stale_json(capsys)
    module_id = flags[0]["module_id"]
    draft = stale.draft_regeneration(seeded_deps, admin, module_id)
    assert draft.lessons and draft.engine == "offline"
    assert any(NEW.split(" of ")[0] in lesson["content"] for lesson in draft.lessons)  # written from the new text
    assert not {f["module_id"] for f in _stale_json(capsys)} - {
        f["module_id"] for f in flags
    }  # a draft changes nothing
    stale.apply_regeneration(seeded_deps, admin, draft)
    remaining = _stale_json(capsys)
    assert module_id not in {f["module_id"] for f in remaining}
    with seeded_pool.connection() as conn:
        assert _dangling(conn) == 0
        entry = audit.list_entries(conn, admin.org_id, action="stale.regenerate")[0]
    assert entry.entity_id == module_id and entry.after["flags"] >= 1
    with pytest.raises(stale.StaleError):
        stale.draft_regeneration(seeded_deps, admin, module_id)  # nothing left to regenerate


def test_keep_closes_the_flags_and_is_recorded(changed, seeded_pool, seeded_deps, admin, capsys, tmp_path):
    edited = tmp_path / "returns_policy.md"
    text = (DOCUMENTS / "returns_policy.md").read_text(encoding="utf-8").replace(OLD, NEW)
    edited.write_text(
        text.replace("A bank statement alone is not accepted", "A bank statement alone is never accepted"),
        encoding="utf-8",
    )
    ingest_file(seeded_pool, admin.org_id, edited, uploaded_by=admin.id)
    flags = _stale_json(capsys)
    assert flags and all("never accepted" in f["new_passage"] for f in flags)
    module_id = flags[0]["module_id"]
    assert stale.keep_module(seeded_deps, admin, module_id) >= 1
    assert module_id not in {f["module_id"] for f in _stale_json(capsys)}
    with seeded_pool.connection() as conn:
        assert audit.list_entries(conn, admin.org_id, action="stale.keep")[0].entity_id == module_id


def test_employees_cannot_act_on_flags(changed, seeded_pool, seeded_deps):
    with seeded_pool.connection() as conn:
        james = get_user_by_email(conn, "james@acme.test")
    with pytest.raises(stale.StaleError):
        stale.stale_flags(seeded_deps, james)


def test_the_tutor_cites_only_passages_that_exist(changed, seeded_pool):
    from agents.tutor import service

    with seeded_pool.connection() as conn:
        james = get_user_by_email(conn, "james@acme.test")
    events = list(  # the answer (on his guided course the tutor asks first: "just tell me" is sent for him)
        service.run_to_answer(
            make_deps(seeded_pool), james, "How many days do customers have to return a product for a refund?"
        )
    )
    cited = next(e.citations for e in events if isinstance(e, Citations))
    chunk_ids = [c["source_id"] for c in cited if c["source_type"] == "document_chunk"]
    assert chunk_ids
    with seeded_pool.connection() as conn:
        found = sources.chunks_by_id(conn, james.org_id, chunk_ids)
    assert len(found) == len(set(chunk_ids))
