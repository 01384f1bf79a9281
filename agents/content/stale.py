"""Stale lessons: the lessons and exercises whose source passages changed when a document was
re-ingested (flagged by ``storage.source_changes``), and the admin's three answers to a flag.

- regenerate: the module is rewritten from the document as it is now, by the pipeline's own module
  writer (model or twin); the admin sees the draft and confirms it before it replaces the module;
- keep: the module stays as it is, and the decision is recorded;
- edit: the admin edits the lesson in the studio, then keeps it.
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from agents.content.context import ContentContext
from agents.content.nodes import build_module
from agents.content.publish import write_module_content
from agents.content.sources import load_sources
from agents.i18n import t
from agents.runtime.deps import AppDeps
from storage import audit, source_changes, users
from storage import lessons as lesson_store
from storage.course_outline import course_document_ids


class StaleError(ValueError):
    """A stale-lesson action that cannot be done; one line in the admin's language."""


@dataclass
class ModuleDraft:
    module_id: UUID
    title: str
    lessons: list[dict]
    exercises: list[dict]
    engine: str


def _admin(user: users.User) -> None:
    if not user.is_admin:
        raise StaleError(t("insights.stale.admins_only", user.language))


def stale_flags(deps: AppDeps, user: users.User) -> list[source_changes.StaleFlag]:
    _admin(user)
    with deps.pool.connection() as conn:
        return source_changes.open_flags(conn, user.org_id)


def report(deps: AppDeps, org_id: UUID) -> list[dict]:
    """The open flags as plain data (``python -m agents.content stale --json``, an operator's report)."""
    with deps.pool.connection() as conn:
        flags = source_changes.open_flags(conn, org_id)
    return [
        {
            "course": f.course_title,
            "course_id": str(f.course_id),
            "module": f.module_title,
            "module_id": str(f.module_id),
            "type": f.entity_type,
            "id": str(f.entity_id),
            "title": f.entity_title,
            "document": f.document_title,
            "section": f.heading,
            "change": f.change,
            "old_passage": f.old_content,
            "new_passage": f.new_content,
            "what_changed": dict(zip(("before", "after"), changed_sentences(f.old_content, f.new_content))),
        }
        for f in flags
    ]


def changed_sentences(old: str, new: str | None) -> tuple[list[str], list[str]]:
    """What changed between two versions of a passage: (sentences gone, sentences new)."""
    split = lambda text: [s for s in re.split(r"(?<=[.!?])\s+|\n+", text or "") if s.strip()]  # noqa: E731
    before, after = split(old), split(new)
    gone, added = [], []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, before, after, autojunk=False).get_opcodes():
        if tag != "equal":
            gone += before[i1:i2]
            added += after[j1:j2]
    return gone, added


def keep_module(deps: AppDeps, user: users.User, module_id: UUID | str) -> int:
    """The admin keeps the module as it is: its flags close as ``kept`` (audited)."""
    _admin(user)
    with deps.pool.connection() as conn:
        closed = source_changes.decide_module(conn, user.org_id, UUID(str(module_id)), "kept", user.id)
        if closed:
            audit.record(
                conn,
                user.org_id,
                actor_id=user.id,
                action="stale.keep",
                entity_type="module",
                entity_id=module_id,
                before=None,
                after={"flags": closed},
            )
    return closed


def edit_lesson(deps: AppDeps, user: users.User, lesson_id: UUID | str, content_md: str) -> None:
    """The admin's own fix of a flagged lesson's text (audited); "keep" then closes the flag."""
    _admin(user)
    text = (content_md or "").strip()
    if not text:
        raise StaleError(t("insights.stale.empty_draft", user.language))
    with deps.pool.connection() as conn:
        if not source_changes.set_lesson_text(conn, user.org_id, UUID(str(lesson_id)), text):
            raise StaleError(t("insights.stale.nothing_to_regenerate", user.language))
        audit.record(
            conn,
            user.org_id,
            actor_id=user.id,
            action="stale.edit",
            entity_type="lesson",
            entity_id=lesson_id,
            before=None,
            after={"chars": len(text)},
        )


