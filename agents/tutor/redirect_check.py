"""A model's reply to an off-topic message is untrusted output like any other answer (issue 29, session 22): with
SmolLM2-135M, "Tell me a joke" reached the learner as 'A: "How to get a puppy"'. The reply must be the short,
polite way back to work and learning the system prompt asks for; the output gate (gate.py) holds it to that
beside its own checks (empty, loop, timeout), and when it fails the deterministic redirect (answers.off_topic)
replaces it, the turn recording why (``fallback``):

``length`` past REDIRECT_TOKENS · ``language`` not the learner's (judged from three words: a redirect is short) ·
``source_claim`` a citation marker or a claim that a document says something (nothing was retrieved) ·
``echo`` the question repeated back · ``instructions`` the system prompt's own words, or an instruction-like
sentence (core.instructions) · ``no_redirect`` nothing points back to work or learning (the question answered
instead, a transcript continued).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from agents.retrieval.passages import CITATION_MARKER
from agents.tutor.classify import LEARNING_WORDS
from agents.tutor.gate import wrong_language
from core.instructions import instruction_family
from core.text import stems, words

# A redirect is two or three sentences (the good ones of tests/tutor/test_tutor_redirect_check.py: 16-27 tokens; the
# twin's with two long course titles: 59-66); past this it is doing something else. The server's max_tokens too.
REDIRECT_TOKENS = 80
REDIRECT_LANGUAGE_WORDS = 3  # the gate's own check waits for 20 words, more than most redirects have
PROMPT_RUN = 6  # words in a row shared with the system prompt: its text, not a coincidence
ECHO_SHARE = 0.5  # the question is at least this share of the reply's words

# On folded text (no accents, lower case, words split by single spaces).
_SOURCE_CLAIM = re.compile(
    r"\b(according to|as (stated|said|described|explained|set out|written) in|segun (el|la|los|las|nuestr[oa]s?|"
    r"tus?|sus?|mi|mis)|de acuerdo con (el|la|los|las)|tal como (indica|dice|establece|recoge))\b"
    r"|\b(handbook|policy|policies|manual|guide|document|documents|material|rules) (says|say|states|state|"
    r"explains|indicates|requires|forbids|allows)\b"
    r"|\b(manual|politica|guia|documento|documentos|material|normativa) (dice|dicen|indica|establece|explica|"
    r"prohibe|permite)\b"
    r"|\b(source|sources|fuente|fuentes) \d+\b"
)
_OWN_INSTRUCTIONS = re.compile(
    r"\b(my|these) (instructions|rules|guidelines)\b|\b(mis|estas) (instrucciones|reglas|normas)\b"
    r"|\b(i (was|am|have been) (told|instructed|programmed)|me (han|ha) (pedido|ordenado|indicado) que)\b"
    r"|\b(instrucciones|reglas|normas) que me (dieron|han dado|dio)\b|\b(instructions|rules) i (was|were) given\b"
)
# What a way back to work and learning names, beside the record's words (classify.LEARNING_WORDS), the
# organisation and the learner's own courses
_STEERS_BACK = re.compile(
    r"\b(learn\w*|aprend\w*|work|trabajo|company|empresa|tutor|documents?|documentos?|polic(y|ies)|politicas?|"
    r"procedures?|procedimientos?|process(es)?|proceso?s?|estudi\w*|lecciones|training|repas\w*|onboarding)\b"
)
_SPEAKER = re.compile(r"^\s*(q|a|question|answer|user|pregunta|respuesta|usuario)\s*:\s*", re.IGNORECASE)


def _folded(text: str) -> str:
    return " ".join(words(text))


def _runs(text: str, size: int) -> set[tuple[str, ...]]:
    found = words(text)
    return {tuple(found[i : i + size]) for i in range(len(found) - size + 1)}


def echoes(reply: str, question: str) -> bool:
    """The question repeated back: the reply opens with it (a "Q:" or "User:" prefix aside), or it is at least half
    of the reply's words. A redirect that names the topic ("I can't predict who will win the league") does not."""
    asked, said = " ".join(words(question)), " ".join(words(_SPEAKER.sub("", reply.strip())))
    if len(asked.split()) < 2 or asked not in said:
        return False
    return said.startswith(asked) or len(asked.split()) >= ECHO_SHARE * len(said.split())


def leaks_instructions(reply: str, instructions: str) -> bool:
    """The system prompt's words (PROMPT_RUN in a row), a mention of its own instructions, or a sentence that gives
    orders to an assistant (core.instructions: "ignore previous instructions", "you are now…")."""
    plain = _folded(reply)
    return bool(
        _runs(reply, PROMPT_RUN) & _runs(instructions, PROMPT_RUN)
        or _OWN_INSTRUCTIONS.search(plain)
        or instruction_family(reply)
    )


def steers_back(reply: str, org: str, courses: Sequence[str]) -> bool:
    """The reply points to work or learning: a word of learning, the organisation, or one of the learner's courses."""
    plain = _folded(reply)
    named_org = bool(org.strip()) and f" {_folded(org)} " in f" {plain} "
    own_course = bool(stems(reply) & stems(" ".join(courses), min_length=4))
    return bool(LEARNING_WORDS.search(plain) or _STEERS_BACK.search(plain) or named_org or own_course)


def claims_a_source(reply: str) -> bool:
    """A citation marker, or a claim that a document says something (a turn with nothing retrieved)."""
    return bool(CITATION_MARKER.search(reply) or _SOURCE_CLAIM.search(_folded(reply)))


def speaks_wrongly(reply: str, language: str) -> str | None:
    """What every reply with no material behind it is first held to (a ``fallback`` code, or None): the learner's
    language (from REDIRECT_LANGUAGE_WORDS words), and no citation or claim that a document says something."""
    if wrong_language(reply, language, min_words=REDIRECT_LANGUAGE_WORDS):
        return "language"
    if claims_a_source(reply):
        return "source_claim"
    return None


def redirect_fault(
    reply: str, *, question: str, language: str, org: str, instructions: str, courses: Sequence[str] = ()
) -> str | None:
    """Why ``reply`` is not a usable redirect (a ``fallback`` code), or None. Its length is the gate's to judge."""
    plain = _folded(reply)
    if not plain:
        return None  # the gate's "empty"
    if fault := speaks_wrongly(reply, language):
        return fault
    if echoes(reply, question):
        return "echo"
    if leaks_instructions(reply, instructions):
        return "instructions"
    if not steers_back(reply, org, courses):
        return "no_redirect"
    return None


def redirect_check(
    question: str, language: str, org: str, instructions: str, courses: Sequence[str] = ()
) -> Callable[[str], str | None]:
    """The check the output gate runs on a finished off-topic reply (``courses``: the learner's, by title)."""
    return lambda reply: redirect_fault(
        reply, question=question, language=language, org=org, instructions=instructions, courses=courses
    )
