"""Questions about what the organisation has never written (issue 29). A key term of the question that no
document, heading or title of the organisation holds, in either language (by its first UNWRITTEN_STEM letters,
or a word the glossary gives for it), is evidence the question is about something the company hasn't written
about ("bicicleta"); a term the documents hold but the retrieved sentences don't is retrieval's miss, not an
unanswerable question. The vocabulary is read once per process and organisation, again when its documents
change (storage.corpus.corpus_signature).

Tuned on the train split of seeds/eval/answers (session 13, retrieval cached; 12 of 72 unanswerable questions
answered, false grounding 0.167): any unwritten term caught 5 of them but lost 28 answered questions
(abstention 0.085 -> 0.194; the unwritten words of answerable questions are verbs and forms the documents
don't use: "tarda", "muere", "pasar", "heaviest", "undelivered"). Half the key terms unwritten or more
(UNWRITTEN_SHARE) caught 1 and lost none; at 5 letters it lost "¿Cuántas de mis contraseñas anteriores no
puedo reutilizar?" ("antes" is written, "anteriores" is not)."""

from __future__ import annotations

from uuid import UUID

from agents.retrieval.per_corpus import PerCorpus
from agents.tutor.answer_check import key_terms
from core import glossary
from core.text import fold
from storage import corpus
from storage.db import reading

UNWRITTEN_STEM = 4
UNWRITTEN_SHARE = 0.5

_written_stems: PerCorpus[frozenset[str]] = PerCorpus()


def written_stems(pool, org_id: UUID) -> frozenset[str]:
    """The first UNWRITTEN_STEM letters (folded) of every word the organisation's documents hold."""
    with reading(pool) as conn:
        return _written_stems.get(
            org_id,
            corpus.corpus_signature(conn, org_id),
            lambda: frozenset(fold(word)[:UNWRITTEN_STEM] for word in corpus.vocabulary(conn, org_id)),
        )


def unwritten(terms: list[str], stems: frozenset[str]) -> list[str]:
    """The ``terms`` (folded key terms) that no document holds, nor any word the glossary gives for them."""
    return [term for term in terms if not {s[:UNWRITTEN_STEM] for s in glossary.equivalents(term)} & stems]


def about_the_unwritten(pool, org_id: UUID, message: str) -> bool:
    """Whether UNWRITTEN_SHARE or more of the key terms of ``message`` are in none of the organisation's documents."""
    terms = key_terms(message)
    return bool(terms) and len(unwritten(terms, written_stems(pool, org_id))) >= UNWRITTEN_SHARE * len(terms)
