"""The demo's tutor history: questions on topics no document covers, answered from general knowledge.

They give the Knowledge gaps page something to show on first start (seeds/data/tutor_questions.yaml).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path
from uuid import UUID

import psycopg

from agents.tutor.service import session_title
from seeds.courses import load_yaml
from storage import gaps
from storage.users import User

QUESTIONS = Path(__file__).parent / "data" / "tutor_questions.yaml"


def ensure_tutor_questions(conn: psycopg.Connection, org_id: UUID, users: dict[str, User], now: datetime) -> int:
    """Add the questions not yet there; returns how many were added."""
    spec = load_yaml(QUESTIONS)
    added = 0
    for question in spec["questions"]:
        user = users[question["user"]]
        title = session_title(question["text"])  # as the tutor titles a conversation: at a word boundary
        if gaps.tutor_session_titled(conn, org_id, user.id, title):
            continue
        language = user.language
        gaps.record_past_exchange(
            conn,
            org_id,
            user.id,
            title=title,
            question=question["text"],
            answer=spec["answers"][language],
            metadata={
                "rung": "general",
                "intent": "cross_course",
                "engine": "offline",
                "language": language,
                "citations": [],
                "low_confidence": False,
                "hint_mode": False,
            },
            asked_at=now - timedelta(days=question["days_ago"]),
        )
        added += 1
    return added
