"""What a re-ingested document changed, and the lessons and exercises that went stale with it.

Re-ingesting replaces a document's chunks (new ids). Each old chunk is paired with the new ones:
the same text -> the references simply move to the new id; a passage under the same heading with
different text (or, failing that, the most similar new passage) -> "changed"; nothing alike ->
"removed". Lessons and exercises that cited a changed or removed passage get an open flag
(``stale_sources``); their references move to the new passage when there is one, so nothing keeps
pointing at a chunk that no longer exists.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

import psycopg
from psycopg.rows import class_row

from storage.documents import Chunk, document_chunks

SIMILAR_ENOUGH = 0.5  # difflib ratio for a passage that moved to another heading to count as the same one


@dataclass(frozen=True)
class ChunkChange:
    old: Chunk
    new: Chunk | None
    kind: str  # same | changed | removed


@dataclass(frozen=True)
class StaleFlag:
    id: UUID
    document_id: UUID
    document_title: str
    course_id: UUID
    course_title: str
    module_id: UUID
    module_title: str
    entity_type: str
    entity_id: UUID
    entity_title: str
    change: str
    old_chunk_id: UUID
    heading: str
    old_content: str
    new_content: str | None
    status: str
    created_at: datetime


def _plain(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def pair_chunks(old: list[Chunk], new: list[Chunk]) -> list[ChunkChange]:
    """Each old chunk with its counterpart among the new ones (each new chunk used once)."""
    by_text: dict[str, list[Chunk]] = {}
    for chunk in new:
        by_text.setdefault(_plain(chunk.content), []).append(chunk)
    used: set[UUID] = set()
    changes: dict[UUID, ChunkChange] = {}
    for chunk in old:
        same = [c for c in by_text.get(_plain(chunk.content), []) if c.id not in used]
        if same:
            used.add(same[0].id)
            changes[chunk.id] = ChunkChange(chunk, same[0], "same")
    for chunk in old:
        if chunk.id in changes:
            continue
        free = [c for c in new if c.id not in used]
        ratio = {c.id: difflib.SequenceMatcher(None, _plain(chunk.content), _plain(c.content)).ratio() for c in free}
        same_heading = [c for c in free if c.heading == chunk.heading]
        best = max(
            same_heading or [c for c in free if ratio[c.id] >= SIMILAR_ENOUGH], key=lambda c: ratio[c.id], default=None
        )
        if best is not None:
            used.add(best.id)
        changes[chunk.id] = ChunkChange(chunk, best, "changed" if best is not None else "removed")
    return [changes[chunk.id] for chunk in old]


def flag_stale_content(conn: psycopg.Connection, org_id: UUID, document_id: UUID, old_chunks: list[Chunk]) -> int:
    """After ``document_id``'s chunks were replaced: move references, flag what cited changed text.

    Returns how many lessons and exercises were flagged."""
    if not old_chunks:
        return 0
    changes = pair_chunks(old_chunks, document_chunks(conn, org_id, document_id))
    flagged = 0
    for change in changes:
        if change.kind != "same":
            flagged += _flag_citers(conn, org_id, document_id, change)
        if change.new is not None:
            _move_references(conn, org_id, change.old.id, change.new.id)
    return flagged


def _flag_citers(conn: psycopg.Connection, org_id: UUID, document_id: UUID, change: ChunkChange) -> int:
    cur = conn.execute(
        """INSERT INTO stale_sources (org_id, document_id, course_id, module_id, entity_type, entity_id, change,
                                      old_chunk_id, heading, old_content, new_chunk_id, new_content)
           SELECT %(org_id)s, %(doc)s, m.course_id, m.id, cited.kind, cited.id, %(change)s, %(old_id)s,
                  %(heading)s, %(old)s, %(new_id)s, %(new)s
           FROM (SELECT 'lesson' AS kind, l.id, l.module_id FROM lessons l
                 WHERE l.org_id = %(org_id)s AND %(old_id)s = ANY(l.source_chunk_ids)
                 UNION ALL
                 SELECT 'exercise', x.id, l.module_id FROM exercises x JOIN lessons l ON l.id = x.lesson_id
                 WHERE x.org_id = %(org_id)s AND %(old_id)s = ANY(x.source_chunk_ids)) cited
           JOIN modules m ON m.id = cited.module_id
           ON CONFLICT (entity_type, entity_id, old_chunk_id) DO NOTHING""",
        {
            "org_id": org_id,
            "doc": document_id,
            "change": change.kind,
            "old_id": change.old.id,
            "heading": change.old.heading,
            "old": change.old.content,
            "new_id": change.new.id if change.new else None,
            "new": change.new.content if change.new else None,
        },
    )
    return cur.rowcount


def _move_references(conn: psycopg.Connection, org_id: UUID, old_id: UUID, new_id: UUID) -> None:
    params = {"org_id": org_id, "old": old_id, "new": new_id, "old_text": str(old_id), "new_text": str(new_id)}
    for table in ("modules", "lessons", "exercises"):
        conn.execute(
            f"""UPDATE {table} SET source_chunk_ids = array_replace(source_chunk_ids, %(old)s, %(new)s)
                         WHERE org_id = %(org_id)s AND %(old)s = ANY(source_chunk_ids)""",
            params,
        )
    conn.execute(
        """UPDATE lessons SET citations = (
               SELECT coalesce(jsonb_agg(CASE WHEN c->>'chunk_id' = %(old_text)s
                                              THEN jsonb_set(c, '{chunk_id}', to_jsonb(%(new_text)s::text))
                                              ELSE c END ORDER BY n), '[]')
               FROM jsonb_array_elements(citations) WITH ORDINALITY AS e(c, n))
           WHERE org_id = %(org_id)s
             AND citations @> jsonb_build_array(jsonb_build_object('chunk_id', %(old_text)s::text))""",
        params,
    )


_FLAG_SELECT = """
    SELECT f.id, f.document_id, d.title AS document_title, f.course_id, c.title AS course_title, f.module_id,
           m.title AS module_title, f.entity_type, f.entity_id,
           coalesce(l.title, x.prompt, '') AS entity_title, f.change, f.old_chunk_id, f.heading, f.old_content,
           f.new_content,
           f.status, f.created_at
    FROM stale_sources f JOIN documents d ON d.id = f.document_id JOIN courses c ON c.id = f.course_id
    JOIN modules m ON m.id = f.module_id
    LEFT JOIN lessons l ON f.entity_type = 'lesson' AND l.id = f.entity_id
    LEFT JOIN exercises x ON f.entity_type = 'exercise' AND x.id = f.entity_id"""


def open_flags(conn: psycopg.Connection, org_id: UUID, *, module_id: UUID | None = None) -> list[StaleFlag]:
    with conn.cursor(row_factory=class_row(StaleFlag)) as cur:
        return cur.execute(
            _FLAG_SELECT
            + """ WHERE f.org_id = %(org_id)s AND f.status = 'open'
                                 AND (%(module)s::uuid IS NULL OR f.module_id = %(module)s)
                               ORDER BY c.title, m.position, f.entity_type DESC, f.created_at""",
            {"org_id": org_id, "module": module_id},
        ).fetchall()


def decide_module(conn: psycopg.Connection, org_id: UUID, module_id: UUID, status: str, decided_by: UUID) -> int:
    """Close the module's open flags as ``kept`` or ``resolved``; returns how many."""
    return conn.execute(
        """UPDATE stale_sources SET status = %(status)s, decided_by = %(by)s, decided_at = now()
           WHERE org_id = %(org_id)s AND module_id = %(module)s AND status = 'open'""",
        {"org_id": org_id, "module": module_id, "status": status, "by": decided_by},
    ).rowcount


