"""The deterministic twins: the rule-based supervisor and the offline clarifier, classifier and writer.

They run when no model is configured and whenever a model's output is missing or invalid. They read
only structured state (counters, scores, facts and the person's own words), never third-party text,
so a poisoned ticket or web page cannot steer them.
"""

from __future__ import annotations

import re

from agents.helpdesk.state import (
    Category,
    ClarifyingQuestion,
    Classification,
    HelpdeskState,
    Impact,
    NextAction,
    Severity,
    TicketDraft,
)
from agents.i18n import language, t
from core.text import content_words, shortened

_FACT_PATTERNS = {
    "scope": r"\b(only me|just me|my team|whole team|team|everyone|everybody|all users|colleagues?|"
    r"solo yo|sólo yo|solo a mí|sólo a mí|solo a mi|mi equipo|equipo|todos|todo el mundo|compañeros?)\b",
    "error": r"\b\d{3}\b|error|mensaje|message|code|código|exception|forbidden|denied|denegado",
    "since": r"\b(since|desde|yesterday|ayer|today|hoy|this morning|esta mañana|hours?|horas?|days?|"
    r"días?|week|semana|monday|lunes|after|después)\b",
}
FACT_ORDER = ("scope", "error", "since")

CHOICES_PER_FACT = {"scope": 3, "error": 2, "since": 3}  # chips helpdesk.ask_<fact>_<n> in the catalogue

_CATEGORY_RULES: list[tuple[Category, str]] = [
    # the machine itself before the account: a BitLocker or boot screen asks for a "password" or a "key",
    # and the laptop is "locked" there, yet no account is at fault
    (
        "hardware",
        r"\b(bitlocker|boot|arranc|bios|blue screen|pantalla azul|startup|"
        r"(won't|will not|does not|doesn't) (turn|switch) on|no (se )?enciende)",
    ),
    # account before access: "locked out of my account" is about the account whatever word it uses
    (
        "account",
        r"\b(password|contraseña|login|log in|sign in|iniciar sesión|sesión|session|mfa|2fa|locked|"
        r"bloquead|account|cuenta|authenticator)",
    ),
    # a badge reader is a door's access control, whatever "card" or "tarjeta" it reads
    (
        "access",
        r"\b(403|forbidden|permission|permiso|access|acceso|role|rol|denied|denegado|authori[sz]|autoriza|"
        r"badge|card reader|lector de tarjetas|door|puerta)",
    ),
    # Spanish "red" only after an article or preposition: the English colour ("the light turns red") is not a network
    ("network", r"\b(vpn|wifi|wi-fi|network|internet|proxy|dns|(la|mi|de|en|a|sin) red\b)"),
    (
        "hardware",
        r"\b(laptop|portátil|printer|impresora|monitor|keyboard|teclado|mouse|ratón|battery|batería|screen|"
        r"pantalla|projector|proyector|scanner|escáner|headset|auricular|microphone|micrófono|webcam|docking|"
        r"móvil de empresa)",
    ),
    ("payroll", r"\b(payroll|nómina|salary|salario|payslip|vacation|vacaciones|expenses|gastos|reimburs|irpf)"),
    (
        "training",
        r"\b(course|curso|lesson|lección|exercise|ejercicio|certificate|certificado(?! de empresa)|training|formación)",
    ),
    (
        "software",
        r"\b(apps?\b|application|aplicación|software|instal|update|actualiz|crash|excel|oracle|sap|outlook|"
        r"teams|share screen|compartir pantalla|visio|pdf)",
    ),
    # what is no IT or HR system's fault, though it names one of their words
    ("other", r"\b(certificado de empresa|employment certificate|parking|aparcamiento|coffee|café|chair|silla|turno)"),
]


def words(text: str) -> set[str]:
    return set(content_words(text))


def user_text(state: HelpdeskState) -> str:
    turns = [t["content"] for t in state.get("conversation", []) if t["role"] == "user"]
    return "\n".join(turns + list(state.get("user_replies", [])))


def known_facts(state: HelpdeskState) -> set[str]:
    text = user_text(state).lower()
    found = {fact for fact, pattern in _FACT_PATTERNS.items() if re.search(pattern, text)}
    return found | set(state.get("facts", {}))


