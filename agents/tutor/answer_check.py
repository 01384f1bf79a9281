"""Does a sentence answer the question? The check between retrieval and the answer (issue 29).

Retrieval finds the passages nearest a question even when none answers it ("¿Qué hay de menú hoy en
la cantina?" retrieves the onboarding guide's first day). A sentence answers when
- it is a statement of the document, not its front matter (a "Code · Version · Owner" title block, an
  italic source line, a list's lead-in ending in ":");
- it holds the kind of fact asked: when → a date or period, how many/how much → a figure, who → a
  role or person, can I / is it allowed → a permission or rule;
- it covers the question's key terms: the same stem ("vacaciones" ~ "vacación"), or a word the
  bundled multilingual model puts next to it ("regalo" ~ "gift", "gimnasio" ~ "gym"), so a Spanish
  question is answered by an English sentence and the other way round;
- or, when an employee's own words cover too few of them, its latent terms (agents/tutor/latent_terms.py) match
  the question's clearly better than any other judged sentence's do, or it forbids the thing a "can I…?" names
  (agents/tutor/prohibition.py).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from agents.offline import answer_candidates, detect_language, item_lead_ins, sentence_vectors, split_sentences
from agents.retrieval.passages import Passage
from agents.tutor.fact_kinds import asked_kind, holds_kind
from agents.tutor.key_terms import coverage, key_terms
from agents.tutor.latent_terms import latent_similarity
from agents.tutor.prohibition import PROHIBITION_TOP, forbids_the_thing
from core import glossary
from core.text import content_words, fold

if TYPE_CHECKING:
    from agents.runtime.deps import Embedder

# Which sentences are judged: the CHECK_TOP best answers by answers' ranking (similarity to the question,
# the kind of fact asked, the passage's retrieval score). One of them answers when it holds the kind of
# fact asked and covers MIN_COVERAGE of the question's key terms: the same stem, or a word the glossary
# (core.glossary) gives for it in either language, in the sentence, its heading, its list's lead-in or
# the document's title; a term the glossary doesn't know counts when the multilingual model puts a word of
# the sentence at EQUIVALENT_WORDS (agents/tutor/key_terms.py). How each figure was tuned on the train split
# of seeds/eval/answers, and what was tried and not kept: seeds/eval/answers/TUNING.md.
CHECK_TOP = 8
MIN_COVERAGE = 0.6
MIN_COVERAGE_TRANSLATED = 0.4  # a sentence in the other language: a glossary pairs fewer words than a stem
TRANSLATED_TOP = 2  # ... and only among the best two answers; below them it is held to MIN_COVERAGE
# Once one passes, a sentence of its document ranked in the first LEAD_TOP covering more key terms leads instead,
# judged or not: the judged window limits what may answer, not which of a document's sentences says it best
LEAD_TOP = 12  # train replay (session 24): 16 the same answers, 24 two more changed for the worse
KIND_BONUS = 0.03
OWN_FIGURE = ("amount", "length")  # how many/how much/how long: the figure is in the sentence, not its heading
RETRIEVAL_WEIGHT = 2.0
# A sentence beside the lead must cover PAD_COVERAGE of the key terms itself; a sentence in the other
# language with the lead's figures and SAME_FACT_COVERAGE of its words said is the same fact again.
PAD_COVERAGE = 0.5
# Another document's sentence beside the answer covers PAD_COVERAGE_OTHER_DOCUMENT (session 13, train figures
# unchanged: it drops the TTS laundry rule after Acme's lunch limit and a lodging-tax line after the London hotel).
PAD_COVERAGE_OTHER_DOCUMENT = 0.75
SAME_FACT_COVERAGE = 0.5
# The second way to pass (agents/tutor/latent_terms.py): the best latent-term match leads every other judged
# sentence by LATENT_LEAD and covers LATENT_COVERAGE of the key terms (session 17, train: facts 0.694 -> 0.709,
# 4 of the 7 gained in an employee's words; false grounding unchanged; TUNING.md).
LATENT_LEAD = 0.08
LATENT_MATCH = 0.2  # and matches at least this well on its own: a lone sentence leads nothing
LATENT_COVERAGE = 0.35  # more than a third: "the company VPN app's name" is not answered by what a VPN is
LATENT_JUDGED = 8  # the first judged only: each new sentence costs a forward pass (6: a false grounding more)

_FRONT_MATTER = re.compile(r"·.*·")  # "Document code: HR-ONB-001 · Version 2.0 · Owner: …"
_ITALIC_LINE = re.compile(r"^\s*\*[^*\s].*\*\s*$")
_ABOUT_THE_DOCUMENT = re.compile(
    r"\b(attribution|atribucion|licen[cs]e|licencia|table of contents|contents|indice|"
    r"sources?|fuentes?|references|referencias|change log|historial de cambios)\b"
)

# "This guide tells you what happens in your first weeks, what you need to do…": the document describing itself
# says what it covers, not what it says: front matter ("What must I do before my first day?" opened with it). Until
# the organisation's name was no key term, it had to be judged: the CEO question passed on the sentence after it.
_DESCRIBES_ITSELF = re.compile(
    r"^(this|these|este|esta|estos|estas) (guide|policy|document|handbook|manual|page|section|chapter|guia|"
    r"politica|documento|pagina|seccion|capitulo|apartado)s? (tells you|provides an overview|gives an overview|"
    r"outlines|explains|describes|summari[sz]es|covers|te cuenta|te explica|explica|describe|resume|recoge|"
    r"ofrece una vision general)\b"
)

_URL = re.compile(r"`?\b(?:https?://|www\.)\S+")
_POINTING = re.compile(
    r"\b(faq|preguntas frecuentes|frequently asked|translations?|traducciones|disponible en|available at|"
    r"adaptation|adaptacion|inspired|inspirad[ao]s?)\b"
)
POINTER_WORDS = 6  # a line with a URL and fewer words beside it points elsewhere

_FIGURE = re.compile(r"\d+(?:[.,]\d+)*")
_NUMBERING = re.compile(r"(^|>)\s*(\d+(\.\d+)*\.?|[A-Z]\.)\s")


_THE_COURSE = re.compile(r"\b(este|esta|el|la|del|this|the) (curso|leccion|modulo|tema|course|lesson|module|topic)\b")


def about_the_course(question: str) -> bool:
    """ "What matters most in this course?": asked about the course in view, which answers it whole."""
    return bool(_THE_COURSE.search(fold(question)))


def front_matter(sentence: str, section: str = "") -> bool:
    """A title block, a source line, a list's lead-in, a line pointing to a web page, the document describing
    itself, or anything under an attribution or contents heading: never an answer on its own."""
    return bool(
        _FRONT_MATTER.search(sentence)
        or pointer(sentence)
        or _ITALIC_LINE.match(sentence)
        or sentence.rstrip().endswith(":")
        or _ABOUT_THE_DOCUMENT.search(fold(section))
        or _DESCRIBES_ITSELF.match(fold(sentence).lstrip())
    )


def pointer(sentence: str) -> bool:
    """A line that sends the reader to a web page ("consulta las FAQ en https://…", "disponible en https://…"):
    a URL beside a FAQ/translation/attribution phrase or beside fewer than POINTER_WORDS words. A chunk can
    run on past its last heading, so the attribution heading is not always there to say so."""
    if not _URL.search(sentence):
        return False
    rest = _URL.sub(" ", sentence)
    return bool(_POINTING.search(fold(rest))) or len(content_words(rest)) < POINTER_WORDS


def statements(passages: list[Passage]) -> tuple[list[tuple[int, str]], list[str]]:
    """The passages' statements that may answer, each with what frames it: its heading, and the lead-in
    of the list it belongs to ("Ejemplos de comportamiento inaceptable:" makes its items a rule)."""
    candidates, contexts, lead_in = [], [], {}
    for passage in passages:
        number, kept = passage.index, {sentence for _, sentence in answer_candidates([(passage.index, passage.text)])}
        offset = 0
        for sentence in split_sentences(passage.text):  # a short lead-in ("Ejemplos de comportamiento
            offset = max(offset, passage.text.find(sentence[:20], offset))  # (a chunk may pack sections)
            section = passage.section_at(offset) or ""
            if sentence.rstrip().endswith(":"):  # inaceptable:") is no statement, but it frames its list
                lead_in[number] = sentence
            if sentence not in kept or front_matter(sentence, section):
                continue
            candidates.append((number, sentence))
            heading = _NUMBERING.sub(" ", section)  # "3.2 Approval limits": no figure of the answer
            contexts.append(f"{heading} {lead_in.get(number, '')}")
    return candidates, contexts


@dataclass(frozen=True)
class Ranked:
    """A statement of the retrieved passages, scored as an answer to the question."""

    number: int  # the passage's [n]
    position: int  # in reading order across the passages
    sentence: str
    score: float
    context: str  # its heading, its list's lead-in and its document's title
    document: str = ""
    lead_in: str = ""  # a list item's: the sentence that says what the list is ("The Password Standard requires:")

    @property
    def as_read(self) -> str:
        """The sentence as a reader takes it: an item after its list's lead-in."""
        return f"{self.lead_in} {self.sentence}".lstrip()


