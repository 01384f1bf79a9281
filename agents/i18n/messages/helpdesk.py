"""The helpdesk: the agent's wording and the Helpdesk page (tickets after filing, My tickets and the staff's
ticket page, are in helpdesk_tickets.py). Enum codes the helpdesk shows (categories, facts, steps) are
``code.<kind>.<code>``."""

MESSAGES = {
    # errors (HelpdeskError, one line)
    "helpdesk.error_not_found": {"en": "That helpdesk session does not exist.", "es": "Esa sesión de ayuda no existe."},
    "helpdesk.error_conflict": {
        "en": "This question was already answered in another window; reload to continue.",
        "es": "Esta pregunta ya se respondió en otra ventana; recarga para continuar.",
    },
    "helpdesk.error_disabled": {
        "en": "The helpdesk agent is switched off right now; please try later.",
        "es": "El agente de ayuda está desactivado ahora mismo; inténtalo más tarde.",
    },
    "helpdesk.error_draining": {
        "en": "The helpdesk is restarting; new requests open again in a few seconds.",
        "es": "El servicio de ayuda se está reiniciando; podrás abrir nuevas solicitudes en unos segundos.",
    },
    "helpdesk.error_daily_cap": {
        "en": "You have reached today's limit of helpdesk sessions; try again in {hours} h.",
        "es": "Has alcanzado el límite diario de sesiones de ayuda; vuelve a intentarlo en {hours} h.",
    },
    "helpdesk.error_gone": {
        "en": "This session was saved by an older version; please start a new one.",
        "es": "Esta sesión se guardó con una versión anterior; empieza una nueva.",
    },
    "helpdesk.error_invalid": {
        "en": "Describe the problem in a few words first.",
        "es": "Describe primero el problema en pocas palabras.",
    },
    "helpdesk.error_invalid_draft": {
        "en": "The ticket needs a title (3+ characters) and a body (10+ characters).",
        "es": "El ticket necesita un título (3+ caracteres) y una descripción (10+ caracteres).",
    },
    # aborted sessions
    "helpdesk.aborted_user": {
        "en": "You cancelled this request. Nothing was filed.",
        "es": "Cancelaste esta solicitud. No se creó nada.",
    },
    "helpdesk.aborted_user_cancelled": {
        "en": "You cancelled this request. Nothing was filed.",
        "es": "Cancelaste esta solicitud. No se creó nada.",
    },
    "helpdesk.aborted_server_restart": {
        "en": "The helpdesk restarted while working on your request, so it stopped. Nothing was filed; please start again.",
        "es": "El servicio de ayuda se reinició mientras trabajaba en tu solicitud y se detuvo. No se creó nada; empieza de nuevo.",
    },
    "helpdesk.aborted_deadline": {
        "en": "This request took too long and was stopped. Nothing was filed.",
        "es": "Esta solicitud tardó demasiado y se detuvo. No se creó nada.",
    },
    "helpdesk.aborted_budget_exhausted": {
        "en": "This request used up its budget and was stopped. Nothing was filed.",
        "es": "Esta solicitud agotó su presupuesto y se detuvo. No se creó nada.",
    },
    "helpdesk.aborted_kill_switch": {
        "en": "The helpdesk agent was switched off. Nothing was filed.",
        "es": "El agente de ayuda se desactivó. No se creó nada.",
    },
    "helpdesk.aborted_expired": {
        "en": "This request expired. Nothing was filed.",
        "es": "Esta solicitud caducó. No se creó nada.",
    },
    "helpdesk.aborted_state_version": {
        "en": "This session was saved by an older version; please start a new one.",
        "es": "Esta sesión se guardó con una versión anterior; empieza una nueva.",
    },
    "helpdesk.aborted_admin": {
        "en": "An administrator stopped this request.",
        "es": "Un administrador detuvo esta solicitud.",
    },
    "helpdesk.aborted_error": {
        "en": "Something went wrong and the request stopped. Nothing was filed.",
        "es": "Algo falló y la solicitud se detuvo. No se creó nada.",
    },
    # progress steps
    "helpdesk.step_search_existing_issues": {"en": "Searching existing tickets…", "es": "Buscando tickets existentes…"},
    "helpdesk.step_retry_kb": {"en": "Searching the knowledge base…", "es": "Buscando en la base de conocimiento…"},
    "helpdesk.step_web_search": {"en": "Searching the web…", "es": "Buscando en la web…"},
    "helpdesk.step_file_ticket": {"en": "Filing the ticket…", "es": "Creando el ticket…"},
    "helpdesk.step_clarifier": {"en": "Preparing a question…", "es": "Preparando una pregunta…"},
    "helpdesk.step_classifier": {"en": "Classifying the problem…", "es": "Clasificando el problema…"},
    "helpdesk.step_proposer": {"en": "Preparing a possible fix…", "es": "Preparando una posible solución…"},
    "helpdesk.step_writer": {"en": "Writing the ticket draft…", "es": "Redactando el ticket…"},
    "helpdesk.step_supervisor": {"en": "Reading your report…", "es": "Leyendo tu consulta…"},
    # turns
    "helpdesk.draft_intro": {
        "en": "Here is a draft ticket. Review it, edit it if needed, and file it.",
        "es": "Aquí tienes un borrador del ticket. Revísalo, edítalo si hace falta y créalo.",
    },
    "helpdesk.filed": {"en": "Filed ticket #{number}: {title}", "es": "Ticket #{number} creado: {title}"},
    "helpdesk.linked": {
        "en": "Linked to existing ticket #{number}: {title}. "
        "{count, plural, one {You are the only person affected.} other {You are one of # people affected.}}",
        "es": "Enlazado al ticket existente #{number}: {title}. "
        "{count, plural, one {Eres la única persona afectada.} other {Eres una de las # personas afectadas.}}",
    },
    "helpdesk.resolved": {
        "en": "Great, glad that solved it. Nothing was filed.",
        "es": "Genial, me alegra que se haya resuelto. No se creó ningún ticket.",
    },
    "helpdesk.duplicate_offer": {
        "en": "This looks like ticket #{number}: “{title}” ({status}). Link your request to it?",
        "es": "Parece el mismo problema que el ticket #{number}: «{title}» ({status}). ¿Lo enlazamos?",
    },
    "helpdesk.choice_link": {"en": "Link it", "es": "Enlazarlo"},
    "helpdesk.choice_not_same": {"en": "Not the same", "es": "No es lo mismo"},
    "helpdesk.choice_solved": {"en": "This solved it", "es": "Esto lo resolvió"},
    "helpdesk.choice_not_solved": {"en": "Not solved", "es": "No lo resolvió"},
    # clarifying questions (the offline clarifier) and their chips
    "helpdesk.ask_scope": {
        "en": "Is this affecting only you or your team?",
        "es": "¿Te afecta solo a ti o a tu equipo?",
    },
    "helpdesk.ask_scope_1": {"en": "Only me", "es": "Solo a mí"},
    "helpdesk.ask_scope_2": {"en": "My whole team", "es": "A todo mi equipo"},
    "helpdesk.ask_scope_3": {"en": "Everyone", "es": "A todos"},
    "helpdesk.ask_error": {
        "en": "What exact error message or code do you see?",
        "es": "¿Qué mensaje o código de error exacto ves?",
    },
    "helpdesk.ask_error_1": {"en": "No message", "es": "Ningún mensaje"},
    "helpdesk.ask_error_2": {"en": "I'll type it", "es": "Lo escribo"},
    "helpdesk.ask_since": {"en": "Since when has this been happening?", "es": "¿Desde cuándo ocurre?"},
    "helpdesk.ask_since_1": {"en": "Today", "es": "Hoy"},
    "helpdesk.ask_since_2": {"en": "A few days", "es": "Hace unos días"},
    "helpdesk.ask_since_3": {"en": "Longer", "es": "Más tiempo"},
    "helpdesk.ask_details": {
        "en": "Anything else a support engineer should know (steps to reproduce, screenshots)?",
        "es": "¿Algo más que deba saber el equipo de soporte (pasos para reproducirlo, capturas)?",
    },
    # the offline draft: only what happened in this session
    "helpdesk.draft_problem": {"en": "Problem", "es": "Problema"},
    "helpdesk.draft_details": {"en": "Details", "es": "Detalles"},
    "helpdesk.draft_tried": {"en": "What was tried", "es": "Qué se intentó"},
    "helpdesk.draft_impact": {"en": "Impact", "es": "Impacto"},
    "helpdesk.draft_kb_nothing": {
        "en": "The knowledge base was searched; no article matched.",
        "es": "Se buscó en la base de conocimiento; ningún artículo coincidía.",
    },
    "helpdesk.draft_web_nothing": {
        "en": "The web was searched; no page matched.",
        "es": "Se buscó en la web; ninguna página coincidía.",
    },
    "helpdesk.draft_fix_rejected": {
        "en": "A suggested fix from the {source} was tried and did not solve it.",
        "es": "Se probó una solución sugerida de {source} y no lo resolvió.",
    },
    "helpdesk.draft_source_kb": {"en": "knowledge base", "es": "la base de conocimiento"},
    "helpdesk.draft_source_web": {"en": "web", "es": "la web"},
    "helpdesk.draft_duplicates_rejected": {
        "en": "Possible duplicates shown and rejected as different: {numbers}.",
        "es": "Posibles duplicados mostrados y descartados por ser distintos: {numbers}.",
    },
    "helpdesk.impact_individual": {"en": "Only the reporter", "es": "Solo quien lo reporta"},
    "helpdesk.impact_team": {"en": "The reporter's team", "es": "El equipo de quien lo reporta"},
    "helpdesk.impact_organization": {
        "en": "Many people across the organisation",
        "es": "Muchas personas de la organización",
    },
    # Helpdesk page
    "helpdesk.page_title": {"en": "🛟 Helpdesk", "es": "🛟 Ayuda"},
    "helpdesk.page_caption": {
        "en": "Tell me what is wrong. I search existing tickets and the knowledge base, ask what I need, and draft a ticket that is only filed when you confirm. · engine: {engine}",
        "es": "Cuéntame qué falla. Busco tickets existentes y en la base de conocimiento, te pregunto lo necesario y redacto un ticket que solo se crea cuando lo confirmas. · motor: {engine}",
    },
    "helpdesk.working": {"en": "Working on it…", "es": "Trabajando en ello…"},
    "helpdesk.stopped": {"en": "Stopped", "es": "Detenido"},
    "helpdesk.still_working": {"en": "Still working on your request…", "es": "Sigo trabajando en tu solicitud…"},
    "helpdesk.review_title": {"en": "Review your ticket", "es": "Revisa tu ticket"},
    "helpdesk.field_title": {"en": "Title", "es": "Título"},
    "helpdesk.field_description": {"en": "Description", "es": "Descripción"},
    "helpdesk.description_preview": {"en": "Description", "es": "Descripción"},
    "helpdesk.description_edit": {"en": "Edit the description", "es": "Editar la descripción"},
    "helpdesk.file_it": {"en": "File it", "es": "Crear ticket"},
    "helpdesk.cancel": {"en": "Cancel", "es": "Cancelar"},
    "helpdesk.open_link": {"en": "open", "es": "abrir"},
    "helpdesk.new_request": {"en": "New request", "es": "Nueva consulta"},
    "helpdesk.helpful_question": {"en": "Did this solve it?", "es": "¿Te ha servido?"},
    "helpdesk.helpful_yes": {"en": "👍 Yes", "es": "👍 Sí"},
    "helpdesk.helpful_no": {"en": "👎 No", "es": "👎 No"},
    "helpdesk.helpful_thanks_yes": {
        "en": "Thanks: you said this solved it. You can change your answer.",
        "es": "Gracias: has dicho que te ha servido. Puedes cambiar tu respuesta.",
    },
    "helpdesk.helpful_thanks_no": {
        "en": "Thanks: you said this did not solve it. Staff see it; you can change your answer.",
        "es": "Gracias: has dicho que no te ha servido. El equipo lo verá; puedes cambiar tu respuesta.",
    },
    "helpdesk.error_not_rateable": {
        "en": "Only a finished request with a fix or a ticket can be rated.",
        "es": "Solo se puede valorar una consulta terminada con una solución o un ticket.",
    },
    "helpdesk.question_label": {"en": "What is the problem?", "es": "¿Qué problema tienes?"},
    "helpdesk.question_placeholder": {
        "en": "e.g. Oracle Financials returns 403 on budget reports",
        "es": "p. ej. Oracle Financials da error 403 en los informes de presupuesto",
    },
    "helpdesk.get_help": {"en": "Get help", "es": "Pedir ayuda"},
    "helpdesk.what_i_did": {"en": "What I did", "es": "Qué hice"},
    "helpdesk.type_answer": {"en": "Or type your answer", "es": "O escribe tu respuesta"},
    "helpdesk.send": {"en": "Send", "es": "Enviar"},
    "helpdesk.solved_button": {"en": "✅ This solved it", "es": "✅ Esto lo resolvió"},
    "helpdesk.not_solved_button": {"en": "❌ Not solved", "es": "❌ No lo resolvió"},
    "helpdesk.link_button": {"en": "🔗 Link it", "es": "🔗 Enlazarlo"},
    "helpdesk.filing_failed": {
        "en": "Filing failed; nothing was created. Try again or cancel.",
        "es": "No se pudo crear el ticket; no se creó nada. Inténtalo de nuevo o cancela.",
    },
    "helpdesk.review_button": {"en": "Review and file the draft", "es": "Revisar y crear el ticket"},
    "helpdesk.cancel_session": {"en": "Cancel session", "es": "Cancelar la sesión"},
    "helpdesk.see_my_tickets": {"en": "Follow it under My tickets.", "es": "Síguelo en Mis tickets."},
    # codes the helpdesk shows
    "code.category.access": {"en": "access", "es": "acceso"},
    "code.category.account": {"en": "account", "es": "cuenta"},
    "code.category.hardware": {"en": "hardware", "es": "hardware"},
    "code.category.software": {"en": "software", "es": "software"},
    "code.category.network": {"en": "network", "es": "red"},
    "code.category.payroll": {"en": "payroll", "es": "nómina"},
    "code.category.training": {"en": "training", "es": "formación"},
    "code.category.other": {"en": "other", "es": "otra"},
    "code.fact.scope": {"en": "who is affected", "es": "a quién afecta"},
    "code.fact.error": {"en": "error", "es": "error"},
    "code.fact.since": {"en": "since", "es": "desde"},
    "code.fact.details": {"en": "details", "es": "detalles"},
    "code.step.search_duplicates": {"en": "searched existing tickets", "es": "buscó tickets existentes"},
    "code.step.retry_kb": {"en": "searched the knowledge base", "es": "buscó en la base de conocimiento"},
    "code.step.web_search": {"en": "searched the web", "es": "buscó en la web"},
    "code.step.classifier": {"en": "classified the problem", "es": "clasificó el problema"},
    "code.step.clarifier": {"en": "asked a question", "es": "hizo una pregunta"},
    "code.step.proposer": {"en": "suggested a fix", "es": "sugirió una solución"},
    "code.step.link_existing": {"en": "offered a duplicate", "es": "ofreció un duplicado"},
    "code.step.writer": {"en": "wrote the draft", "es": "redactó el borrador"},
    "code.step.file_ticket": {"en": "filed the ticket", "es": "creó el ticket"},
    "code.outcome.ok": {"en": "ok", "es": "bien"},
    "code.outcome.error": {"en": "failed", "es": "falló"},
    "code.outcome.timeout": {"en": "timed out", "es": "tiempo agotado"},
    "code.role.user": {"en": "Person", "es": "Persona"},
    "code.role.assistant": {"en": "Agent", "es": "Agente"},
}
