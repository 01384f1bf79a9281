"""Knowledge gaps: the tutor questions no document answered, the documents nearest to them, notes.

A gap question is a learner's tutor message about course material (intent in_course/cross_course,
not an open exercise's hint) whose answer fell to the general rung or was low-confidence.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from uuid import UUID

import numpy as np
import psycopg
from psycopg.rows import class_row
from psycopg.types.json import Jsonb

from storage.rows import one_row, scalar


@dataclass(frozen=True)
class GapQuestion:
    message_id: UUID
    user_id: UUID
    department: str | None
    text: str
    language: str | None
    asked_at: datetime


@dataclass(frozen=True)
class NearDocument:
    document_id: UUID
    title: str
    similarity: float


@dataclass(frozen=True)
class GapNote:
    topic: str
    questions: int
    note: str
    created_by: str | None
    created_at: datetime


def gap_questions(
    conn: psycopg.Connection, org_id: UUID, since: timedelta, lang: str | None = None
) -> list[GapQuestion]:
    """Questions of the last ``since`` whose answer (the next assistant message) found no grounding or
    was marked "didn't help" by the learner; the asker's department named in ``lang`` (canonical when None)."""
    with conn.cursor(row_factory=class_row(GapQuestion)) as cur:
        return cur.execute(
            """SELECT q.id AS message_id, s.user_id, department_in(u.org_id, u.department, %(lang)s) AS department,
                      q.content AS text,
                      a.metadata->>'language' AS language, q.created_at AS asked_at
               FROM chat_messages q
               JOIN chat_sessions s ON s.id = q.session_id AND s.agent_type = 'tutor'
               JOIN users u ON u.id = s.user_id
               JOIN LATERAL (SELECT metadata, helpful FROM chat_messages r
                             WHERE r.session_id = q.session_id AND r.role = 'assistant'
                               AND r.created_at > q.created_at
                             ORDER BY r.created_at LIMIT 1) a ON true
               WHERE q.org_id = %(org_id)s AND q.role = 'user'
                 AND q.created_at >= clock_timestamp() - %(since)s
                 AND a.metadata->>'intent' IN ('in_course', 'cross_course')
                 AND NOT coalesce((a.metadata->>'hint_mode')::boolean, false)
                 AND (a.metadata->>'rung' = 'general'
                      OR coalesce((a.metadata->>'low_confidence')::boolean, false)
                      OR a.helpful IS FALSE)
               ORDER BY q.created_at""",
            {"org_id": org_id, "since": since, "lang": lang},
        ).fetchall()


def nearest_documents(conn: psycopg.Connection, org_id: UUID, vector: np.ndarray, k: int = 3) -> list[NearDocument]:
    """The ``k`` documents with a passage closest to ``vector`` (cosine), closest first."""
    with conn.cursor(row_factory=class_row(NearDocument)) as cur:
        return cur.execute(
            """SELECT d.id AS document_id, d.title, max(1 - (c.embedding <=> %(v)s))::float AS similarity
               FROM document_chunks c JOIN documents d ON d.id = c.document_id
               WHERE c.org_id = %(org_id)s
               GROUP BY d.id, d.title ORDER BY similarity DESC LIMIT %(k)s""",
            {"org_id": org_id, "v": np.asarray(vector, dtype=np.float32), "k": k},
        ).fetchall()


def save_note(conn: psycopg.Connection, org_id: UUID, topic: str, questions: int, note: str, created_by: UUID) -> bool:
    """Record (or update) the note on this topic; True when it is new."""
    row = one_row(
        conn.execute(
            """INSERT INTO knowledge_gap_notes (org_id, topic, questions, note, created_by)
           VALUES (%(org_id)s, %(topic)s, %(questions)s, %(note)s, %(by)s)
           ON CONFLICT (org_id, topic) DO UPDATE SET questions = EXCLUDED.questions, note = EXCLUDED.note,
               created_by = EXCLUDED.created_by, created_at = now()
           RETURNING (xmax = 0)""",
            {"org_id": org_id, "topic": topic, "questions": questions, "note": note, "by": created_by},
        )
    )
    return bool(row[0])


def list_notes(conn: psycopg.Connection, org_id: UUID) -> list[GapNote]:
    with conn.cursor(row_factory=class_row(GapNote)) as cur:
        return cur.execute(
            """SELECT n.topic, n.questions, n.note, u.full_name AS created_by, n.created_at
               FROM knowledge_gap_notes n LEFT JOIN users u ON u.id = n.created_by
               WHERE n.org_id = %(org_id)s ORDER BY n.created_at DESC""",
            {"org_id": org_id},
        ).fetchall()


def tutor_session_titled(conn: psycopg.Connection, org_id: UUID, user_id: UUID, title: str) -> bool:
    """Whether this user already has a tutor conversation with this title (idempotent demo seeding)."""
    return scalar(
        conn,
        """SELECT EXISTS (SELECT 1 FROM chat_sessions WHERE org_id = %(org_id)s AND user_id = %(user_id)s
                          AND agent_type = 'tutor' AND title = %(title)s)""",
        {"org_id": org_id, "user_id": user_id, "title": title},
    )


def record_past_exchange(
    conn: psycopg.Connection,
    org_id: UUID,
    user_id: UUID,
    *,
    title: str,
    question: str,
    answer: str,
    metadata: dict,
    asked_at: datetime,
) -> None:
    """One tutor conversation (a question and its answer) dated in the past: the demo's history."""
    session_id = scalar(
        conn,
        """INSERT INTO chat_sessions (org_id, user_id, agent_type, title, created_at, updated_at)
           VALUES (%(org_id)s, %(user_id)s, 'tutor', %(title)s, %(at)s, %(at)s) RETURNING id""",
        {"org_id": org_id, "user_id": user_id, "title": title, "at": asked_at},
    )
    conn.execute(
        """INSERT INTO chat_messages (org_id, session_id, role, content, metadata, created_at)
           VALUES (%(org_id)s, %(session)s, 'user', %(question)s, '{}', %(at)s),
                  (%(org_id)s, %(session)s, 'assistant', %(answer)s, %(metadata)s, %(at)s + interval '2 seconds')""",
        {
            "org_id": org_id,
            "session": session_id,
            "question": question,
            "answer": answer,
            "metadata": Jsonb(metadata),
            "at": asked_at,
        },
    )