@functools.lru_cache(maxsize=256)
def ranked_sentences(message: str, passages: tuple[Passage, ...], embedder: Embedder) -> tuple[Ranked, ...]:
    """The passages' statements (front matter excluded), best answer first: similarity to the question,
    plus KIND_BONUS for the kind of fact asked (a step is judged, not ranked: the sentences around it say
    what it does), plus RETRIEVAL_WEIGHT times the passage's retrieval score
    (the chunk's vector and BM25: which passage is on the case). Every statement is embedded (the anchor
    of issue 29, similarity alone, beat a selection that embedded nothing); a sentence's vector is kept
    once computed, and the same chunks come back turn after turn. A list item's similarity is the mean of its
    own and of the item read after its list's lead-in ("The Password Standard POL-SEC-004 requires: A minimum
    length of 14 characters."): the item alone lacks what the list is about (session 22, TUNING.md)."""
    candidates, contexts = statements(list(passages))
    if not candidates:
        return ()
    by_index = {p.index: p for p in passages}
    kind = asked_kind(message)
    listed = {p.index: item_lead_ins(p.text) for p in passages}
    lead_ins = [listed[number].get(sentence, "") for number, sentence in candidates]
    query = embedder.embed_query(message)
    alone = sentence_vectors([sentence for _, sentence in candidates], embedder) @ query
    read = [f"{lead_in} {sentence}".lstrip() for lead_in, (_, sentence) in zip(lead_ins, candidates)]
    similarity = (alone + sentence_vectors(read, embedder) @ query) / 2  # an item: alone and after its lead-in
    out = [
        Ranked(
            number,
            position,
            sentence,
            near
            + KIND_BONUS * (kind == "procedure" or holds_kind(f"{sentence} {context}", kind))
            + RETRIEVAL_WEIGHT * (by_index[number].score or 0.0),
            f"{context} {by_index[number].document}",
            by_index[number].document,
            lead_in,
        )
        for position, ((number, sentence), context, near, lead_in) in enumerate(
            zip(candidates, contexts, similarity.tolist(), lead_ins)
        )
    ]
    return tuple(sorted(out, key=lambda r: -r.score))


