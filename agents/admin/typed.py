"""What a typed reply to a pending write means, decided in code (never by the model).

Only the admin's own message is read, and only a message made of nothing but confirmation words
("sí", "ok, adelante", "yes, do it please") confirms — the action pending at that moment, once. Nothing but
cancellation words ("no", "cancelar", "espera", "no, cancel that") cancels it; words that only point at the
preview or are polite ("that", "it", "please", "eso", "por favor") go with either. Anything else — a question, a new
request, "sí pero a Priya no" — leaves the action pending; text from documents or tool results
never reaches this function.
"""

from __future__ import annotations

from typing import Literal

from core.text import words

CONFIRM_WORDS = {
    "si",
    "yes",
    "ok",
    "okay",
    "vale",
    "confirmar",
    "confirmo",
    "confirma",
    "confirm",
    "dale",
    "adelante",
    "hazlo",
    "proceed",
    "sure",
}
CANCEL_WORDS = {"no", "cancel", "cancelar", "cancela", "cancelo", "espera", "wait", "stop", "para", "nope"}
CANCEL_WORDS |= {"dejalo", "olvidalo", "forget", "nevermind", "never", "mind", "anula", "anulalo", "cancelalo"}
# said with a yes or a no, they change nothing: what it points at, politeness
POINTING_WORDS = {"that", "it", "this", "please", "thanks", "do", "eso", "esto", "lo", "por", "favor", "gracias"}
POINTING_WORDS |= {"mejor"}  # "mejor no"


def typed_decision(message: str | None) -> Literal["confirm", "cancel"] | None:
    said = [w for w in words(message or "") if w not in POINTING_WORDS]
    if said and all(w in CONFIRM_WORDS for w in said):
        return "confirm"
    if said and all(w in CANCEL_WORDS for w in said):
        return "cancel"
    return None
