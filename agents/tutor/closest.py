"""Where to read on when no document answers (issue 29): the document a person would open, and the published
course made from it, chosen among the passages the turn retrieved already (a second search cost every refused
turn its CPU, issue 33).

Measured on the train split of seeds/eval/answers (of the answerable questions the tutor refuses, how often the
pointer names the labelled document, English of 82 and Spanish of 79): a search of its own taking the first passage
over the relevance bar in the learner's language, 41 and 19 (Lucía off sick was sent to the customer-service manual,
her USB stick found in the car park to the warehouse safety manual); the turn's best passage whatever its language,
50 and 45; a vote counting each document's passages, 42 and 44; each document's best passage plus TERMS_WEIGHT times
the share of the question's key terms its passages hold (key_terms.coverage by words, nothing embedded), 52 and 49.
A bar on that share points nowhere where the learner's words are her own (the onboarding guide holds none of "me he
puesto mala el lunes"), and an unanswerable question is as often near a document's words as an answerable one: the
nearest document is offered for every refusal with a document retrieved, named as the closest, not as an answer.
"""

from __future__ import annotations

from uuid import UUID

from agents.retrieval.passages import Passage
from agents.tutor.key_terms import coverage, key_terms
from storage import sources
from storage.db import reading

TERMS_WEIGHT = 0.03
_DOCUMENT_KINDS = ("document_chunk", "document")


def _document_text(group: list[Passage]) -> str:
    headings = [heading for p in group for heading in (p.section, *(section for _, section in p.sections))]
    return " ".join([group[0].document, *headings, *(p.text for p in group)])


def closest_document(message: str, passages: list[Passage]) -> Passage | None:
    """The best passage of the document nearest ``message``: each document's best retrieval score plus
    TERMS_WEIGHT times the share of the question's key terms its passages and headings hold; None when no
    passage of a document was retrieved."""
    by_document: dict[str, list[Passage]] = {}
    for passage in passages:
        if passage.source_type in _DOCUMENT_KINDS:
            by_document.setdefault(passage.document, []).append(passage)
    terms = key_terms(message)
    votes = []
    for group in by_document.values():
        best = max(group, key=lambda p: p.score or 0.0)
        votes.append(((best.score or 0.0) + TERMS_WEIGHT * coverage(terms, _document_text(group), None), best))
    return max(votes, key=lambda vote: vote[0])[1] if votes else None


def closest_material(pool, org_id: UUID, message: str, passages: list[Passage], language: str) -> list[dict]:
    """The published course made from the closest document (titled in ``language``), then that document, as
    {kind, id, title}; none when ``closest_document`` finds none."""
    best = closest_document(message, passages)
    if best is None:
        return []
    with reading(pool) as conn:  # one read: no transaction around it
        found = sources.material_of(conn, org_id, best.source_id, language)
    return [{"kind": m.kind, "id": str(m.id), "title": m.title} for m in found]
