"""Who a sentence speaks to, and what it asks: the concepts the instruction filter's addressee model reads.

An attack addresses whoever processes the text (the assistant, the model, "whoever summarises this page") about
that reader's own behaviour (its instructions, its answer, its role, the conversation) and asks it to change; a
policy sentence addresses employees about their work ("Send the expense report to your manager"). Words are
mapped to concepts (an AI reader, the second person, directives, earlier context, discarding, the answer, role
play, "from now on", disclosure, hidden channels, the conversation, politeness; es and en), and a sentence becomes its
concepts, the pairs of concepts it holds, and the concept it opens with. A logistic regression on these
(core/instruction_model.py) learns which combinations mean an attack; a concept is a class of words, so a
phrasing no training sentence used still lands on the same features, where character n-grams do not.
Linear patterns only (word alternations), on accent-folded text.
"""

from __future__ import annotations

import functools
import re
from itertools import combinations

from core.text import fold

_CONCEPTS = {
    # a machine reader, named ("system", "tool" or "software" name a till or a portal as often: left out) or
    # described by what it does to the text
    "ai": r"assistant|asistente|chatbot|bots?|ai|ia|llm|gpt|chatgpt|copilot|gemini|claude"
    r"|models?|language\s+models?|modelos?"
    r"|tutor(?:es)?",
    "processor": r"(?:who|whoever|whichever|any(?:thing|one)?|that|what|quien|cualquier[a]?|que|el|la)\s+"
    r"(?:\w+\s+){0,2}(?:reads?|reading|process(?:es|ing)?|summari[sz](?:es|ing)|condens(?:es|ing)|generat(?:es"
    r"|ing)|pars(?:es|ing)"
    r"|lea|lee|lees|procese|procesa|resuma|resume|genere|genera|analice|analiza|clasifica)"
    r"|automated|automatic[oa]?|automatizad[oa]|generated\s+from|generad[oa]s?\s+a\s+partir",
    # the reader's own output and directives, in the second person ("your reply", "tus instrucciones"): what an
    # attack changes, where a policy's "you" is an employee doing their work ("reply to the customer")
    "your_output": r"(?:your|tu|tus|vuestr[oa]s?)\s+(?:\w+\s+)?(?:answers?|repl(?:y|ies)|responses?|output"
    r"|summary|summaries"
    r"|respuestas?|contestacion(?:es)?|salida|resumen(?:es)?)",
    "your_directives": r"(?:your|tu|tus|vuestr[oa]s?)\s+(?:\w+\s+)?(?:instructions?|prompt|rules|guidelines"
    r"|guidance|configuration"
    r"|setup|settings|programming|restrictions|limits|instrucciones|indicaciones|pautas|reglas|normas|configuracion"
    r"|programacion|restricciones|limites)",
    # the reader named as the one spoken to: "Assistant, …", "to the AI that…", "para el bot"
    "vocative": r"^\W{0,3}(?:(?:dear|hey|hi|hello|attention|querid[oa]|oye|hola|atencion)\W{0,2}\s+)?(?:the\s+"
    r"|el\s+|la\s+)?"
    r"(?:assistant|asistente|chatbot|bot|ai|ia|model|modelo|tutor)\s*[,:!]"
    r"|(?:to|for)\s+(?:the|any|every)\s+(?:\w+\s+)?(?:assistant|chatbot|bot|ai|model|agent|tutor)\b"
    r"|(?:a|para)\s+(?:el|la|cualquier)\s+(?:\w+\s+)?(?:asistente|chatbot|bot|ia|modelo|agente|tutor)\b",
    "you": r"you|your|yours|yourself|tu|tus|te|ti|contigo|tuy[oa]s?|vosotros|vuestr[oa]s?|usted",
    "directives": r"instructions?|prompts?|rules|guidelines?|guidance|directives?|configuration|config|setup|settings"
    r"|programming|restrictions|guardrails|constraints|orders|instrucciones|instruccion|indicaciones|pautas|reglas"
    r"|directrices|configuracion|programacion|restricciones|consignas|ordenes|limites|limits",
    # earlier context, not an amount "above 500 EUR"
    "prior": r"previous|prior|(?:the|everything|all)\s+above|above\s+(?:this|it)|earlier|preceding|initial"
    r"|original|before\s+this"
    r"|so\s+far|anterior(?:es)?|previ[oa]s?|de\s+arriba|lo\s+anterior|inicial(?:es)?|original(?:es)?"
    r"|hasta\s+ahora|hasta\s+aqui",
    "discard": r"ignore|disregard|forget|override|bypass|void|obsolete|cancel(?:l?ed)?|outdated|no\s+longer"
    r"|dismiss|drop"
    r"|ignora|olvida|descarta|anula|pasa\s+por\s+alto|no\s+hagas\s+caso|no\s+tengas\s+en\s+cuenta|ya\s+no"
    r"|obsolet[oa]s?|deja\s+de",
    "answer": r"answers?|repl(?:y|ies)|responses?|respond|output|summary|what\s+you\s+(?:write|say|tell)"
    r"|respuestas?|contestacion(?:es)?|responde|contesta|salida|resumen|lo\s+que\s+(?:escribas|digas|contestes)",
    "disclose": r"reveal|print|repeat|quote|paste|disclose|leak|recite|dump|expose|read\s+out|spell\s+out"
    r"|revela|imprime|repite|pega|filtra|recita|vuelca|expon|desvela|copia\s+literalmente",
    "role": r"pretend|imagine|role|roles|character|persona|act\s+as|become|play(?:ing)?|voice|story|novel"
    r"|fiction|scene|game"
    r"|finge|imagina|papel|personaje|interpreta|conviertete|haz\s+de|voz|historia|novela|cuento|ficcion|escena|juego",
    "henceforth": r"from\s+now\s+on|henceforth|from\s+(?:here|this\s+\w+)\s+on|starting\s+now|anymore"
    r"|any\s+more|no\s+longer"
    r"|a\s+partir\s+de\s+(?:ahora|aqui|este)|de\s+ahora\s+en\s+adelante|desde\s+(?:ahora|aqui|este)|ya\s+no",
    "channel": r"https?://|www\.|\w+\.example\b|\w+@\w+|!\[|base64|hex(?:adecimal)?|rot13|query\s+string"
    r"|encod\w*|codific\w*"
    r"|cifr\w*|encrypt\w*|links?|enlaces?|url",
    "conversation": r"conversation|chat|session|messages?|this\s+exchange|conversacion|sesion|mensajes?",
    "meta": r"this\s+(?:document|text|page|file|paragraph|section|note|line|message|passage|handbook|manual)"
    r"|(?:este|esta)\s+(?:documento|texto|pagina|archivo|fichero|parrafo|seccion|nota|linea|mensaje|pasaje|manual)",
    "covert": r"quietly|silently|secretly|in\s+secret|hidden|without\s+(?:telling|mentioning|saying)"
    r"|do\s+not\s+mention"
    r"|discretamente|en\s+silencio|en\s+secreto|ocult[oa]|sin\s+(?:decir|mencionar|avisar)|no\s+menciones",
    "secret": r"passwords?|credentials?|bank\s+details|home\s+address(?:es)?|phone\s+numbers?|api\s+keys?"
    r"|personal\s+(?:data|details|records)|contrasenas?|credenciales|datos\s+(?:bancarios|personales)"
    r"|direccion(?:es)?\s+particular(?:es)?",
    "polite": r"please|kindly|would\s+you|could\s+you|grateful|appreciate|por\s+favor|serias\s+tan"
    r"|te\s+agradeceria|amable",
    "quote": r"[\"“”«»]",
}