def _module(conn, org_id: UUID, module_id: UUID) -> tuple[lesson_store.CourseOutline, lesson_store.ModuleOutline]:
    for flag in source_changes.open_flags(conn, org_id, module_id=module_id)[:1]:
        outline = lesson_store.get_course_outline(conn, org_id, flag.course_id)
        module = next((m for m in outline.modules if m.id == module_id), None) if outline else None
        if outline is not None and module is not None:
            return outline, module
    raise StaleError("module")


def draft_regeneration(deps: AppDeps, user: users.User, module_id: UUID | str) -> ModuleDraft:
    """The module rewritten from its documents as they are now: a draft for the admin to review."""
    _admin(user)
    module_id = UUID(str(module_id))
    with deps.pool.connection() as conn:
        try:
            outline, module = _module(conn, user.org_id, module_id)
        except StaleError:
            raise StaleError(t("insights.stale.nothing_to_regenerate", user.language)) from None
        document_ids = course_document_ids(conn, user.org_id, outline.course.id)
    chunk_ids = list(
        dict.fromkeys(
            [c["chunk_id"] for lesson in module.lessons for c in lesson.citations if c.get("chunk_id")]
            + [str(c) for lesson in module.lessons for x in lesson.exercises for c in x.source_chunk_ids]
        )
    )
    blooms = Counter(x.bloom_level for lesson in module.lessons for x in lesson.exercises)
    spec = {
        "title": module.title,
        "summary": module.summary,
        "position": module.position,
        "themes": [],
        "bloom_level": blooms.most_common(1)[0][0] if blooms else "understand",
        "chunk_ids": chunk_ids,
        "lessons": [
            {"title": lesson.title, "position": lesson.position, "content_type": lesson.content_type}
            for lesson in module.lessons
        ],
    }
    task: dict[str, Any] = {  # a ModuleTask outside any job
        "org_id": user.org_id,
        "module_index": module.position - 1,
        "total": len(outline.modules),
        "module_spec": spec,
        "themes": [],
        "sibling_terms": [],
        "sources": load_sources(deps.pool, user.org_id, document_ids),
        "rag_mode": "full_text",
        "language": outline.course.language,
        "instructions": t("insights.stale.regenerate_instructions", outline.course.language),
    }
    built = build_module(ContentContext(deps.pool, deps.llm, deps), task)
    return ModuleDraft(module_id, module.title, built["lessons"], built["exercises"], built["engine"])


def apply_regeneration(deps: AppDeps, user: users.User, draft: ModuleDraft) -> int:
    """The admin approved the draft: it replaces the module's lessons and exercises, flags resolve."""
    _admin(user)
    if not draft.lessons:
        raise StaleError(t("insights.stale.empty_draft", user.language))
    with deps.pool.connection() as conn, conn.transaction():
        version = source_changes.clear_module_content(conn, user.org_id, draft.module_id)
        if version is None:
            raise StaleError(t("insights.stale.nothing_to_regenerate", user.language))
        write_module_content(conn, user.org_id, draft.module_id, draft.lessons, draft.exercises)
        resolved = source_changes.decide_module(conn, user.org_id, draft.module_id, "resolved", user.id)
        audit.record(
            conn,
            user.org_id,
            actor_id=user.id,
            action="stale.regenerate",
            entity_type="module",
            entity_id=draft.module_id,
            before=None,
            after={
                "version": version,
                "lessons": len(draft.lessons),
                "exercises": len(draft.exercises),
                "engine": draft.engine,
                "flags": resolved,
            },
        )
    return resolved


def stale_lessons(deps: AppDeps, user: users.User, lesson_ids: list[UUID]) -> set[UUID]:
    """Which of these lessons cite a passage that has changed since (for the learner's note)."""
    if not lesson_ids:
        return set()
    with deps.pool.connection() as conn:
        return source_changes.stale_lesson_ids(conn, user.org_id, lesson_ids)