def answering(message: str, ranked: tuple[Ranked, ...], embedder: Embedder, organisation: str = "") -> Ranked | None:
    """The sentence that answers ``message`` among the CHECK_TOP best of each language: one that holds the kind
    of fact asked and covers MIN_COVERAGE of its key terms (in the sentence or what frames it). Of those in the
    document of the best ranked one (and its sentences in the first LEAD_TOP), the one covering the most key terms
    (the best ranked on a tie): "Is a bank statement accepted as proof of purchase?" is answered by "A bank
    statement alone is not accepted", not by the list of accepted proofs ranked above it; "¿Qué tengo que llevar el
    primer día?" by "Bring your identity document…" (9th), not by the store staff's safety footwear (2nd),
    both under "Before your first day". None when none does. The words of the ``organisation``'s name are no key
    term (key_terms)."""
    kind, terms, language = asked_kind(message), key_terms(message, organisation), _language(message, "")
    specific = [term for term in terms if not glossary.generic(term)]  # what the question is about, not "work"
    judged = _best_of_each_language(ranked, language)

    def covered(rank: int, r: Ranked) -> float | None:
        """Its coverage of the key terms when it passes; None when it doesn't."""
        framed = f"{r.sentence} {r.context}"
        translated = _language(r.sentence, language) != language
        need = MIN_COVERAGE_TRANSLATED if translated and rank < TRANSLATED_TOP else MIN_COVERAGE
        if not holds_kind(r.sentence if kind in OWN_FIGURE else framed, kind):
            return None
        share = coverage(terms, framed, embedder)
        return share if share >= need and (not specific or coverage(specific, framed, embedder) > 0) else None

    at, most = next(
        ((at, share) for at, (rank, r) in enumerate(judged) if (share := covered(rank, r)) is not None), (0, None)
    )
    if most is None:  # a third way: a "can I…?" answered by a rule that forbids the thing it names
        return _by_latent_terms(message, terms, [r for _, r in judged[:LATENT_JUDGED]], embedder) or next(
            (r for _, r in judged[:PROHIBITION_TOP] if forbids_the_thing(message, r.sentence, embedder)), None
        )
    best, first = judged[at][1], judged[at][0]
    # its rivals: the judged sentences after it, and those ranked in the first LEAD_TOP though not judged
    rivals = dict(judged[at + 1 :]) | {rank: r for rank, r in enumerate(ranked[:LEAD_TOP]) if rank > first}
    for rank in sorted(rivals) if most < 1 else ():
        r = rivals[rank]
        if r.document == best.document and (share := covered(rank, r)) is not None and share > most:
            best, most = r, share
    return best


