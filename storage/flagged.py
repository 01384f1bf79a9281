"""Passages held back at ingestion because they read like instructions (core/instructions.py)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING
from uuid import UUID

import psycopg
from psycopg.rows import class_row

if TYPE_CHECKING:
    from storage.documents import NewChunk


@dataclass(frozen=True)
class FlaggedPassage:
    document_id: UUID
    document_title: str
    heading: str
    page: int | None
    family: str
    text: str


def record(
    conn: psycopg.Connection, org_id: UUID, document_id: UUID, passages: Sequence[dict], chunks: Sequence[NewChunk]
) -> None:
    """Replace the document's flagged passages ({heading, page, family, text, near}); mark the chunks
    they were taken from (those holding the text that stood ``near`` them)."""
    near = [passage["near"] for passage in passages if passage.get("near")]
    flagged_positions = [c.position for c in chunks if any(text in c.content for text in near)]
    conn.execute(
        "DELETE FROM flagged_passages WHERE org_id = %(org)s AND document_id = %(doc)s",
        {"org": org_id, "doc": document_id},
    )
    with conn.cursor() as cur:
        cur.executemany(
            """INSERT INTO flagged_passages (org_id, document_id, heading, page, family, text)
               VALUES (%(org)s, %(doc)s, %(heading)s, %(page)s, %(family)s, %(text)s)""",
            [
                {
                    "org": org_id,
                    "doc": document_id,
                    "heading": p["heading"],
                    "page": p["page"],
                    "family": p["family"],
                    "text": p["text"],
                }
                for p in passages
            ],
        )
    if flagged_positions:
        conn.execute(
            """UPDATE document_chunks SET flagged = true
                        WHERE org_id = %(org)s AND document_id = %(doc)s AND position = ANY(%(positions)s)""",
            {"org": org_id, "doc": document_id, "positions": flagged_positions},
        )


def for_org(conn: psycopg.Connection, org_id: UUID) -> list[FlaggedPassage]:
    """Every flagged passage of the organisation's documents, by document title."""
    with conn.cursor(row_factory=class_row(FlaggedPassage)) as cur:
        return cur.execute(
            """SELECT f.document_id, d.title AS document_title, f.heading, f.page, f.family, f.text
               FROM flagged_passages f JOIN documents d ON d.id = f.document_id
               WHERE f.org_id = %(org)s ORDER BY d.title, f.created_at, f.id""",
            {"org": org_id},
        ).fetchall()
