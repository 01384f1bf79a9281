"""Where to read on when no document answers (issue 29): the document a person would open, and the published
course made from it, chosen among the passages the turn retrieved already (a second search cost every refused
turn its CPU, issue 33).

Measured on the train split of seeds/eval/answers (of the answerable questions the tutor refuses, how often the
pointer names the labelled document, English of 82 and Spanish of 79): a search of its own taking the first passage
over the relevance bar in the learner's language, 41 and 19 (Lucía off sick was sent to the customer-service manual,
her USB stick found in the car park to the warehouse safety manual); the turn's best passage whatever its language,
50 and 45; a vote counting each document's passages, 42 and 44; each document's best passage plus TERMS_WEIGHT times
the share of the question's key terms its passages hold (key_terms.coverage by words, nothing embedded), 52 and 49.
Session 20 (tutorux9): each key term weighs by how rare it is in the organisation's chunks (its inverse chunk
frequency, ``TermRarity``), so a word many chunks hold ("customer", "phone", "cliente") decides less than one few
do. Refused answerable train questions (950-question train split, s16-s19 wording included: 107 English, 104
Spanish, the labelled document retrieved for 186): every term alike at 0.03, 70 and 64; alike at 0.2, 73 and 63; by
rarity at 0.08-0.3, 75-76 and 64-66 (0.2: 75 and 66). A document's coverage read in the whole document instead of
its retrieved passages: 61-70 and 62-71 (the English travel guide holds nearly every word). Rarity does not rescue a
word no chunk holds ("lunes"): it weighs in every document's share alike.
The passage read first is the chosen document's passage voted the same way on its own text: the answering chunk for
92 of the 141 pointers at the right document (86 by the best retrieval score alone); its section is named only when
it holds SECTION_SHARE of the question's words by weight (of 198 pointers with a section: 87 right of 198 unbarred,
41 of 62 at 0.4), so a section a person would not find it in is named less often.
Session 22 (tutor13, tests/bench/pointer_replay.py on the 321 answerable train questions refused, the labelled
document named for 202): a chunk packs several small sections, and its first heading was named whatever part held
the words ("When is my first performance review?" -> "3. Your first day", a chunk running on into 4 and 5). The part
of the passage holding most of the question's words by weight is named instead, when the whole passage holds
SECTION_SHARE: right 29 of 64 named -> 52 of 71 (tuned older + s16-s18: 23 of 48 -> 42 of 51; s19 + s20: 6 of 16
-> 10 of 20). Gated on that part alone: 48 of 61 (s19 + s20 10 of 16), but the USB stick's "5.3 Removable media"
went unnamed. Among every section of the chosen document (read from the database, no search): 51 of 72; among the
parts of all the document's retrieved passages, voted with their retrieval score: 49 of 63.
Session 23 (tutor17, the same bench, 274 refusals whose labelled document was retrieved): the document was right for
206; of the 68 wrong, 46 had the top passage in another document and 22 the words of the other's passages moving it
away (several retrieved passages of a long document hold more of the words between them). Each document's one
section holding most of the words by weight, among all its sections (read once from the database, DocumentSections),
adds TERMS_WEIGHT times its share: right 206 -> 221 (tuned older + s16-s18: 131 -> 142, 13 gained and 2 lost; s19 +
s20: 75 -> 79, 5 and 1), Lucía off sick reaches the onboarding guide. Among the retrieved passages' sections only:
213 (7 gained, none lost); a score-weighted vote of the passages: 112-136 of 178 tuned; the titles' or headings'
words, or e5 similarity to the title or the document's mean vector: 126-137 (131 before).
A bar on that share points nowhere where the learner's words are her own (the onboarding guide's retrieved passage
holds none of "me he puesto mala el lunes"), and an unanswerable question is as often near a document's words as an
answerable one: the nearest document is offered for every refusal with a document retrieved, named as the closest,
not as an answer.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from uuid import UUID

from agents.retrieval.passages import Passage
from agents.retrieval.per_corpus import PerCorpus
from agents.tutor.answers import passage_language
from agents.tutor.key_terms import key_terms
from core import glossary
from core.text import content_words, fold
from storage import corpus, sources
from storage.db import reading
from storage.documents import Chunk

TERMS_WEIGHT = 0.2
SECTION_SHARE = 0.4  # of the question's words by weight, in the passage whose section is named
_DOCUMENT_KINDS = ("document_chunk", "document")


@dataclass(frozen=True)
class TermRarity:
    """How many of the organisation's ``chunks`` hold each word's stem (or the word whole): ``holding``."""

    chunks: int
    holding: dict[str, frozenset[int]]

    @classmethod
    def of(cls, chunk_words: list[list[str]]) -> TermRarity:
        holding: dict[str, set[int]] = {}
        for number, said in enumerate(chunk_words):
            for key in glossary.held([fold(word) for word in said]):
                holding.setdefault(key, set()).add(number)
        return cls(len(chunk_words), {key: frozenset(numbers) for key, numbers in holding.items()})

    def weight(self, term: str) -> float:
        """log((chunks + 1) / (chunks holding the term or a glossary word for it + 1)): 0 for a word every
        chunk holds; the most for one none does (it weighs in every document's share alike)."""
        held_by = frozenset().union(*(self.holding.get(key, frozenset()) for key in glossary.equivalents(term)))
        return math.log((self.chunks + 1) / (len(held_by) + 1))


_rarities: PerCorpus[TermRarity] = PerCorpus()


def _held(text: str) -> set[str]:
    """The glossary's keys for the text's words: what key_terms.coverage compares a term with (words only)."""
    return glossary.held(list(dict.fromkeys(content_words(text))))


def _share(terms: list[str], held: set[str] | frozenset[str], rarity: TermRarity | None) -> float:
    """The share of the terms' weight a text whose words are ``held`` (``_held``) holds; every term alike with no
    ``rarity``."""
    if not terms:
        return 1.0
    found = [bool(glossary.equivalents(term) & held) for term in terms]
    weights = [rarity.weight(term) if rarity else 1.0 for term in terms]
    if not sum(weights):
        return sum(found) / len(terms)
    return sum(weight for weight, ok in zip(weights, found) if ok) / sum(weights)


def _weighted_share(terms: list[str], text: str, rarity: TermRarity | None) -> float:
    """The share of the terms' weight the text holds (as key_terms.coverage, by words)."""
    return _share(terms, _held(text), rarity)


def _document_text(group: list[Passage]) -> str:
    headings = [heading for p in group for heading in (p.section, *(section for _, section in p.sections))]
    return " ".join([group[0].document, *headings, *(p.text for p in group)])


def _split(heading: str, text: str, starts: list[tuple[int, str]]) -> list[tuple[str, str]]:
    """A passage's sections as (the heading a person looks for, its text): one, or one per heading it packs
    (``starts``: where each begins, with its heading path)."""
    if not starts or starts[0][0] > 0:
        starts = [(0, heading), *starts]
    ends = [start for start, _ in starts[1:]] + [len(text)]
    return [(path.split(" > ")[-1].strip(), text[start:end]) for (start, path), end in zip(starts, ends)]


@dataclass(frozen=True)
class DocumentSections:
    """Each document's sections (a chunk, or each section a chunk packs), as the words their heading and text hold
    (``_held``), by document title: a document's section the turn did not retrieve may hold the question's words."""

    held: dict[str, tuple[frozenset[str], ...]]

    @classmethod
    def of(cls, chunks: list[Chunk]) -> DocumentSections:
        held: dict[str, list[frozenset[str]]] = {}
        for chunk in chunks:
            starts = [(int(offset), path) for offset, path, *_ in chunk.heading_spans or ()]
            for heading, text in _split(chunk.heading, chunk.content, starts):
                held.setdefault(chunk.document_title, []).append(frozenset(_held(f"{heading} {text}")))
        return cls({title: tuple(sections) for title, sections in held.items()})

    def best_share(self, document: str, terms: list[str], rarity: TermRarity | None) -> float:
        """The share of the terms' weight the document's one section holding most of it holds (0: none known)."""
        return max((_share(terms, held, rarity) for held in self.held.get(document, ())), default=0.0)


_sections: PerCorpus[DocumentSections] = PerCorpus()


def corpus_views(pool, org_id: UUID) -> tuple[TermRarity, DocumentSections]:
    """The organisation's TermRarity and DocumentSections, read once a process and again when its documents change:
    one connection and one signature read for both on a refused turn."""
    with reading(pool) as conn:
        signature = corpus.corpus_signature(conn, org_id)
        rarity = _rarities.get(org_id, signature, lambda: TermRarity.of(corpus.chunk_words(conn, org_id)))
        sections = _sections.get(
            org_id, signature, lambda: DocumentSections.of(sources.org_document_chunks(conn, org_id))
        )
    return rarity, sections


def closest_document(
    message: str, passages: list[Passage], rarity: TermRarity | None = None, sections: DocumentSections | None = None
) -> Passage | None:
    """The passage to read first in the document nearest ``message``: each document's best retrieval score plus
    TERMS_WEIGHT times the share of the question's key terms (each weighed by its ``rarity``) its passages and
    headings hold, and again the share its one section holding most of them holds, among all its ``sections``
    (retrieved or not: "I think my PC has a virus" reaches the security policy's incident section); then, within
    it, the passage voted the same way on its own text and headings (its section is named). None when no passage
    of a document was retrieved."""
    by_document: dict[str, list[Passage]] = {}
    for passage in passages:
        if passage.source_type in _DOCUMENT_KINDS:
            by_document.setdefault(passage.document, []).append(passage)
    terms = key_terms(message)
    votes = []
    for document, group in by_document.items():
        best = max(group, key=lambda p: p.score or 0.0)
        held = _weighted_share(terms, _document_text(group), rarity)
        in_one_section = sections.best_share(document, terms, rarity) if sections else 0.0
        votes.append(((best.score or 0.0) + TERMS_WEIGHT * (held + in_one_section), group))
    if not votes:
        return None
    group = max(votes, key=lambda vote: vote[0])[1]
    return max(
        group, key=lambda p: (p.score or 0.0) + TERMS_WEIGHT * _weighted_share(terms, _document_text([p]), rarity)
    )


def section_to_read(message: str, passage: Passage, rarity: TermRarity | None = None) -> str:
    """The heading a person looks for in the passage's document: of the sections the passage packs (a chunk may
    hold several small ones: "3. Your first day" runs on into 4 and 5), the one whose heading and text hold most of
    the question's key terms by weight, named when the whole passage holds SECTION_SHARE of them (a USB stick found
    in the car park: "5.3 Removable media" holds the stick, its neighbour "5.4 Lost or stolen devices" the finding);
    none for a document's title block."""
    terms = key_terms(message)
    parts = _split(passage.section, passage.text, list(passage.sections))
    heading = max(parts, key=lambda part: _weighted_share(terms, f"{part[0]} {part[1]}", rarity))[0]
    held = _weighted_share(terms, _document_text([passage]), rarity)  # words may spread over neighbouring parts
    return heading if held >= SECTION_SHARE and heading != passage.document else ""


def closest_material(pool, org_id: UUID, message: str, passages: list[Passage], language: str) -> list[dict]:
    """The published course made from the closest document (titled in ``language``), then that document, as
    {kind, id, title}, the document with the ``section`` to read first (when its passage holds SECTION_SHARE of
    the question's words by weight) and that passage's ``section_language``; none when ``closest_document``
    finds none."""
    rarity, sections = corpus_views(pool, org_id)
    best = closest_document(message, passages, rarity, sections)
    if best is None:
        return []
    with reading(pool) as conn:  # one read: no transaction around it
        found = sources.material_of(conn, org_id, best.source_id, language)
    where = {"section": section_to_read(message, best, rarity), "section_language": passage_language(best)}
    return [
        {"kind": m.kind, "id": str(m.id), "title": m.title} | (where if m.kind == "document" else {}) for m in found
    ]