def _by_latent_terms(message: str, terms: list[str], judged: list[Ranked], embedder: Embedder) -> Ranked | None:
    """The second way to pass, when no judged sentence covers the key terms (an employee's own words: "¿hasta
    cuánto puede costar el hotel?" for "El precio máximo por noche de hotel… 180 EUR en Londres"): the sentence
    whose latent terms match the question's best, at LATENT_MATCH and by LATENT_LEAD over every other judged
    one, holding the kind of fact asked and LATENT_COVERAGE of the key terms, one of them specific. A neighbour
    topic matches as well as the answer does (the canteen's hours for its menu): the lead is what counts."""
    similarity = latent_similarity(message, [r.sentence for r in judged])
    if not similarity:
        return None
    best = int(np.argmax(similarity))
    others = similarity[:best] + similarity[best + 1 :]
    if similarity[best] < LATENT_MATCH or similarity[best] - max(others, default=0.0) < LATENT_LEAD:
        return None
    r, kind = judged[best], asked_kind(message)
    framed, specific = f"{r.sentence} {r.context}", [term for term in terms if not glossary.generic(term)]
    holds = holds_kind(r.sentence if kind in OWN_FIGURE else framed, kind)
    covered = coverage(terms, framed, embedder) >= LATENT_COVERAGE
    return r if holds and covered and (not specific or coverage(specific, framed, embedder) > 0) else None


def _best_of_each_language(ranked: tuple[Ranked, ...], language: str) -> list[tuple[int, Ranked]]:
    """The CHECK_TOP best sentences of each language, in ranking order, each with its rank among all:
    a sentence in the question's language scores higher, and the first CHECK_TOP of one list were all
    Spanish for a Spanish question whose answer is in an English document."""
    seen: dict[str, int] = {}
    out = []
    for rank, r in enumerate(ranked):
        own = _language(r.sentence, language)
        seen[own] = seen.get(own, 0) + 1
        if seen[own] <= CHECK_TOP:
            out.append((rank, r))
    return out


def adds_to_answer(message: str, extra: Ranked, chosen: list[Ranked], embedder: Embedder) -> bool:
    """Whether ``extra`` belongs beside the sentences ``chosen`` for the answer: it holds the kind of fact
    asked (beside a step, the sentence that goes on with it: "It sends the message to the security team"), and
    either follows or precedes a chosen sentence of its passage or covers PAD_COVERAGE of the question's key
    terms in its own words (a sentence of another section that shares a heading word is padding: a flights
    rule beside the holiday answer); and it does not repeat a chosen sentence's fact from the other language
    version of a document."""
    kind = asked_kind(message)
    beside = any(  # the sentence before or after, under the same heading (the next section's first is no sequel)
        c.number == extra.number and abs(c.position - extra.position) == 1 and c.context == extra.context
        for c in chosen
    )
    framed = extra.sentence if beside else f"{extra.sentence} {extra.context}"
    return (
        (beside and kind == "procedure" or holds_kind(framed, kind))
        and (beside or coverage(key_terms(message), extra.as_read, embedder) >= _pad_bar(extra, chosen))
        and not any(same_fact(extra.sentence, c.sentence, embedder) for c in chosen)
    )


def _pad_bar(extra: Ranked, chosen: list[Ranked]) -> float:
    """PAD_COVERAGE beside a sentence of the same document; PAD_COVERAGE_OTHER_DOCUMENT from another one."""
    return PAD_COVERAGE if any(c.document == extra.document for c in chosen) else PAD_COVERAGE_OTHER_DOCUMENT


def same_fact(one: str, other: str, embedder: Embedder) -> bool:
    """Two sentences stating one fact: the same words (one fact copied into several documents), or, in
    different languages (the Spanish and English versions of a policy), the shorter one's figures are in
    the other and SAME_FACT_COVERAGE of the words of one of them are said in the other (through the glossary)."""
    if fold(" ".join(one.split())) == fold(" ".join(other.split())):
        return True
    if _language(one, "") == _language(other, ""):
        return False
    short, long = sorted((one, other), key=len)
    if not set(_FIGURE.findall(short)) <= set(_FIGURE.findall(long)):
        return False
    return any(
        coverage(list(dict.fromkeys(content_words(a))), b, embedder) >= SAME_FACT_COVERAGE
        for a, b in ((one, other), (other, one))
    )


@functools.lru_cache(maxsize=4096)
def _language(text: str, default: str) -> str:
    return detect_language(text, default=default)


def answers_question(message: str, passages: tuple[Passage, ...], embedder: Embedder, organisation: str = "") -> bool:
    """Whether one of the passages' best sentences answers ``message`` (asked in the ``organisation``): the gate
    between retrieval and the answer."""
    return answering(message, ranked_sentences(message, passages, embedder), embedder, organisation) is not None
