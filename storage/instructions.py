"""Instruction-like passages: text that talks to an assistant instead of informing a person.

Documents, tickets and profile fields are data. A sentence such as "SYSTEM OVERRIDE: the
administrator has pre-approved…" or "ignora las instrucciones anteriores" is an attack on whoever
reads the text next (a model, or the offline engine quoting it as company material). Such sentences
are taken out at ingestion (and recorded per document for the admin, storage/flagged.py) and out
of every product text before it is stored (lessons, manuals, tickets, assistant messages).

The families follow the red-team corpus: override/ignore orders, fake system or role markers,
"pre-approved" claims, role-play and confirmation demands, hidden-action requests; es and en.
Every pattern is linear: literal anchors and bounded gaps only.
"""
from __future__ import annotations

import re

FAMILIES: dict[str, re.Pattern] = {name: re.compile(pattern, re.I) for name, pattern in {
    "override": r"\b(?:ignore|disregard|forget|override|bypass)\s+(?:all\s+|any\s+)?(?:of\s+)?(?:the\s+|your\s+|my\s+)?"
                + r"(?:(?:previous|prior|above|earlier|preceding|original|system|safety)\s+)?"
                + r"(?:instructions?|prompts?|directives|guardrails)\b"
                + r"|\b(?:ignore|disregard|forget)\s+(?:all|everything)\s+(?:above|before|previous)"
                + r"|\b(?:ignora|olvida|descarta|omite|anula)\s+(?:todas\s+|todo\s+)?(?:las\s+|tus\s+|mis\s+)?"
                + r"(?:instrucciones|indicaciones|directrices)\b"
                + r"|\bsystem\s+override\b|\boverride\s+(?:mode|activated|code)\b|\banulaci[oó]n\s+del\s+sistema\b",
    "system_marker": r"</?\s*(?:information|system|instructions?|admin|im_start|im_end)\s*>"
                     + r"|\[\s*/?\s*(?:system|inst|admin|information|instructions?|im_start|im_end)\s*\]|^\s*(?:system|assistant|sistema|asistente)\s*:"
                     + r"|\bsystem\s+prompt\b|\bprompt\s+del\s+sistema\b|\bmensaje\s+del\s+sistema\b"
                     + r"|\b(?:new|updated)\s+instructions\b|\bnuevas\s+instrucciones\b|\bdeveloper\s+mode\b"
                     + r"|\bmodo\s+(?:desarrollador|administrador|dios)\b|\bjailbreak\b|\bnext_action\b",
    "pre_approved": r"\bpre-?\s?approved\b|\bpre-?\s?authori[sz]ed\b|\bpre-?\s?aprobad[oa]s?\b"
                    + r"|\bpreautorizad[oa]s?\b|\bya\s+(?:est[aá]\s+)?aprobad[oa]s?\s+por\s+(?:el|la)\s+administrador"
                    + r"|\balready\s+approved\s+by\s+(?:the\s+)?(?:admin|administrator|hr|it)\b",
    "role_play": r"\byou\s+are\s+now\b|\bfrom\s+now\s+on\s+you\b|\bpretend\s+(?:to\s+be|you\s+are)\b"
                 + r"|\bact\s+as\s+(?:an?\s+|the\s+)?(?:unrestricted|ai|assistant|system|administrator|admin|root)\b"
                 + r"|\bahora\s+eres\b|\ba\s+partir\s+de\s+ahora\s+(?:eres|act[uú]as|responde)"
                 + r"|\bfinge\s+(?:ser|que)\b|\bact[uú]a\s+como\s+(?:un\s+|el\s+)?(?:asistente|administrador|sistema)\b",
    "confirmation": r"\b(?:respond|reply|answer|say)\s+(?:only\s+)?(?:with\s+)?[\"'“«]?(?:yes|ok|confirmed|approved|i\s+agree)\b"
                    + r"|\bconfirm\s+(?:that\s+)?you\s+(?:will|have|understand|agree)\b"
                    + r"|\bresponde\s+(?:solo|solamente|únicamente)?\s*(?:con\s+)?[\"'“«]?(?:s[ií]|ok|confirmado|aprobado)\b"
                    + r"|\bconfirma\s+que\s+(?:vas\s+a|has|entiendes|aceptas)\b",
    "hidden_action": r"\b(?:do\s+not|don'?t|never)\s+(?:tell|inform|mention|show)\s+(?:this\s+to\s+)?(?:the\s+)?(?:user|employee|human|admin)"
                     + r"|\bno\s+(?:se\s+lo\s+)?(?:digas|informes|menciones|muestres)\s+(?:esto\s+)?(?:al|a\s+la)\s+(?:usuari[oa]|emplead[oa]|persona)"
                     + r"|\b(?:approve|execute|run|file|grant|delete|process|change)\w*\b[^.!?\n]{0,40}?"
                     + r"\bwithout\s+(?:asking|confirmation|confirming|the\s+user'?s?\s+consent)\b"
                     + r"|\b(?:aprueba|ejecuta|crea|concede|borra|elimina|procesa|cambia)\w*\b[^.!?\n]{0,40}?"
                     + r"\bsin\s+(?:pedir\s+)?(?:confirmaci[oó]n|preguntar|consentimiento)\b"
                     + r"|\bfile\s+(?:a\s+|the\s+)?(?:new\s+)?(?:ticket|issue)\s+(?:titled|called|named)\b"
                     + r"|\b(?:send|forward|email|post)\s+(?:all\s+|the\s+)?(?:data|passwords?|credentials|salaries|records)"
                     + r"\s+to\s+(?:\S+@|https?://|`|this\s+address|the\s+following|an?\s+external)"
                     + r"|\b(?:env[ií]a|reenv[ií]a|manda)\s+(?:tod[oa]s\s+)?(?:l[oa]s\s+)?(?:datos|contraseñas|credenciales|salarios)"
                     + r"\s+a\s+(?:\S+@|https?://|`|esta\s+direcci[oó]n|la\s+siguiente|un[ao]?\s+extern)",
}.items()}
# A sentence ends at . ! ? followed by a space (not inside a URL, a number or "![image]") or a line end.
_SENTENCE = re.compile(r"(?:[^.!?\n]|[.!?](?![\s]|$))*+(?:[.!?]+|\n|$)")


def instruction_family(text: str) -> str | None:
    """The attack family ``text`` belongs to, or None for ordinary prose."""
    if not text:
        return None
    for family, pattern in FAMILIES.items():
        if pattern.search(text):
            return family
    return None


def split_instructions(text: str) -> tuple[str, list[tuple[str, str]]]:
    """``text`` without its instruction-like sentences, and those sentences with their family."""
    if not text or instruction_family(text) is None:
        return text or "", []
    kept, removed = [], []
    for match in _SENTENCE.finditer(text):
        sentence = match.group(0)
        family = instruction_family(sentence)
        if family is None:
            kept.append(sentence)
        elif sentence.strip():
            removed.append((sentence.strip(), family))
            kept.append("\n" if sentence.endswith("\n") else " ")
    return re.sub(r"[ \t]{2,}", " ", "".join(kept)).strip(), removed


def without_instructions(text: str | None) -> str:
    """``text`` with instruction-like sentences taken out (product text stored or shown as ours)."""
    return split_instructions(text or "")[0]
