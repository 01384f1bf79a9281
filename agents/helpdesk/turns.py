"""AgentTurn (what the person sees after each step), HelpdeskError and the user-facing wording (es/en)."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field

from agents.offline import localized

_ERRORS = {
    "not_found": {"en": "That helpdesk session does not exist.", "es": "Esa sesión de ayuda no existe."},
    "conflict": {"en": "This question was already answered in another window; reload to continue.",
                 "es": "Esta pregunta ya se respondió en otra ventana; recarga para continuar."},
    "disabled": {"en": "The helpdesk agent is switched off right now; please try later.",
                 "es": "El agente de ayuda está desactivado ahora mismo; inténtalo más tarde."},
    "daily_cap": {"en": "You have reached today's limit of helpdesk sessions; try again in {hours} h.",
                  "es": "Has alcanzado el límite diario de sesiones de ayuda; vuelve a intentarlo en {hours} h."},
    "gone": {"en": "This session was saved by an older version; please start a new one.",
             "es": "Esta sesión se guardó con una versión anterior; empieza una nueva."},
    "invalid": {"en": "Describe the problem in a few words first.", "es": "Describe primero el problema en pocas palabras."},
    "invalid_draft": {"en": "The ticket needs a title (3+ characters) and a body (10+ characters).",
                      "es": "El ticket necesita un título (3+ caracteres) y una descripción (10+ caracteres)."},
}

_ABORTED = {
    "user": {"en": "You cancelled this request. Nothing was filed.", "es": "Cancelaste esta solicitud. No se creó nada."},
    "server_restart": {"en": "The helpdesk restarted while working on your request, so it stopped. Nothing was filed; "
                             "please start again.",
                       "es": "El servicio de ayuda se reinició mientras trabajaba en tu solicitud y se detuvo. No se "
                             "creó nada; empieza de nuevo."},
    "deadline": {"en": "This request took too long and was stopped. Nothing was filed.",
                 "es": "Esta solicitud tardó demasiado y se detuvo. No se creó nada."},
    "budget_exhausted": {"en": "This request used up its budget and was stopped. Nothing was filed.",
                         "es": "Esta solicitud agotó su presupuesto y se detuvo. No se creó nada."},
    "kill_switch": {"en": "The helpdesk agent was switched off. Nothing was filed.",
                    "es": "El agente de ayuda se desactivó. No se creó nada."},
    "expired": {"en": "This request expired. Nothing was filed.", "es": "Esta solicitud caducó. No se creó nada."},
    "state_version": {"en": "This session was saved by an older version; please start a new one.",
                      "es": "Esta sesión se guardó con una versión anterior; empieza una nueva."},
    "admin": {"en": "An administrator stopped this request.", "es": "Un administrador detuvo esta solicitud."},
    "error": {"en": "Something went wrong and the request stopped. Nothing was filed.",
              "es": "Algo falló y la solicitud se detuvo. No se creó nada."},
}

_STEPS = {
    "search_existing_issues": {"en": "Searching existing tickets…", "es": "Buscando tickets existentes…"},
    "retry_kb": {"en": "Searching the knowledge base…", "es": "Buscando en la base de conocimiento…"},
    "web_search": {"en": "Searching the web…", "es": "Buscando en la web…"},
    "file_ticket": {"en": "Filing the ticket…", "es": "Creando el ticket…"},
    "clarifier": {"en": "Preparing a question…", "es": "Preparando una pregunta…"},
    "classifier": {"en": "Classifying the problem…", "es": "Clasificando el problema…"},
    "proposer": {"en": "Preparing a possible fix…", "es": "Preparando una posible solución…"},
    "writer": {"en": "Writing the ticket draft…", "es": "Redactando el ticket…"},
}


class HelpdeskError(Exception):
    """One line for the person; ``code`` for callers: not_found | conflict | disabled | daily_cap | gone | invalid."""

    def __init__(self, code: str, message: str, retry_after: int | None = None):
        super().__init__(message)
        self.code = code
        self.retry_after = retry_after


def error(code: str, language: str, retry_after: int | None = None) -> HelpdeskError:
    text = localized(_ERRORS[code], language)
    if retry_after is not None:
        text = text.format(hours=max(1, round(retry_after / 3600)))
    return HelpdeskError(code, text, retry_after)


def step_label(step: str, data: dict, language: str) -> str | None:
    key = data.get("tool") or data.get("node")
    return localized(_STEPS[key], language) if key in _STEPS else None


@dataclass
class AgentTurn:
    session_id: str
    kind: str  # question | solution | duplicate | draft_ready | filed | linked | resolved | aborted
    message: str
    choices: list[str] = field(default_factory=list)
    question_id: str | None = None
    draft: dict | None = None
    ticket: dict | None = None
    reason: str | None = None
    error: str | None = None
    actions: list[str] = field(default_factory=list)

    @property
    def finished(self) -> bool:
        return self.kind in ("filed", "linked", "resolved", "aborted")

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> "AgentTurn":
        return cls(**{k: v for k, v in data.items() if k in cls.__dataclass_fields__})

    @classmethod
    def from_row(cls, row) -> "AgentTurn":
        if row.outcome == "aborted" and row.turn.get("kind") != "aborted":
            return cls.aborted(str(row.id), row.abort_reason or "error", row.language)
        if not row.turn:  # still running its first step
            return cls(session_id=str(row.id), kind="working", message="")
        return cls.from_dict(row.turn)

    @classmethod
    def aborted(cls, session_id: str, reason: str, language: str) -> "AgentTurn":
        return cls(session_id=session_id, kind="aborted", reason=reason,
                   message=localized(_ABORTED.get(reason, _ABORTED["error"]), language))


def turn_from_result(session_id: str, result: dict, language: str) -> AgentTurn:
    actions = [s["action"] for s in result.get("trace", []) if s.get("node") == "supervisor" and s.get("action")]
    interrupts = result.get("__interrupt__")
    if interrupts:
        pending = interrupts[0].value
        kind = pending["kind"]
        message = pending.get("message") or ""
        if kind == "draft_ready":
            message = localized({"en": "Here is a draft ticket. Review it, edit it if needed, and file it.",
                                 "es": "Aquí tienes un borrador del ticket. Revísalo, edítalo si hace falta y créalo."},
                                language)
        return AgentTurn(session_id=session_id, kind=kind, message=message, choices=list(pending.get("choices") or []),
                         question_id=pending["question_id"], draft=pending.get("draft"),
                         ticket=pending.get("ticket"), error=pending.get("error"), actions=actions)
    outcome = result.get("outcome")
    if outcome == "filed":
        ticket = result["ticket"]
        message = localized({"en": f"Filed ticket #{ticket['number']}: {ticket['title']}",
                             "es": f"Ticket #{ticket['number']} creado: {ticket['title']}"}, language)
        return AgentTurn(session_id, "filed", message, ticket=ticket, draft=result.get("draft"), actions=actions)
    if outcome == "linked":
        ticket = result["linked_ticket"]
        message = localized({"en": f"Linked to existing ticket #{ticket['number']}: {ticket['title']}",
                             "es": f"Enlazado al ticket existente #{ticket['number']}: {ticket['title']}"}, language)
        return AgentTurn(session_id, "linked", message, ticket=ticket, actions=actions)
    if outcome == "resolved_by_agent":
        message = localized({"en": "Great, glad that solved it. Nothing was filed.",
                             "es": "Genial, me alegra que se haya resuelto. No se creó ningún ticket."}, language)
        return AgentTurn(session_id, "resolved", message, actions=actions)
    turn = AgentTurn.aborted(session_id, result.get("abort_reason") or "error", language)
    turn.actions = actions
    return turn
