"""Helpdesk tickets after filing: My tickets, the notifications, the staff ticket page and staff's writes with
their one-line refusals (agents/helpdesk/staff.py, following.py)."""

MESSAGES = {
    # My tickets
    "helpdesk.my_tickets_title": {"en": "🎟️ My tickets", "es": "🎟️ Mis tickets"},
    "helpdesk.my_tickets_empty": {"en": "You have no tickets yet.", "es": "Todavía no tienes tickets."},
    "helpdesk.ask_for_help": {"en": "Ask the Helpdesk for help", "es": "Pide ayuda en la página de Ayuda"},
    "helpdesk.mark_read": {"en": "Mark notifications as read", "es": "Marcar avisos como leídos"},
    "helpdesk.last_change": {"en": "last change {when}", "es": "último cambio {when}"},
    "helpdesk.reported_by_me": {"en": "reported by you", "es": "lo reportaste tú"},
    "helpdesk.linked_by_me": {"en": "you linked your report", "es": "enlazaste tu reporte"},
    "helpdesk.affected_count": {
        "en": "{count, plural, one {# person affected} other {# people affected}}",
        "es": "{count, plural, one {# persona afectada} other {# personas afectadas}}",
    },
    # notifications
    "helpdesk.notify_ticket_status": {
        "en": "Ticket #{number} is now {status}.",
        "es": "El ticket #{number} está ahora {status}.",
    },
    "helpdesk.notify_ticket_note": {
        "en": "Staff wrote a note on ticket #{number}.",
        "es": "Soporte escribió una nota en el ticket #{number}.",
    },
    "helpdesk.notify_ticket_assigned": {
        "en": "Ticket #{number} was assigned to you.",
        "es": "Se te asignó el ticket #{number}.",
    },
    "helpdesk.notify_ticket_linked": {
        "en": "Someone else hit ticket #{number}: {count} people affected now.",
        "es": "Otra persona tiene el problema del ticket #{number}: ya son {count} afectados.",
    },
    # staff ticket page
    "helpdesk.admin_title": {"en": "🎫 Helpdesk tickets", "es": "🎫 Tickets de ayuda"},
    "helpdesk.filters": {"en": "Filters", "es": "Filtros"},
    "helpdesk.choose_options": {"en": "Any", "es": "Cualquiera"},
    "helpdesk.filter_text": {
        "en": "Search title, reporter or department",
        "es": "Buscar por título, persona o departamento",
    },
    "helpdesk.assignee_filter_all": {"en": "Anyone or nobody", "es": "Cualquiera o nadie"},
    "helpdesk.assignee_filter_me": {"en": "Assigned to me", "es": "Asignados a mí"},
    "helpdesk.assignee_filter_nobody": {"en": "Unassigned", "es": "Sin asignar"},
    "helpdesk.no_tickets": {"en": "No tickets match these filters.", "es": "Ningún ticket coincide con estos filtros."},
    "helpdesk.col_number": {"en": "#", "es": "#"},
    "helpdesk.col_title": {"en": "Title", "es": "Título"},
    "helpdesk.col_reporter": {"en": "Reporter", "es": "Reportado por"},
    "helpdesk.col_department": {"en": "Department", "es": "Departamento"},
    "helpdesk.col_created_at": {"en": "Created", "es": "Creado"},
    "helpdesk.col_status": {"en": "Status", "es": "Estado"},
    "helpdesk.col_severity": {"en": "Severity", "es": "Gravedad"},
    "helpdesk.col_category": {"en": "Category", "es": "Categoría"},
    "helpdesk.col_affected": {"en": "Affected", "es": "Afectados"},
    "helpdesk.col_assignee": {"en": "Assignee", "es": "Asignado a"},
    "helpdesk.open_ticket": {"en": "Ticket", "es": "Ticket"},
    "helpdesk.reported_by": {
        "en": "reported by {name} ({department}) on {when}",
        "es": "reportado por {name} ({department}) el {when}",
    },
    "helpdesk.reported_by_no_department": {
        "en": "reported by {name} on {when}",
        "es": "reportado por {name} el {when}",
    },
    "helpdesk.external_issue": {"en": "External issue", "es": "Incidencia externa"},
    "helpdesk.drafted_by_agent": {
        "en": "Drafted with the helpdesk assistant, then reviewed and filed by the reporter; "
        "the conversation is in the «{tab}» tab.",
        "es": "Redactado con el asistente de ayuda y revisado y enviado por quien lo reporta; "
        "la conversación está en la pestaña «{tab}».",
    },
    "helpdesk.tab_description": {"en": "Description", "es": "Descripción"},
    "helpdesk.tab_snapshot": {"en": "Conversation", "es": "Conversación"},
    "helpdesk.tab_linked": {"en": "Linked reports ({count})", "es": "Reportes enlazados ({count})"},
    "helpdesk.tab_history": {"en": "History", "es": "Historial"},
    "helpdesk.facts": {"en": "Facts gathered", "es": "Datos recogidos"},
    "helpdesk.agent_steps": {"en": "What the agent did", "es": "Qué hizo el agente"},
    "helpdesk.no_snapshot": {"en": "This ticket has no conversation.", "es": "Este ticket no tiene conversación."},
    "helpdesk.no_linked": {"en": "Nobody else linked a report yet.", "es": "Nadie más ha enlazado un reporte todavía."},
    "helpdesk.no_history": {"en": "No changes yet.", "es": "Sin cambios todavía."},
    "helpdesk.event_status": {"en": "status {old} → {new}", "es": "estado {old} → {new}"},
    "helpdesk.event_assigned": {"en": "assigned to {new}", "es": "asignado a {new}"},
    "helpdesk.event_note": {"en": "note", "es": "nota"},
    "helpdesk.event_linked": {"en": "linked their report", "es": "enlazó su reporte"},
    "helpdesk.visibility_internal": {"en": "internal", "es": "interna"},
    "helpdesk.visibility_reporter": {"en": "visible to the people affected", "es": "visible para los afectados"},
    "helpdesk.change_status": {"en": "Change status", "es": "Cambiar estado"},
    "helpdesk.new_status": {"en": "New status", "es": "Nuevo estado"},
    "helpdesk.status_note": {"en": "Note for the people affected", "es": "Nota para los afectados"},
    "helpdesk.save_status": {"en": "Save status", "es": "Guardar estado"},
    "helpdesk.assign_to": {"en": "Assign to", "es": "Asignar a"},
    "helpdesk.nobody": {"en": "Nobody", "es": "Nadie"},
    "helpdesk.save_assignee": {"en": "Save assignee", "es": "Guardar asignación"},
    "helpdesk.add_note": {"en": "Add a note", "es": "Añadir una nota"},
    "helpdesk.note": {"en": "Note", "es": "Nota"},
    "helpdesk.note_for_reporter": {
        "en": "Visible to the people affected (otherwise internal)",
        "es": "Visible para los afectados (si no, interna)",
    },
    "helpdesk.save_note": {"en": "Save note", "es": "Guardar nota"},
    # staff writes: confirmations and one-line refusals
    "helpdesk.ticket_not_found": {"en": "That ticket does not exist.", "es": "Ese ticket no existe."},
    "helpdesk.invalid_status": {"en": "Unknown status.", "es": "Estado desconocido."},
    "helpdesk.status_unchanged": {
        "en": "The ticket already has that status; add a note to change it anyway.",
        "es": "El ticket ya tiene ese estado; añade una nota para cambiarlo igualmente.",
    },
    "helpdesk.status_changed": {
        "en": "Ticket #{number} is now {status}; the people affected were notified.",
        "es": "El ticket #{number} está ahora {status}; se avisó a los afectados.",
    },
    "helpdesk.assignee_unchanged": {
        "en": "The ticket already has that assignee.",
        "es": "El ticket ya tiene esa asignación.",
    },
    "helpdesk.assignee_invalid": {
        "en": "Only an admin of this organisation can be assigned.",
        "es": "Solo se puede asignar a un administrador de esta organización.",
    },
    "helpdesk.assigned_to": {"en": "Ticket #{number} assigned to {name}.", "es": "Ticket #{number} asignado a {name}."},
    "helpdesk.unassigned": {
        "en": "Ticket #{number} is unassigned now.",
        "es": "El ticket #{number} ya no está asignado.",
    },
    "helpdesk.note_empty": {"en": "Write the note first.", "es": "Escribe primero la nota."},
    "helpdesk.note_added": {"en": "Note added to ticket #{number}.", "es": "Nota añadida al ticket #{number}."},
    "helpdesk.erase_unknown": {
        "en": "No person with that email in this organisation.",
        "es": "No hay nadie con ese correo en esta organización.",
    },
    "helpdesk.erase_self": {
        "en": "You cannot erase your own data here.",
        "es": "No puedes borrar aquí tus propios datos.",
    },
    "helpdesk.erase_stale": {
        "en": "The data changed since the preview; preview again.",
        "es": "Los datos cambiaron desde la vista previa; vuelve a revisarla.",
    },
}
