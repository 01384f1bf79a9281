"""A model's own words on a document question no document answers (the general rung, issue 29 item 1) are untrusted
output like any other answer (session 23). The tutor frames them itself (answers.general_rung_frame: "I found nothing
about this in Acme Retail's documents. What follows is general knowledge…", then the ways on); this check holds the
words between to being a short answer to the question asked. When they fail, the deterministic refusal with its
ways on replaces them, the turn recording why (``fallback``):

``length`` past GENERAL_TOKENS (the server's max_tokens too) · ``language`` not the learner's (from three words) ·
``source_claim`` a citation, or a claim that a document or policy says something (none answered) ·
``instructions`` the system prompt's words or an instruction-like sentence · ``off_question`` it speaks of none of
the question's key terms, by stem, by the glossary's word in the other language or by the multilingual model's
nearest word: SmolLM2's "El água de la cerveza es el que se debe ahora." for "¿Qué hay de menú hoy en la cantina?".
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from agents.tutor.key_terms import coverage, key_terms
from agents.tutor.redirect_check import leaks_instructions, speaks_wrongly
from core import glossary
from core.text import words

if TYPE_CHECKING:
    from agents.runtime.deps import Embedder

# A general answer is a sentence or two: the good ones of tests/tutor/test_tutor_general_check.py run to 21-32
# tokens. Past this it is an essay the learner did not ask for, beside a line saying it isn't the company's.
GENERAL_TOKENS = 120


def general_fault(
    reply: str, *, question: str, language: str, org: str, instructions: str, embedder: Embedder
) -> str | None:
    """Why ``reply`` is not a usable general answer to ``question`` (a ``fallback`` code), or None. Its length is
    the gate's to judge; the organisation's name is no topic (a general answer need not repeat it)."""
    if not words(reply):
        return None  # the gate's "empty"
    if fault := speaks_wrongly(reply, language):
        return fault
    if leaks_instructions(reply, instructions):
        return "instructions"
    named = set(key_terms(org))
    terms = [term for term in key_terms(question) if term not in named]
    topic = [term for term in terms if not glossary.generic(term)] or terms
    if topic and not coverage(topic, reply, embedder):
        return "off_question"
    return None


def general_check(
    question: str, language: str, org: str, instructions: str, embedder: Embedder
) -> Callable[[str], str | None]:
    """The check the output gate runs on a finished general answer."""
    return lambda reply: general_fault(
        reply, question=question, language=language, org=org, instructions=instructions, embedder=embedder
    )