def missing_fact(state: HelpdeskState) -> str | None:
    asked = {q for q in state.get("facts", {})}
    known = known_facts(state)
    return next((f for f in FACT_ORDER if f not in known and f not in asked), None)


def relevant(results: list[dict], question: str, threshold: float = 0.5) -> list[dict]:
    """Results whose text covers at least ``threshold`` of the question's content words."""
    wanted = words(question)
    if not wanted:
        return []
    return [
        r
        for r in results
        if len(wanted & words(f"{r.get('title', '')} {r.get('content', '')}")) / len(wanted) >= threshold
    ]


def unproposed_source(state: HelpdeskState) -> tuple[str, list[dict]] | None:
    """The first tool whose relevant results have not been proposed yet."""
    proposed = {p["source"] for p in state.get("proposed_solutions", [])}
    question = state.get("original_question", "")
    for source, results in (("kb", state.get("kb_retry_results", [])), ("web", state.get("web_search_results", []))):
        hits = relevant(results, question)
        if hits and source not in proposed:
            return source, hits
    return None


def strong_duplicate(state: HelpdeskState) -> dict | None:
    rejected = set(state.get("rejected_duplicates", []))
    return next(
        (c for c in state.get("duplicate_candidates", []) if c.get("strong") and c.get("number") not in rejected), None
    )


def next_action(state: HelpdeskState, allowed: set[str]) -> NextAction:
    """The rule-based supervisor: duplicates, knowledge base, a fix, the web, a question, then a draft."""
    if "search_duplicates" in allowed and not state.get("duplicate_search_attempts"):
        return "search_duplicates"
    if "link_existing" in allowed and strong_duplicate(state):
        return "link_existing"
    if "retry_kb" in allowed and not state.get("kb_retry_attempts"):
        return "retry_kb"
    if "propose_solution" in allowed and (unproposed := unproposed_source(state)) and unproposed[0] == "kb":
        return "propose_solution"
    if "web_search" in allowed and not state.get("web_search_attempts"):
        return "web_search"
    if "propose_solution" in allowed and unproposed_source(state):
        return "propose_solution"
    if "ask_user" in allowed and missing_fact(state):
        return "ask_user"
    if not state.get("classification"):
        return "classify"
    if not state.get("draft"):
        return "write_draft"
    return "await_user_confirm"


def clarifying_question(state: HelpdeskState) -> ClarifyingQuestion:
    fact = missing_fact(state) or "details"
    lang = language(state.get("language"))
    choices = [t(f"helpdesk.ask_{fact}_{n}", lang) for n in range(1, CHOICES_PER_FACT.get(fact, 0) + 1)]
    return ClarifyingQuestion(question=t(f"helpdesk.ask_{fact}", lang), choices=choices, fact=fact)


_ORGANISATION = r"\b(everyone|everybody|all users|whole company|todos|toda la empresa|todo el mundo)\b"
_TEAM = r"\b(team|equipo|colleagues|compañeros|department|departamento)\b"
_BLOCKED = (
    r"\b(cannot|can't|unable|blocked|403|denied|no puedo|no puede|no pueden|no podemos|bloquead|denegado|"
    r"down|caído)\b"
)
_URGENT = r"\b(deadline|urgent|urgente|close|cierre|payroll|nómina|audit|auditoría)\b"


def decisive_fields(state: HelpdeskState) -> set[str]:
    """What the bilingual rules settle on their own, so a report and its translation classify alike
    whatever a model says: the category when a rule names it, the severity when the person is blocked,
    the deadline is near or the whole organisation is hit."""
    text = user_text(state).lower()
    fields = {"category"} if any(re.search(pattern, text) for _, pattern in _CATEGORY_RULES) else set()
    if re.search(_BLOCKED, text) or re.search(_URGENT, text) or re.search(_ORGANISATION, text):
        fields.add("severity")
    return fields


