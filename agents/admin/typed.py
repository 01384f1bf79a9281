"""What a typed reply to a pending write means, decided in code (never by the model).

Only the admin's own message is read, and only a message made of nothing but confirmation words
("sí", "ok, adelante") confirms — the action pending at that moment, once. Nothing but
cancellation words ("no", "cancelar", "espera") cancels it. Anything else — a question, a new
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


def typed_decision(message: str | None) -> Literal["confirm", "cancel"] | None:
    said = words(message or "")
    if said and all(w in CONFIRM_WORDS for w in said):
        return "confirm"
    if said and all(w in CANCEL_WORDS for w in said):
        return "cancel"
    return None