def stale_lesson_ids(conn: psycopg.Connection, org_id: UUID, lesson_ids: list[UUID]) -> set[UUID]:
    """Which of these lessons (directly or through one of their exercises) cite a changed source."""
    rows = conn.execute(
        """SELECT DISTINCT coalesce(x.lesson_id, f.entity_id) FROM stale_sources f
           LEFT JOIN exercises x ON f.entity_type = 'exercise' AND x.id = f.entity_id
           WHERE f.org_id = %(org_id)s AND f.status = 'open'
             AND coalesce(x.lesson_id, f.entity_id) = ANY(%(ids)s)""",
        {"org_id": org_id, "ids": list(lesson_ids)},
    ).fetchall()
    return {row[0] for row in rows}


def clear_module_content(conn: psycopg.Connection, org_id: UUID, module_id: UUID) -> int | None:
    """Remove the module's lessons (their exercises go with them) and raise its version, before new
    content is written; returns the new version, None when the module isn't this organisation's."""
    row = conn.execute(
        "UPDATE modules SET version = version + 1 WHERE org_id = %(org_id)s AND id = %(id)s RETURNING version",
        {"org_id": org_id, "id": module_id},
    ).fetchone()
    if row is None:
        return None
    conn.execute(
        "DELETE FROM lessons WHERE org_id = %(org_id)s AND module_id = %(id)s", {"org_id": org_id, "id": module_id}
    )
    return row[0]


def set_lesson_text(conn: psycopg.Connection, org_id: UUID, lesson_id: UUID, content_md: str) -> bool:
    """An admin's hand edit of a flagged lesson's text."""
    return (
        conn.execute(
            "UPDATE lessons SET content_md = %(md)s WHERE org_id = %(org_id)s AND id = %(id)s",
            {"md": content_md, "org_id": org_id, "id": lesson_id},
        ).rowcount
        == 1
    )