def best_category(text: str) -> Category:
    """The category whose rules find the most distinct words in ``text``; the earlier rule on a tie."""
    scores: dict[Category, int] = {}  # in the rules' order: the first to score wins a tie
    for name, pattern in _CATEGORY_RULES:
        if found := {m.group(0) for m in re.finditer(pattern, text)}:
            scores[name] = scores.get(name, 0) + len(found)
    best = max(scores.values(), default=0)
    return next(name for name, score in scores.items() if score == best) if best else "other"


def classify(state: HelpdeskState) -> Classification:
    text = user_text(state).lower()
    category = best_category(text)
    impact: Impact
    severity: Severity
    if re.search(_ORGANISATION, text):
        impact = "organization"
    elif re.search(_TEAM, text):
        impact = "team"
    else:
        impact = "individual"
    blocked = re.search(_BLOCKED, text)
    urgent = re.search(_URGENT, text)
    if impact == "organization" and blocked:
        severity = "critical"
    elif blocked and (impact == "team" or urgent):
        severity = "high"
    elif re.search(r"\b(how do i|how to|cómo|question|pregunta)\b", text) and not blocked:
        severity = "low"
    else:
        severity = "high" if blocked and category == "access" else "medium"
    return Classification(severity=severity, category=category, impact=impact)


TITLE_LIMIT = 80
# A greeting or a courtesy opens many reports and says nothing about the problem a title names.
_OPENING = re.compile(
    r"^\s*((hola|hi|hello|hey|buenos días|buenas( tardes| noches)?|good (morning|afternoon)|"
    r"perdona|perdón|disculpa|sorry|please|por favor)\b[\s,.!:;]*)+",
    re.IGNORECASE,
)


def ticket_title(question: str) -> str:
    """The report's first sentence that says something, at most 80 characters, cut at a word."""
    sentences = [s.strip(" .!?¿¡,;:") for s in re.split(r"(?<=[.!?])\s+|\n", _OPENING.sub("", question.strip()))]
    first = next((s for s in sentences if len(s.split()) >= 3), next((s for s in sentences if s), question.strip()))
    return shortened(first[:1].upper() + first[1:], TITLE_LIMIT)


def what_was_tried(state: HelpdeskState, lang: str) -> list[str]:
    """Only what happened in this session: searches that ran and found nothing shown, fixes shown and
    rejected, duplicates shown and rejected (by number: other people's titles stay out of the draft)."""
    lines = []
    proposed = {p["source"] for p in state.get("proposed_solutions", [])}
    for source, attempts in (("kb", "kb_retry_attempts"), ("web", "web_search_attempts")):
        if state.get(attempts) and source not in proposed:
            lines.append(t(f"helpdesk.draft_{source}_nothing", lang))
    if state.get("rejected_solutions"):
        for source in sorted(proposed):
            lines.append(t("helpdesk.draft_fix_rejected", lang, source=t(f"helpdesk.draft_source_{source}", lang)))
    if state.get("rejected_duplicates"):
        numbers = ", ".join(f"#{n}" for n in state["rejected_duplicates"])
        lines.append(t("helpdesk.draft_duplicates_rejected", lang, numbers=numbers))
    return [f"- {line}" for line in lines]


def write_draft(state: HelpdeskState) -> TicketDraft:
    lang = language(state.get("language"))
    cls = state.get("classification") or classify(state).model_dump()
    details = [f"- {q} → {a}" for q, a in zip(state.get("questions_asked", []), state.get("user_replies", []))]
    tried = what_was_tried(state, lang)
    sections = [f"## {t('helpdesk.draft_problem', lang)}\n{state.get('original_question', '').strip()}"]
    if details:
        sections.append(f"## {t('helpdesk.draft_details', lang)}\n" + "\n".join(details))
    if tried:
        sections.append(f"## {t('helpdesk.draft_tried', lang)}\n" + "\n".join(tried))
    sections.append(f"## {t('helpdesk.draft_impact', lang)}\n{t('helpdesk.impact_' + cls['impact'], lang)}")
    return TicketDraft(
        title=ticket_title(state.get("original_question", "Helpdesk request")) or "Helpdesk request",
        body="\n\n".join(sections),
        severity=cls["severity"],
        category=cls["category"],
    )
