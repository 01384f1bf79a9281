"""A model's reply to a greeting, thanks, farewell or "who are you?" (chitchat) is untrusted output like any other
answer (issue 29, session 22). No material is given for it, so it must be a short, warm reply to what was said and
nothing else; the output gate (gate.py) holds it to that, and when it fails the deterministic reply
(answers.chitchat) replaces it, the turn recording why (``fallback``). The checks it shares with the off-topic
redirect are redirect_check.py's:

``length`` past CHITCHAT_TOKENS · ``language`` not the learner's (from three words) · ``source_claim`` a citation
or a claim that a document says something · ``identity`` another assistant's name or maker ("I am ChatGPT…", "as
an AI language model") · ``echo`` the message said back (alone, as a transcript's turn, or a longer message
opening the reply) · ``instructions`` the system prompt's words or an instruction-like sentence · ``unasked`` content
nobody asked for: a figure (no learner data is given to a greeting: any number is made up), a list, a transcript
continued ("Q: … A: …"), or a sentence that speaks neither to the learner nor of the tutor (a fact: "The return
window is…", "Photosynthesis converts…").
"""

from __future__ import annotations

import re
from collections.abc import Callable

from agents.tutor.redirect_check import echoes, leaks_instructions, speaks_wrongly
from core.text import sentences, words

# A greeting's reply is one to three short sentences (the good ones of tests/tutor/test_tutor_chitchat_check.py:
# 10-27 tokens; the twin's with a long course title: 40); past this it is doing something else. The server's
# max_tokens too.
CHITCHAT_TOKENS = 60
TALKING_WORDS = 4  # a shorter sentence ("Glad it helped!", "¡Muy bien, gracias!") says nothing to judge

# On folded words. Another assistant's name or maker, or a model speaking of itself as one.
_IDENTITY = re.compile(
    r"\b(chatgpt|openai|gpt \d\w*|(large )?language model|modelo de (lenguaje|idioma)|ai model|modelo de ia|"
    r"smollm\w*|hugging ?face|anthropic|claude|llama|meta ai|qwen|alibaba|gemini|mistral|"
    r"(trained|created|developed|made) by|(entrenad|cread|desarrollad|hech)[oa] por)\b"
)
# A turn of a transcript (on the raw text): a speaker's label at the start of a line or a sentence.
_TURN = re.compile(
    r"(^|[\n.!?]\s*)(q|a|question|answer|user|assistant|human|pregunta|respuesta|usuario|asistente)\s*:",
    re.IGNORECASE,
)
_LIST_ITEM = re.compile(r"(^|\n)\s*([-*•]|\d+[.)])\s+\S|(^|\s)\d+[.)]\s+[A-Za-zÁÉÍÓÚáéíóúÑñ]")
_FIGURE = re.compile(r"\d")
# Words by which a sentence speaks to the learner or of the tutor, or wishes well (on folded words). Spanish marks
# the person in the verb: its forms a greeting's reply uses are listed.
_PERSONAL = frozenset(
    "i im me my mine myself you youre your yours yourself we us our lets let glad happy welcome thanks thank "
    "day luck soon pleasure yo me mi mis te tu tus ti contigo conmigo nos nuestro nuestra usted "
    "estoy estas eres has vas soy estare puedo puedes podemos quieres quieras tienes tengas necesitas necesites "
    "seguimos sigamos "
    "vemos veamos vamos volvamos ayudo ayudarte ayudare vuelve vuelvas preguntame dime cuentame avisame "
    "encantado encantada gracias nada dia suerte pronto placer".split()
)


def echoes_greeting(reply: str, message: str) -> bool:
    """The message said back: as a transcript's turn ("User: hola"), as the whole reply, or (a question, "who are
    you?") opening it. A greeting mirrored ("Good morning, James! …", "Nice to meet you too") is no echo."""
    asked, said = " ".join(words(message)), " ".join(words(reply))
    if not asked:
        return False
    transcript = bool(_TURN.match(reply.strip())) and asked in said
    return transcript or said == asked or (message.rstrip().endswith("?") and echoes(reply, message))


def unasked(reply: str) -> bool:
    """Content nobody asked for: a figure, a list, a transcript's turn, or a sentence of TALKING_WORDS or more with
    no word that speaks to the learner or of the tutor."""
    if _FIGURE.search(reply) or _LIST_ITEM.search(reply) or _TURN.search(reply):
        return True
    talking = [said for said in (words(s) for s in sentences(reply)) if len(said) >= TALKING_WORDS]
    return any(not _PERSONAL.intersection(said) for said in talking)


def chitchat_fault(reply: str, *, message: str, language: str, instructions: str) -> str | None:
    """Why ``reply`` is not a usable reply to a greeting or small talk (a ``fallback`` code), or None. Its length
    is the gate's to judge."""
    plain = " ".join(words(reply))
    if not plain:
        return None  # the gate's "empty"
    if fault := speaks_wrongly(reply, language):
        return fault
    if _IDENTITY.search(plain):
        return "identity"
    if echoes_greeting(reply, message):
        return "echo"
    if leaks_instructions(reply, instructions):
        return "instructions"
    if unasked(reply):
        return "unasked"
    return None


def chitchat_check(message: str, language: str, instructions: str) -> Callable[[str], str | None]:
    """The check the output gate runs on a finished chitchat reply."""
    return lambda reply: chitchat_fault(reply, message=message, language=language, instructions=instructions)
