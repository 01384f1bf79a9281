"""A knowledge gap's "draft a lesson" action: a content-studio job on the documents closest to what people
asked (agents/insights/gaps.py finds the gaps; the studio writes the lesson)."""

from __future__ import annotations

from uuid import UUID

from agents.content.service import start_job
from agents.i18n import t
from agents.insights.gaps import GapActionError, GapCluster, check_actionable, lesson_brief
from agents.runtime.deps import AppDeps
from storage import audit, users


def draft_lesson(deps: AppDeps, user: users.User, cluster: GapCluster) -> UUID:
    """Start a content-studio job on the cluster's closest documents, its questions as the brief."""
    check_actionable(user, cluster)
    document_ids = [d["document_id"] for d in cluster.documents[:2]]
    if not document_ids:
        raise GapActionError(t("insights.gaps.no_documents", user.language))
    job_id = start_job(
        deps,
        user,
        document_ids,
        options={
            "origin": "knowledge_gap",
            "topic": cluster.topic,
            "brief": lesson_brief(cluster, user.language),
            "questions": cluster.examples,
        },
    )
    with deps.pool.connection() as conn:
        audit.record(
            conn,
            user.org_id,
            actor_id=user.id,
            action="knowledge_gap.draft_lesson",
            entity_type="generation_job",
            entity_id=job_id,
            before=None,
            after={"topic": cluster.topic, "questions": cluster.questions, "documents": document_ids},
        )
    return job_id