def _alternatives(pattern: str) -> list[str]:
    """A pattern's top-level alternatives ("a|b(?:c|d)" -> "a", "b(?:c|d)")."""
    parts, depth, start = [], 0, 0
    for i, char in enumerate(pattern):
        if char in "([" and (i == 0 or pattern[i - 1] != "\\"):
            depth += 1
        elif char in ")]" and pattern[i - 1] != "\\":
            depth -= 1
        elif char == "|" and depth == 0:
            parts.append(pattern[start:i])
            start = i + 1
    return parts + [pattern[start:]]


# A sentence is read once, word by word: alternatives that are one plain word are looked up per distinct word
# (remembered, as words repeat across sentences), and only the phrases are searched in the whole sentence;
# 23 searches of whole alternations cost ~0.5 ms a sentence, more than the n-gram model's share.
_ONE_WORD = re.compile(r"[a-z()?:\[\]|]+")
_WORD_CONCEPTS = {
    name: re.compile("|".join(alt for alt in _alternatives(pattern) if _ONE_WORD.fullmatch(alt)))
    for name, pattern in _CONCEPTS.items()
    if any(_ONE_WORD.fullmatch(alt) for alt in _alternatives(pattern))
}
_PHRASE_ALTERNATIVES = {
    name: [alt for alt in _alternatives(pattern) if not _ONE_WORD.fullmatch(alt)]
    for name, pattern in _CONCEPTS.items()
    if name != "quote"
}
# every phrase of every concept in one pass; a phrase found is then given each concept it belongs to
_PHRASE = re.compile(rf"(?<!\w)(?:{'|'.join(alt for alts in _PHRASE_ALTERNATIVES.values() for alt in alts)})(?!\w)")
_PHRASE_OF = {name: re.compile("|".join(alts)) for name, alts in _PHRASE_ALTERNATIVES.items() if alts}
_QUOTE = re.compile(_CONCEPTS["quote"])
_WORD = re.compile(r"\w+")


@functools.lru_cache(maxsize=65536)
def _of_word(word: str) -> frozenset[str]:
    return frozenset(name for name, pattern in _WORD_CONCEPTS.items() if pattern.fullmatch(word))


@functools.lru_cache(maxsize=65536)
def _of_phrase(phrase: str) -> frozenset[str]:
    return frozenset(name for name, pattern in _PHRASE_OF.items() if pattern.fullmatch(phrase))


def _held(folded: str) -> set[str]:
    held = {name for word in set(_WORD.findall(folded)) for name in _of_word(word)}
    held |= {name for match in _PHRASE.finditer(folded) for name in _of_phrase(match.group(0))}
    return held | ({"quote"} if _QUOTE.search(folded) else set())


def concepts(sentence: str) -> list[str]:
    """What the addressee model reads of a sentence: each concept it holds, each pair of them, the concept its
    first words hold, and its length as a coarse bucket."""
    folded = fold(sentence)
    held = sorted(_held(folded))
    opening = _held(" ".join(folded.split()[:4]))
    features = held + [f"{a}+{b}" for a, b in combinations(held, 2)]
    features += [f"opens:{name}" for name in held if name in opening]
    words = len(folded.split())
    features.append("short" if words < 8 else "medium" if words < 20 else "long")
    return features
