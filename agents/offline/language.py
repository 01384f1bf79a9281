"""Which language a message is in: a few deciding words for short messages, the bundled identifier for the rest."""

from __future__ import annotations

import functools
import re

from agents.ingestion.pipeline import language_identifier
from agents.offline.sentences import WORD

# Short or ambiguous messages ("hola", "hi") defeat statistical detection; these words decide them.
_LEXICON = {
    "es": {
        "hola",
        "gracias",
        "buenas",
        "buenos",
        "días",
        "dias",
        "tardes",
        "noches",
        "qué",
        "que",
        "cómo",
        "como",
        "cuál",
        "cual",
        "cuándo",
        "cuando",
        "dónde",
        "donde",
        "por",
        "para",
        "quiero",
        "necesito",
        "ayuda",
        "sí",
        "vale",
        "adiós",
        "adios",
        "el",
        "los",
        "las",
        "una",
        "es",
        "mi",
        "tengo",
        "puedo",
        "favor",
        "curso",
        "cursos",
        "vacaciones",
        "contraseña",
        "perdón",
        "hasta",
        "luego",
        "con",
        "del",
    },
    "en": {
        "hi",
        "hello",
        "hey",
        "thanks",
        "thank",
        "you",
        "yes",
        "please",
        "the",
        "what",
        "how",
        "when",
        "where",
        "which",
        "why",
        "is",
        "are",
        "my",
        "i",
        "want",
        "need",
        "help",
        "bye",
        "goodbye",
        "good",
        "morning",
        "evening",
        "can",
        "do",
        "does",
        "course",
        "courses",
        "password",
        "holiday",
        "sorry",
        "of",
        "and",
        "to",
        "with",
    },
    "vi": {"chào", "xin", "cảm", "ơn", "không", "tôi", "bạn", "là", "có", "gì", "học"},
}
_VIETNAMESE = re.compile(r"[ăơưđạảấầẩẫậắằẳẵặẹẻẽếềểễệỉịọỏốồổỗộớờởỡợụủứừửữựỳỵỷỹ]", re.IGNORECASE)


_QUOTED = re.compile(r"“[^”]*”|«[^»]*»|\"[^\"]*\"")


def message_language(text: str, default: str = "es") -> str:
    """The language a person wrote a message in: a title they quote (“4. Alojamiento”, «Password standard»)
    is a name, not their language — the tutor's own chip "Give me a practical example of “4. Alojamiento”"
    was answered in Spanish to an English learner. A message that is only a quotation is judged whole."""
    unquoted = _QUOTED.sub(" ", text or "")
    return detect_language(unquoted if WORD.search(unquoted) else text, default)


@functools.lru_cache(maxsize=4096)  # a tutor turn asks of its message five times (intent, searches, checks)
def detect_language(text: str, default: str = "es") -> str:
    """The language to reply in: "es", "en", "vi", "pt", "fr", "de" or "it"; ``default`` if unsure."""
    text = (text or "").strip()
    words = [word.lower() for word in WORD.findall(text)]
    if not words:
        return default
    if _VIETNAMESE.search(text):
        return "vi"
    if "¿" in text or "¡" in text or "ñ" in text.lower():
        return "es"
    votes = {lang: sum(word in lexicon for word in words) for lang, lexicon in _LEXICON.items()}
    best = max(votes, key=votes.__getitem__)
    decided_by_words = votes[best] > 0 and list(votes.values()).count(votes[best]) == 1
    if decided_by_words and len(words) <= 3:
        return best
    if len(words) <= 3:  # too short for a 7-way guess: only a clear Spanish/English lead counts
        ranks = dict(language_identifier().rank(text))
        spanish, english = ranks.get("es", 0.0), ranks.get("en", 0.0)
        if max(spanish, english) >= 2.5 * min(spanish, english) and max(spanish, english) > 0.2:
            return "es" if spanish > english else "en"
        return default
    lang, confidence = language_identifier().classify(text)
    if confidence >= 0.6:
        return lang
    return best if decided_by_words else default
