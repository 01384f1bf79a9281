"""Closing the loop: knowledge gaps, stale lessons, SCORM export, skills over time, review planning."""

MESSAGES = {
    # knowledge gaps
    "insights.gaps.title": {"en": "🕳️ Knowledge gaps", "es": "🕳️ Lagunas de conocimiento"},
    "insights.gaps.caption": {
        "en": "Questions employees asked the tutor that no company document answered (it fell back to general "
        "knowledge or was unsure), grouped by meaning across languages.",
        "es": "Preguntas que los empleados hicieron al tutor y que ningún documento de la empresa respondía "
        "(contestó con conocimiento general o con poca seguridad), agrupadas por significado en todos los idiomas.",
    },
    "insights.gaps.privacy": {
        "en": "Only totals are shown. A group's questions and departments appear only when at least {n} different "
        "people asked; who asked is never shown.",
        "es": "Solo se muestran totales. Las preguntas y departamentos de un grupo aparecen solo si al menos {n} "
        "personas distintas preguntaron; nunca se muestra quién preguntó.",
    },
    "insights.gaps.days": {"en": "Period", "es": "Periodo"},
    "insights.gaps.days_option": {"en": "last {n} days", "es": "últimos {n} días"},
    "insights.gaps.none": {
        "en": "No unanswered questions in this period.",
        "es": "No hay preguntas sin respuesta en este periodo.",
    },
    "insights.gaps.small_group": {"en": "Small group ({n} questions)", "es": "Grupo pequeño ({n} preguntas)"},
    "insights.gaps.questions": {"en": "Questions", "es": "Preguntas"},
    "insights.gaps.askers": {"en": "People", "es": "Personas"},
    "insights.gaps.languages": {"en": "Languages", "es": "Idiomas"},
    "insights.gaps.departments": {"en": "Departments", "es": "Departamentos"},
    "insights.gaps.examples": {"en": "What people asked", "es": "Qué preguntaron"},
    "insights.gaps.hidden": {
        "en": "Fewer than {n} people asked: the questions stay private.",
        "es": "Preguntaron menos de {n} personas: las preguntas no se muestran.",
    },
    "insights.gaps.closest": {"en": "Closest documents", "es": "Documentos más cercanos"},
    "insights.gaps.similarity": {"en": "{title} (similarity {value})", "es": "{title} (similitud {value})"},
    "insights.gaps.draft": {"en": "Draft a lesson", "es": "Redactar una lección"},
    "insights.gaps.draft_help": {
        "en": "Starts a content-studio job on the closest documents with these questions as the brief; it goes "
        "through the usual reviews before anything is published.",
        "es": "Inicia un trabajo en el estudio de contenidos con los documentos más cercanos y estas preguntas como "
        "encargo; pasa por las revisiones habituales antes de publicarse.",
    },
    "insights.gaps.draft_started": {
        "en": "Job started. Follow it in the Content studio.",
        "es": "Trabajo iniciado. Síguelo en el estudio de contenidos.",
    },
    "insights.gaps.missing": {"en": "Missing document", "es": "Falta un documento"},
    "insights.gaps.missing_note": {
        "en": "Note for the content owner (optional)",
        "es": "Nota para el responsable del contenido (opcional)",
    },
    "insights.gaps.missing_saved": {
        "en": "Noted: the content owner will see it below.",
        "es": "Anotado: el responsable del contenido lo verá abajo.",
    },
    "insights.gaps.notes": {"en": "Missing documents noted", "es": "Documentos que faltan (anotados)"},
    "insights.gaps.no_notes": {"en": "No notes yet.", "es": "Aún no hay notas."},
    "insights.gaps.admins_only": {
        "en": "Only HR admins can act on knowledge gaps.",
        "es": "Solo los administradores pueden actuar sobre las lagunas.",
    },
    "insights.gaps.too_few_askers": {
        "en": "Fewer than {n} people asked this: it stays private.",
        "es": "Lo preguntaron menos de {n} personas: no se muestra.",
    },
    "insights.gaps.no_documents": {
        "en": "There are no documents to draft from yet.",
        "es": "Aún no hay documentos con los que redactar.",
    },
    "insights.gaps.brief": {
        "en": "Write a lesson that answers what employees asked about “{topic}”:\n{questions}",
        "es": "Redacta una lección que responda lo que los empleados preguntaron sobre «{topic}»:\n{questions}",
    },
    "insights.gaps.col_topic": {"en": "Topic", "es": "Tema"},
    "insights.gaps.col_note": {"en": "Note", "es": "Nota"},
    "insights.gaps.col_by": {"en": "Noted by", "es": "Anotado por"},
    "insights.gaps.col_when": {"en": "When", "es": "Cuándo"},
    # stale lessons
    "insights.stale.title": {"en": "Lessons whose sources changed", "es": "Lecciones cuyas fuentes cambiaron"},
    "insights.stale.caption": {
        "en": "A document was re-ingested and passages these lessons or exercises cite changed or disappeared.",
        "es": "Se volvió a cargar un documento y cambiaron o desaparecieron pasajes que citan estas lecciones o ejercicios.",
    },
    "insights.stale.none": {
        "en": "Every lesson matches its sources.",
        "es": "Todas las lecciones coinciden con sus fuentes.",
    },
    "insights.stale.module": {"en": "{course} › {module} ({n} flagged)", "es": "{course} › {module} ({n} señaladas)"},
    "insights.stale.cited_by": {"en": "Cited by:", "es": "Lo citan:"},
    "insights.stale.both_versions": {"en": "Both versions in full", "es": "Las dos versiones completas"},
    "insights.stale.item": {"en": "{kind} “{title}”", "es": "{kind} «{title}»"},
    "insights.stale.kind.lesson": {"en": "Lesson", "es": "Lección"},
    "insights.stale.kind.exercise": {"en": "Exercise", "es": "Ejercicio"},
    "insights.stale.change.changed": {"en": "changed", "es": "cambió"},
    "insights.stale.change.removed": {"en": "removed", "es": "se eliminó"},
    "insights.stale.old": {"en": "Before", "es": "Antes"},
    "insights.stale.new": {"en": "Now", "es": "Ahora"},
    "insights.stale.gone": {
        "en": "(this passage is no longer in the document)",
        "es": "(este pasaje ya no está en el documento)",
    },
    "insights.stale.regenerate": {"en": "Regenerate this module", "es": "Regenerar este módulo"},
    "insights.stale.keep": {"en": "Keep as it is", "es": "Mantener como está"},
    "insights.stale.edit_hint": {
        "en": "To edit by hand instead, change the lesson text, then choose “Keep as it is”.",
        "es": "Para editarla a mano, cambia el texto de la lección y después elige «Mantener como está».",
    },
    "insights.stale.edit": {"en": "Edit lesson text", "es": "Editar el texto de la lección"},
    "insights.stale.save_edit": {"en": "Save the text", "es": "Guardar el texto"},
    "insights.stale.saved_edit": {"en": "Lesson text saved.", "es": "Texto de la lección guardado."},
    "insights.stale.kept": {
        "en": "Kept: the decision is recorded.",
        "es": "Se mantiene: la decisión queda registrada.",
    },
    "insights.stale.draft_title": {
        "en": "New version of “{module}” ({engine}): review it before it replaces the module",
        "es": "Nueva versión de «{module}» ({engine}): revísala antes de que sustituya al módulo",
    },
    "insights.stale.draft_warning": {
        "en": "Approving replaces the module's lessons and exercises; learners' progress on this module starts again.",
        "es": "Al aprobar se sustituyen las lecciones y ejercicios del módulo; el progreso de los alumnos en este módulo vuelve a empezar.",
    },
    "insights.stale.approve": {"en": "Approve and replace", "es": "Aprobar y sustituir"},
    "insights.stale.discard": {"en": "Discard the draft", "es": "Descartar el borrador"},
    "insights.stale.replaced": {
        "en": "Module replaced; its flags are closed.",
        "es": "Módulo sustituido; sus avisos quedan cerrados.",
    },
    "insights.stale.exercises": {"en": "{n} exercises", "es": "{n} ejercicios"},
    "insights.stale.admins_only": {
        "en": "Only HR admins can review stale lessons.",
        "es": "Solo los administradores pueden revisar lecciones desactualizadas.",
    },
    "insights.stale.nothing_to_regenerate": {
        "en": "This module has no open flags.",
        "es": "Este módulo no tiene avisos abiertos.",
    },
    "insights.stale.empty_draft": {
        "en": "The draft has no lessons; nothing was changed.",
        "es": "El borrador no tiene lecciones; no se ha cambiado nada.",
    },
    "insights.stale.regenerate_instructions": {
        "en": "The source document changed: follow the current text of the sources exactly.",
        "es": "El documento fuente ha cambiado: sigue exactamente el texto actual de las fuentes.",
    },
    "insights.stale.learner_note": {
        "en": "📣 Updated policy: the document this lesson is based on has changed since it was written. "
        "Check the current document before applying it.",
        "es": "📣 Política actualizada: el documento en el que se basa esta lección ha cambiado desde que se escribió. "
        "Consulta el documento actual antes de aplicarla.",
    },
    # SCORM export (the package speaks the course's language)
    "insights.scorm.download": {"en": "⬇️ SCORM 1.2 package", "es": "⬇️ Paquete SCORM 1.2"},
    "insights.scorm.download_help": {
        "en": "For your company's LMS: the lessons and a quiz that reports the score and passed/failed.",
        "es": "Para el LMS de tu empresa: las lecciones y un cuestionario que informa de la nota y de aprobado/suspenso.",
    },
    "insights.scorm.quiz": {"en": "Check what you learned", "es": "Comprueba lo aprendido"},
    "insights.scorm.submit": {"en": "Submit answers", "es": "Enviar respuestas"},
    "insights.scorm.passed": {"en": "Passed", "es": "Aprobado"},
    "insights.scorm.failed": {"en": "Not passed yet", "es": "Aún no aprobado"},
    "insights.scorm.score": {"en": "score", "es": "nota"},
    "insights.scorm.not_graded": {
        "en": "Not scored: compare your answer with the model answer.",
        "es": "No puntúa: compara tu respuesta con la respuesta modelo.",
    },
    "insights.scorm.model_answer": {"en": "Model answer", "es": "Respuesta modelo"},
    "insights.scorm.restart_dialogue": {"en": "Start the conversation again", "es": "Empezar de nuevo la conversación"},
    "insights.scorm.your_order": {
        "en": "Number the steps in the right order:",
        "es": "Numera los pasos en el orden correcto:",
    },
    "insights.scorm.true": {"en": "True", "es": "Verdadero"},
    "insights.scorm.false": {"en": "False", "es": "Falso"},
    "insights.scorm.answer_all": {
        "en": "Answer every exercise first.",
        "es": "Responde primero a todos los ejercicios.",
    },
    "insights.scorm.correct": {"en": "Correct.", "es": "Correcto."},
    "insights.scorm.wrong": {"en": "Not quite.", "es": "No exactamente."},
    # skills over time
    "insights.skills.evolution": {"en": "Skills evolution", "es": "Evolución de las habilidades"},
    "insights.skills.evolution_caption": {
        "en": "Mean level of the people holding each skill, stepping at every change (course checkpoints, HR verification).",
        "es": "Nivel medio de quienes tienen cada habilidad, con un escalón en cada cambio (ejercicios de los cursos, verificación de RR. HH.).",
    },
    "insights.skills.person_caption": {
        "en": "Level of each skill over time, with every change and its source.",
        "es": "Nivel de cada habilidad a lo largo del tiempo, con cada cambio y su origen.",
    },
    "insights.skills.all": {"en": "All", "es": "Todos"},
    "insights.skills.department": {"en": "Department", "es": "Departamento"},
    "insights.skills.skill": {"en": "Skill", "es": "Habilidad"},
    "insights.skills.level_axis": {"en": "Level", "es": "Nivel"},
    "insights.skills.no_history": {
        "en": "No level changes recorded yet.",
        "es": "Aún no hay cambios de nivel registrados.",
    },
    "insights.skills.changes": {"en": "Level changes", "es": "Cambios de nivel"},
    "insights.skills.expiry": {"en": "Certification expiry", "es": "Caducidad de la certificación"},
    "insights.skills.expiry_caption": {
        "en": "Verified skills can expire (a forklift licence, first aid): alerts start {days} days before.",
        "es": "Las habilidades verificadas pueden caducar (carné de carretillero, primeros auxilios): las alertas empiezan {days} días antes.",
    },
    "insights.skills.expires_on": {"en": "Expires on", "es": "Caduca el"},
    "insights.skills.no_expiry": {"en": "Does not expire", "es": "No caduca"},
    "insights.skills.save_expiry": {"en": "Save expiry", "es": "Guardar caducidad"},
    "insights.skills.expiry_saved": {"en": "Expiry saved.", "es": "Caducidad guardada."},
    "insights.skills.no_verified": {
        "en": "No skills verified by HR: only those can expire.",
        "es": "No hay habilidades verificadas por RR. HH.: solo esas pueden caducar.",
    },
    "insights.skills.not_verified": {
        "en": "Only skills verified by HR can expire.",
        "es": "Solo pueden caducar las habilidades verificadas por RR. HH.",
    },
    "insights.skills.expiring": {
        "en": "{skill}: expires on {date} (in {days, plural, one {# day} other {# days}})",
        "es": "{skill}: caduca el {date} (dentro de {days, plural, one {# día} other {# días}})",
    },
    "insights.skills.expired": {
        "en": "{skill}: expired on {date} ({days, plural, one {# day} other {# days}} ago)",
        "es": "{skill}: caducó el {date} (hace {days, plural, one {# día} other {# días}})",
    },
    "insights.skills.col_date": {"en": "Date", "es": "Fecha"},
    "insights.skills.col_level": {"en": "Level", "es": "Nivel"},
    "insights.skills.col_previous": {"en": "Before", "es": "Antes"},
    "insights.skills.col_source": {"en": "Source", "es": "Origen"},
    "code.kind.skill_expiring": {"en": "certification expiring", "es": "certificación por caducar"},
    "code.kind.skill_expired": {"en": "certification expired", "es": "certificación caducada"},
    "code.source.checkpoint": {"en": "course checkpoint", "es": "ejercicios del curso"},
    "code.source.admin": {"en": "HR verification", "es": "verificación de RR. HH."},
    "code.source.decay": {"en": "decay", "es": "caída por desuso"},
    # reviews people can plan
    "insights.reviews.forecast": {"en": "Your next 30 days", "es": "Tus próximos 30 días"},
    "insights.reviews.forecast_caption": {
        "en": "Reviews expected each day if you keep up (the organisation aims for {retention} recall).",
        "es": "Repasos previstos cada día si los vas haciendo (la organización busca recordar un {retention}).",
    },
    "insights.reviews.none_planned": {
        "en": "No reviews planned yet: they appear after you answer exercises.",
        "es": "Aún no hay repasos previstos: aparecen cuando respondes ejercicios.",
    },
    "insights.reviews.day": {"en": "Day", "es": "Día"},
    "insights.reviews.count": {"en": "Reviews", "es": "Repasos"},
    "insights.reviews.total": {
        "en": "{n} reviews in 30 days · busiest day {day} ({peak})",
        "es": "{n} repasos en 30 días · día de más carga {day} ({peak})",
    },
    "insights.reviews.planning": {"en": "Review planning", "es": "Planificación de repasos"},
    "insights.reviews.retention": {"en": "Desired retention", "es": "Retención deseada"},
    "insights.reviews.tradeoff": {
        "en": "The share of reviewed material people should still remember when a review comes due. Higher means "
        "shorter gaps between reviews, so more reviews a day: going from 90% to 95% brings about half as "
        "many reviews again for a small gain; below 80% reviews are rare but much is forgotten.",
        "es": "La parte de lo repasado que las personas deberían recordar cuando toca repasar. Más alta significa "
        "intervalos más cortos y, por tanto, más repasos al día: pasar del 90 % al 95 % añade cerca de la mitad "
        "de repasos para una ganancia pequeña; por debajo del 80 % hay pocos repasos, pero se olvida mucho.",
    },
    "insights.reviews.save_retention": {"en": "Save retention", "es": "Guardar retención"},
    "insights.reviews.retention_saved": {
        "en": "Retention saved: new reviews are planned with it.",
        "es": "Retención guardada: los nuevos repasos se planifican con ella.",
    },
    "insights.reviews.retention_bounds": {
        "en": "The desired retention must be between {low} and {high}.",
        "es": "La retención deseada debe estar entre {low} y {high}.",
    },
    "insights.reviews.course_forecast": {
        "en": "Reviews expected per learner (this course)",
        "es": "Repasos previstos por persona (este curso)",
    },
    "insights.reviews.no_cards": {
        "en": "No review cards in this course yet.",
        "es": "Aún no hay tarjetas de repaso en este curso.",
    },
    "insights.reviews.col_learner": {"en": "Learner", "es": "Persona"},
    "insights.reviews.col_today": {"en": "Today", "es": "Hoy"},
    "insights.reviews.col_7": {"en": "Next 7 days", "es": "Próximos 7 días"},
    "insights.reviews.col_30": {"en": "Next 30 days", "es": "Próximos 30 días"},
    "insights.reviews.col_busiest": {"en": "Busiest day", "es": "Día de más carga"},
    "insights.reviews.optimise": {"en": "Fit FSRS to our reviews", "es": "Ajustar FSRS a nuestros repasos"},
    "insights.reviews.optimise_help": {
        "en": "Learns this organisation's forgetting curve from its graded answers; the fit is used only if it "
        "predicts recall better (lower log-loss) than FSRS's defaults.",
        "es": "Aprende la curva de olvido de esta organización a partir de sus respuestas corregidas; el ajuste "
        "solo se usa si predice el recuerdo mejor (log-loss más bajo) que los valores por defecto de FSRS.",
    },
    "insights.reviews.optimised": {
        "en": "Fitted on {n} reviews: log-loss {before} with FSRS's defaults, {after} fitted ({verdict}).",
        "es": "Ajustado con {n} repasos: log-loss {before} con los valores por defecto, {after} ajustado ({verdict}).",
    },
    "insights.reviews.applied": {"en": "in use", "es": "en uso"},
    "insights.reviews.not_applied": {
        "en": "not better: defaults kept",
        "es": "no mejora: se mantienen los valores por defecto",
    },
    "insights.reviews.too_few": {
        "en": "Only {n} repeat reviews so far: fitting needs at least {needed}.",
        "es": "Por ahora solo hay {n} repasos repetidos: el ajuste necesita al menos {needed}.",
    },
    "insights.reviews.no_optimiser": {
        "en": "FSRS's optimiser needs PyTorch, which is not installed here (pip install torch==2.13.0).",
        "es": "El optimizador de FSRS necesita PyTorch, que no está instalado aquí (pip install torch==2.13.0).",
    },
}
