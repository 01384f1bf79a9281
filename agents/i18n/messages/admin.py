"""The admin assistant: its replies, the names it resolves, the writes it proposes and confirms, its page (the
other admin pages' texts are in admin_pages.py)."""

MESSAGES = {
    "admin.still_pending": {
        "en": "This change is still waiting for you: {preview}\n\nConfirm it (the button, or type “yes”) or "
        "cancel it (“no”) before asking for another change.",
        "es": "Este cambio sigue pendiente de confirmar: {preview}\n\nConfírmalo (el botón, o escribe «sí») o "
        "cancélalo («no») antes de pedir otro cambio.",
    },
    "admin.nothing_pending": {
        "en": "There is nothing waiting for a confirmation; nothing was changed.",
        "es": "No hay nada pendiente de confirmar; no se cambió nada.",
    },
    "admin.reply.who_knows_unknown": {
        "en": "Nobody: no skill called “{skill}” is recorded in the organisation. Closest skills: {closest}.",
        "es": "Nadie: no hay ninguna habilidad «{skill}» registrada en la organización. Las más parecidas: {closest}.",
    },
    "admin.reply.first_n": {
        "en": "(the first {shown} of {total}; all of them in the table below)",
        "es": "(las {shown} primeras de {total}; todas en la tabla de abajo)",
    },
    "admin.reply.none_m": {"en": "none", "es": "ninguno"},
    "admin.reply.none_f": {"en": "none", "es": "ninguna"},
    "admin.reply.nobody": {"en": "nobody", "es": "nadie"},
    "admin.reply.no_skills": {"en": "none recorded", "es": "sin registrar"},
    "admin.reply.employees": {
        "en": "{n, plural, one {# person} other {# people}} ({active} active): {names}.",
        "es": "{n, plural, one {# persona} other {# personas}} ({active, plural, one {# activa} other {# activas}}): {names}.",
    },
    "admin.reply.account_active": {"en": "active account", "es": "cuenta activa"},
    "admin.reply.account_inactive": {"en": "deactivated account", "es": "cuenta desactivada"},
    "admin.reply.employee_detail": {
        "en": "{name} — {role}. Courses: {courses}. Skills: {skills}.",
        "es": "{name} — {role}. Cursos: {courses}. Habilidades: {skills}.",
    },
    "admin.reply.matrix": {
        "en": "Skills matrix: {employees} employees × {skills} skills (table below).",
        "es": "Matriz de habilidades: {employees} empleados × {skills} habilidades (tabla abajo).",
    },
    "admin.reply.gaps": {
        "en": "{n, plural, one {# skill has} other {# skills have}} fewer than {threshold, plural, one {# expert} other {# experts}}: {gaps}.",
        "es": "{n, plural, one {# habilidad tiene} other {# habilidades tienen}} menos de {threshold, plural, one {# experto} other {# expertos}}: {gaps}.",
    },
    "admin.reply.who_knows": {
        "en": "{n, plural, one {# person knows} other {# people know}} {skills} at {level} level or above: {people}.",
        "es": "{n, plural, one {# persona sabe} other {# personas saben}} {skills} con nivel {level} o superior: {people}.",
    },
    "admin.reply.who_knows_exactly": {
        "en": "{n, plural, one {# person knows} other {# people know}} {skills} at {level} level (that level only): "
        "{people}.",
        "es": "{n, plural, one {# persona sabe} other {# personas saben}} {skills} con nivel {level} (solo ese "
        "nivel): {people}.",
    },
    "admin.reply.courses": {
        "en": "{n, plural, one {# course} other {# courses}}: {courses}.",
        "es": "{n, plural, one {# curso} other {# cursos}}: {courses}.",
    },
    "admin.reply.hardest_item": {"en": "“{prompt}” ({rate} wrong)", "es": "«{prompt}» ({rate} de fallos)"},
    "admin.reply.course_stats": {
        "en": "“{title}” ({status}): {enrolled} enrolled, {completed} completed ({rate}), {overdue} overdue, "
        "average score {score}.",
        "es": "«{title}» ({status}): {enrolled, plural, one {# inscrito} other {# inscritos}}, "
        "{completed, plural, one {# completado} other {# completados}} ({rate}), "
        "{overdue, plural, one {# vencido} other {# vencidos}}, nota media {score}.",
    },
    "admin.reply.hardest": {"en": "Most failed: {items}.", "es": "Lo que más se falla: {items}."},
    "admin.reply.course_item": {
        "en": "{title} ({status}, {enrolled} enrolled)",
        "es": "{title} ({status}, {enrolled, plural, one {# inscrito} other {# inscritos}})",
    },
    "admin.reply.finished": {"en": "Finished ({n}): {people}.", "es": "Ya lo han terminado ({n}): {people}."},
    "admin.reply.unfinished": {
        "en": "Not finished yet ({n}): {people}.",
        "es": "Aún sin terminar ({n}): {people}.",
    },
    "admin.reply.all_finished": {
        "en": "Everyone enrolled has finished it.",
        "es": "Todos los inscritos lo han terminado.",
    },
    "admin.reply.due": {"en": ", due {date}", "es": ", fecha límite {date}"},
    "admin.reply.alerts": {
        "en": "{n, plural, one {# alert} other {# alerts}} ({high} high). {top}",
        "es": "{n, plural, one {# alerta} other {# alertas}} ({high, plural, one {# alta} other {# altas}}). {top}",
    },
    "admin.reply.alerts_scoped": {"en": "{scope} — {alerts}", "es": "{scope} — {alerts}"},
    "admin.reply.alerts_of_kind": {
        "en": "{n, plural, one {# alert} other {# alerts}} “{kind}”: {top}.",
        "es": "{n, plural, one {# alerta} other {# alertas}} «{kind}»: {top}.",
    },
    "admin.reply.mentorship": {
        "en": "{n, plural, one {# mentoring pair suggested} other {# mentoring pairs suggested}}: {pairs}.",
        "es": "{n, plural, one {# pareja de mentoría sugerida} other {# parejas de mentoría sugeridas}}: {pairs}.",
    },
    "admin.resolve.which_employee": {
        "en": "Tell me which employee (a name or an email).",
        "es": "Dime qué empleado (nombre o correo).",
    },
    "admin.resolve.no_employee": {
        "en": "No employee matches “{label}”.",
        "es": "Ningún empleado coincide con «{label}».",
    },
    "admin.resolve.several_employees": {
        "en": "Several employees match “{label}”; which one?",
        "es": "Varios empleados coinciden con «{label}»; ¿cuál?",
    },
    "admin.resolve.which_course": {"en": "Tell me which course.", "es": "Dime qué curso."},
    "admin.write.gone": {
        "en": "“{label}” no longer exists; nothing was changed.",
        "es": "«{label}» ya no existe; no se ha cambiado nada.",
    },
    "admin.resolve.no_course": {
        "en": "No course matches “{label}”. Courses: {titles}.",
        "es": "Ningún curso coincide con «{label}». Cursos: {titles}.",
    },
    "admin.resolve.no_department": {
        "en": "Nobody active works in a department called “{label}”.",
        "es": "No hay nadie activo en un departamento llamado «{label}».",
    },
    "admin.resolve.several_courses": {
        "en": "Several courses match “{label}”; which one?",
        "es": "Varios cursos coinciden con «{label}»; ¿cuál?",
    },
    "admin.resolve.which_skill": {"en": "Tell me which skill.", "es": "Dime qué habilidad."},
    "admin.resolve.no_skill": {
        "en": "No skill matches “{label}”. Closest: {closest}.",
        "es": "Ninguna habilidad coincide con «{label}». Las más parecidas: {closest}.",
    },
    "admin.resolve.several_skills": {
        "en": "Several skills match “{label}”; which one?",
        "es": "Varias habilidades coinciden con «{label}»; ¿cuál?",
    },
    "admin.resolve.not_a_date": {
        "en": "I can't read “{value}” as a date, so nothing was prepared: give the deadline "
        "as a day (31/12/2026, “next Friday”, “by the end of the month”).",
        "es": "No sé leer «{value}» como fecha, así que no preparé nada: dime la fecha límite "
        "como un día (31/12/2026, «el próximo viernes», «para final de mes»).",
    },
    "admin.resolve.past_deadline": {
        "en": "The deadline {deadline} is in the past.",
        "es": "La fecha límite {deadline} ya pasó.",
    },
    "admin.write.by": {"en": "By: {admin} · runs when you confirm", "es": "Por: {admin} · se ejecuta cuando confirmes"},
    "admin.write.no_deadline": {"en": "no deadline", "es": "sin fecha límite"},
    "admin.write.due": {"en": "{date}, a {weekday}", "es": "{date}, {weekday}"},
    "admin.write.course_archived": {
        "en": "“{title}” is archived; it can't be assigned.",
        "es": "«{title}» está archivado; no se puede asignar.",
    },
    "admin.write.assign_who": {"en": "Tell me who should take the course.", "es": "Dime a quién asigno el curso."},
    "admin.write.assign_what": {
        "en": "Assign “{title}”: {n, plural, one {# enrollment changes} other {# enrollments change}}.",
        "es": "Asignar «{title}»: {n, plural, one {cambia # inscripción} other {cambian # inscripciones}}.",
    },
    "admin.write.assign_new": {
        "en": "{name}: new enrollment, {deadline}.",
        "es": "{name}: nueva inscripción, {deadline}.",
    },
    "admin.write.assign_state": {"en": "{status}, {progress} done", "es": "{status}, {progress} hecho"},
    "admin.write.assign_unchanged": {
        "en": "{name}: already enrolled ({state}; {deadline}); nothing changes.",
        "es": "{name}: ya inscrito/a ({state}; {deadline}); no cambia nada.",
    },
    "admin.write.assign_reopen": {
        "en": "{name}: cancelled enrollment assigned again, progress kept, {deadline}.",
        "es": "{name}: inscripción cancelada que se asigna de nuevo, conserva el progreso, {deadline}.",
    },
    "admin.write.assign_deadline": {
        "en": "{name}: deadline {before} → {after} (keeps {state}).",
        "es": "{name}: fecha límite {before} → {after} (conserva {state}).",
    },
    "admin.write.assign_nothing": {
        "en": "Nothing to change in “{title}”:",
        "es": "No hay nada que cambiar en «{title}»:",
    },
    "admin.write.assign_done": {"en": "“{title}” assigned to {names}.", "es": "«{title}» asignado a {names}."},
    "admin.write.deadline_done": {
        "en": "New deadline in “{title}”: {changes}.",
        "es": "Nueva fecha límite en «{title}»: {changes}.",
    },
    "admin.write.level_choice": {
        "en": "The level must be one of: {levels}.",
        "es": "El nivel debe ser uno de: {levels}.",
    },
    "admin.write.verify_nothing": {
        "en": "{name} is already verified at {level} in “{skill}”; nothing to change.",
        "es": "{name} ya tiene verificado el nivel {level} en «{skill}»; no hay nada que cambiar.",
    },
    "admin.write.skill_before": {"en": "{level} ({source}, {date})", "es": "{level} ({source}, {date})"},
    "admin.write.verify_what": {
        "en": "Set {name}'s level in “{skill}”: {before} → {after} (verified by an admin).",
        "es": "Fijar el nivel de {name} en «{skill}»: {before} → {after} (verificado por un administrador).",
    },
    "admin.write.verify_done": {
        "en": "{name} is now at {level} level in “{skill}”.",
        "es": "{name} tiene ahora nivel {level} en «{skill}».",
    },
    "admin.write.deactivate_self": {
        "en": "You can't deactivate your own account.",
        "es": "No puedes desactivar tu propia cuenta.",
    },
    "admin.write.deactivate_already": {"en": "{name} is already inactive.", "es": "{name} ya está inactivo/a."},
    "admin.write.deactivate_what": {
        "en": "Deactivate {name} ({email}): {before} → {after}. They can no longer sign in; their data is kept.",
        "es": "Desactivar a {name} ({email}): {before} → {after}. No podrá iniciar sesión; sus datos se conservan.",
    },
    "admin.write.deactivate_done": {"en": "{name} is deactivated.", "es": "{name} está desactivado/a."},
    "admin.write.archive_already": {"en": "“{title}” is already archived.", "es": "«{title}» ya está archivado."},
    "admin.write.archive_what": {
        "en": "Archive “{title}”: {before} → {after}; {open, plural, one {# open enrollment will be marked completed} other {# open enrollments will be marked completed}}.",
        "es": "Archivar «{title}»: {before} → {after}; {open, plural, one {# inscripción abierta se marcará como completada} other {# inscripciones abiertas se marcarán como completadas}}.",
    },
    "admin.write.archive_done": {
        "en": "“{title}” archived; {closed, plural, one {# enrollment} other {# enrollments}} closed.",
        "es": "«{title}» archivado; {closed, plural, one {# inscripción cerrada} other {# inscripciones cerradas}}.",
    },
    "admin.phrase.not_understood": {
        "en": "I couldn't match that to something I can do here.",
        "es": "No he podido relacionar eso con algo que sepa hacer aquí.",
    },
    "admin.phrase.help": {
        "en": "I can list employees, show an employee's detail, the skills matrix, skill gaps, who knows a skill, "
        "courses and their statistics, alerts and mentorship suggestions; and — after your confirm — assign "
        "courses, verify skill levels, deactivate employees and archive courses.",
        "es": "Puedo listar empleados, mostrar el detalle de una persona, la matriz de habilidades, las brechas, "
        "quién sabe de algo, los cursos y sus estadísticas, las alertas y sugerencias de mentoría; y —tras tu "
        "confirmación— asignar cursos, verificar niveles, desactivar empleados y archivar cursos.",
    },
    "admin.phrase.preview_ask": {
        "en": "Confirm to run it (the button, or type “yes”), or cancel it (“no”).",
        "es": "Confirma para ejecutarlo (el botón, o escribe «sí»), o cancélalo («no»).",
    },
    "admin.phrase.still_waiting_line": {
        "en": "Still waiting for your confirmation: {preview} Confirm it (the button, or “yes”) or cancel it (“no”).",
        "es": "Sigue pendiente de confirmar: {preview} Confírmalo (el botón, o «sí») o cancélalo («no»).",
    },
    "admin.phrase.done": {"en": "Done: {message}", "es": "Hecho: {message}"},
    "admin.phrase.cancelled": {
        "en": "Cancelled, nothing was changed: {preview}",
        "es": "Cancelado, no se cambió nada: {preview}",
    },
    "admin.phrase.next_step": {
        "en": "Next step, when you're ready: “{step}”",
        "es": "Siguiente paso, cuando quieras: «{step}»",
    },
    "admin.phrase.amended": {
        "en": "Changed as you asked; the previous preview can no longer be confirmed.",
        "es": "Cambiado como pediste; la vista previa anterior ya no se puede confirmar.",
    },
    "admin.phrase.already_done": {
        "en": "That action was already carried out; nothing was written again.",
        "es": "Esa acción ya se ejecutó; no se volvió a escribir nada.",
    },
    "admin.phrase.not_pending": {
        "en": "That action is not pending any more (cancelled or replaced); nothing was changed.",
        "es": "Esa acción ya no está pendiente (cancelada o sustituida); no se cambió nada.",
    },
    "admin.only_admins": {
        "en": "The admin assistant is for HR admins only.",
        "es": "El asistente de administración es solo para administradores.",
    },
    "admin.unknown_session": {"en": "Unknown session {session}.", "es": "Sesión desconocida: {session}."},
    "admin.write_a_message": {"en": "Write a message.", "es": "Escribe un mensaje."},
    "admin.confirm_or_cancel": {
        "en": "Confirm or cancel, not both: nothing was done.",
        "es": "Confirma o cancela, no las dos cosas: no se hizo nada.",
    },
    "admin.actions.title": {"en": "Change something for this person", "es": "Cambiar algo de esta persona"},
    "admin.actions.tab_assign": {"en": "Assign a course", "es": "Asignar un curso"},
    "admin.actions.tab_verify": {"en": "Verify a skill", "es": "Verificar una habilidad"},
    "admin.actions.tab_deactivate": {"en": "Deactivate", "es": "Desactivar"},
    "admin.actions.deadline": {"en": "Deadline (optional)", "es": "Fecha límite (opcional)"},
    "admin.actions.preview": {"en": "Preview the change", "es": "Ver el cambio"},
    "admin.actions.deactivate_hint": {
        "en": "They will no longer sign in; their data is kept.",
        "es": "No podrá iniciar sesión; sus datos se conservan.",
    },
    "admin.actions.unknown": {
        "en": "“{tool}” is not a change this page makes.",
        "es": "«{tool}» no es un cambio que haga esta página.",
    },
    "admin.assistant.running": {"en": "🔧 {tool}…", "es": "🔧 {tool}…"},
    "admin.assistant.engine_tokens": {
        "en": "engine: {engine} · {tokens} tokens",
        "es": "motor: {engine} · {tokens} tokens",
    },
    "admin.assistant.engine": {"en": "engine: {engine}", "es": "motor: {engine}"},
    "admin.assistant.examples": {
        "en": "Try one of these, or write your own:",
        "es": "Prueba una de estas o escribe la tuya:",
    },
    "admin.assistant.example_overdue": {"en": "Who has overdue courses?", "es": "¿Quién tiene cursos vencidos?"},
    "admin.assistant.example_who_knows": {
        "en": "Who knows forklift operation?",
        "es": "¿Quién sabe manejar carretillas elevadoras?",
    },
    "admin.assistant.example_person": {"en": "How is James Carter doing?", "es": "¿Cómo va Lucía Fernández?"},
    "admin.assistant.example_gaps": {
        "en": "Which skills have no expert?",
        "es": "¿Qué habilidades no tienen expertos?",
    },
    "admin.assistant.example_assign": {
        "en": "Assign Information Security Essentials to Tom Baker in 30 days",
        "es": "Asigna Seguridad de la información: lo esencial a Tom Baker en 30 días",
    },
    "admin.assistant.example_courses": {"en": "List the published courses", "es": "¿Qué cursos están publicados?"},
    "admin.assistant.title": {"en": "🤖 Admin assistant", "es": "🤖 Asistente de administración"},
    "admin.assistant.caption": {
        "en": "Reads run at once; changes only after you confirm (the button, or type “yes”).",
        "es": "Las consultas se ejecutan al momento; los cambios solo tras confirmar (el botón, o escribe «sí»).",
    },
    "admin.assistant.tool_rows": {"en": "🔧 {tool} · rows: {n}", "es": "🔧 {tool} · filas: {n}"},
    "admin.assistant.conversations": {"en": "Conversations", "es": "Conversaciones"},
    "admin.assistant.new": {"en": "➕ New", "es": "➕ Nueva"},
    "admin.assistant.manage": {"en": "This conversation", "es": "Esta conversación"},
    "admin.assistant.rename_label": {"en": "Title", "es": "Título"},
    "admin.assistant.rename": {"en": "Rename", "es": "Renombrar"},
    "admin.assistant.delete": {"en": "Delete conversation", "es": "Borrar conversación"},
    "admin.assistant.delete_sure": {
        "en": "Delete it for good (a change waiting for your confirm is cancelled)",
        "es": "Borrarla del todo (un cambio que espera tu confirmación se cancela)",
    },
    "admin.assistant.title_empty": {"en": "Write a title.", "es": "Escribe un título."},
    "admin.assistant.pending": {
        "en": "**Change awaiting your confirmation**",
        "es": "**Cambio pendiente de confirmación**",
    },
    "admin.assistant.confirm": {"en": "✅ Confirm", "es": "✅ Confirmar"},
    "admin.assistant.decided_confirm": {"en": "✔ Confirmed by you · {when}", "es": "✔ Confirmado por ti · {when}"},
    "admin.assistant.decided_cancel": {"en": "✖ Cancelled by you · {when}", "es": "✖ Cancelado por ti · {when}"},
    "admin.assistant.cancel": {"en": "✖ Cancel", "es": "✖ Cancelar"},
    "admin.assistant.input": {"en": "Ask, or request a change…", "es": "Pregunta o pide un cambio…"},
}
