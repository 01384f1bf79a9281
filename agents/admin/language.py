"""The language an admin's message is answered in: the one it was written in, judged without the organisation's
names in it, Spanish or English only."""

from __future__ import annotations

import re
from uuid import UUID

import psycopg

from agents.admin.names import EMAIL, words
from agents.offline import detect_language
from core.names import fold
from storage import courses as course_store
from storage import skills as skill_store
from storage import users as user_store


def reply_language(conn: psycopg.Connection, org_id: UUID, message: str, default: str) -> str:
    """The language the admin wrote in, judged without the names in it ("asigna Returns and Refunds
    Essentials a James" is Spanish); only Spanish or English, else the admin's own language."""
    text = message
    titles = [c.title for c in course_store.list_course_summaries(conn, org_id)]
    titles += [name for skill in skill_store.list_skills(conn, org_id) for name in skill.all_names()]
    for title in sorted(titles, key=len, reverse=True):
        text = re.sub(re.escape(title), " ", text, flags=re.IGNORECASE)
    name_words = {w for p in user_store.list_employees(conn, org_id) for w in words(p.full_name)}
    text = " ".join(w for w in re.split(r"\s+", EMAIL.sub(" ", text)) if fold(w.strip("¿?¡!.,;:'’")) not in name_words)
    lang = detect_language(text, default=default)
    return lang if lang in ("es", "en") else default
