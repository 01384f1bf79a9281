"""Closing the loop: knowledge gaps, stale lessons, SCORM export, skills over time, review planning."""
MESSAGES = {
    # knowledge gaps
    "insights.gaps.title": {"en": "🕳️ Knowledge gaps", "es": "🕳️ Lagunas de conocimiento"},
    "insights.gaps.caption": {
        "en": "Questions employees asked the tutor that no company document answered (it fell back to general "
              "knowledge or was unsure), grouped by meaning across languages.",
        "es": "Preguntas que los empleados hicieron al tutor y que ningún documento de la empresa respondía "
              "(contestó con conocimiento general o con poca seguridad), agrupadas por significado en todos los idiomas."},
    "insights.gaps.privacy": {
        "en": "Only totals are shown. A group's questions and departments appear only when at least {n} different "
              "people asked; who asked is never shown.",
        "es": "Solo se muestran totales. Las preguntas y departamentos de un grupo aparecen solo si al menos {n} "
              "personas distintas preguntaron; nunca se muestra quién preguntó."},
    "insights.gaps.days": {"en": "Period", "es": "Periodo"},
    "insights.gaps.days_option": {"en": "last {n} days", "es": "últimos {n} días"},
    "insights.gaps.none": {"en": "No unanswered questions in this period.",
                           "es": "No hay preguntas sin respuesta en este periodo."},
    "insights.gaps.small_group": {"en": "Small group ({n} questions)", "es": "Grupo pequeño ({n} preguntas)"},
    "insights.gaps.questions": {"en": "Questions", "es": "Preguntas"},
    "insights.gaps.askers": {"en": "People", "es": "Personas"},
    "insights.gaps.languages": {"en": "Languages", "es": "Idiomas"},
    "insights.gaps.departments": {"en": "Departments", "es": "Departamentos"},
    "insights.gaps.examples": {"en": "What people asked", "es": "Qué preguntaron"},
    "insights.gaps.hidden": {"en": "Fewer than {n} people asked: the questions stay private.",
                             "es": "Preguntaron menos de {n} personas: las preguntas no se muestran."},
    "insights.gaps.closest": {"en": "Closest documents", "es": "Documentos más cercanos"},
    "insights.gaps.similarity": {"en": "{title} (similarity {value})", "es": "{title} (similitud {value})"},
    "insights.gaps.draft": {"en": "Draft a lesson", "es": "Redactar una lección"},
    "insights.gaps.draft_help": {
        "en": "Starts a content-studio job on the closest documents with these questions as the brief; it goes "
              "through the usual reviews before anything is published.",
        "es": "Inicia un trabajo en el estudio de contenidos con los documentos más cercanos y estas preguntas como "
              "encargo; pasa por las revisiones habituales antes de publicarse."},
    "insights.gaps.draft_started": {"en": "Job started. Follow it in the Content studio.",
                                    "es": "Trabajo iniciado. Síguelo en el estudio de contenidos."},
    "insights.gaps.missing": {"en": "Missing document", "es": "Falta un documento"},
    "insights.gaps.missing_note": {"en": "Note for the content owner (optional)",
                                   "es": "Nota para el responsable del contenido (opcional)"},
    "insights.gaps.missing_saved": {"en": "Noted: the content owner will see it below.",
                                    "es": "Anotado: el responsable del contenido lo verá abajo."},
    "insights.gaps.notes": {"en": "Missing documents noted", "es": "Documentos que faltan (anotados)"},
    "insights.gaps.no_notes": {"en": "No notes yet.", "es": "Aún no hay notas."},
    "insights.gaps.admins_only": {"en": "Only HR admins can act on knowledge gaps.",
                                  "es": "Solo los administradores pueden actuar sobre las lagunas."},
    "insights.gaps.too_few_askers": {"en": "Fewer than {n} people asked this: it stays private.",
                                     "es": "Lo preguntaron menos de {n} personas: no se muestra."},
    "insights.gaps.no_documents": {"en": "There are no documents to draft from yet.",
                                   "es": "Aún no hay documentos con los que redactar."},
    "insights.gaps.brief": {
        "en": "Write a lesson that answers what employees asked about “{topic}”:\n{questions}",
        "es": "Redacta una lección que responda lo que los empleados preguntaron sobre «{topic}»:\n{questions}"},
    "insights.gaps.col_topic": {"en": "Topic", "es": "Tema"},
    "insights.gaps.col_note": {"en": "Note", "es": "Nota"},
    "insights.gaps.col_by": {"en": "Noted by", "es": "Anotado por"},
    "insights.gaps.col_when": {"en": "When", "es": "Cuándo"},
    # stale lessons
    "insights.stale.title": {"en": "Lessons whose sources changed", "es": "Lecciones cuyas fuentes cambiaron"},
    "insights.stale.caption": {
        "en": "A document was re-ingested and passages these lessons or exercises cite changed or disappeared.",
        "es": "Se volvió a cargar un documento y cambiaron o desaparecieron pasajes que citan estas lecciones o ejercicios."},
    "insights.stale.none": {"en": "Every lesson matches its sources.", "es": "Todas las lecciones coinciden con sus fuentes."},
    "insights.stale.module": {"en": "{course} › {module} ({n} flagged)", "es": "{course} › {module} ({n} señaladas)"},
    "insights.stale.item": {"en": "{kind} “{title}” · {document} › {section}",
                            "es": "{kind} «{title}» · {document} › {section}"},
    "insights.stale.kind.lesson": {"en": "Lesson", "es": "Lección"},
    "insights.stale.kind.exercise": {"en": "Exercise", "es": "Ejercicio"},
    "insights.stale.change.changed": {"en": "changed", "es": "cambió"},
    "insights.stale.change.removed": {"en": "removed", "es": "se eliminó"},
    "insights.stale.old": {"en": "Before", "es": "Antes"},
    "insights.stale.new": {"en": "Now", "es": "Ahora"},
    "insights.stale.gone": {"en": "(this passage is no longer in the document)",
                            "es": "(este pasaje ya no está en el documento)"},
    "insights.stale.regenerate": {"en": "Regenerate this module", "es": "Regenerar este módulo"},
    "insights.stale.keep": {"en": "Keep as it is", "es": "Mantener como está"},
    "insights.stale.edit_hint": {
        "en": "To edit by hand instead, change the lesson text, then choose “Keep as it is”.",
        "es": "Para editarla a mano, cambia el texto de la lección y después elige «Mantener como está»."},
    "insights.stale.edit": {"en": "Edit lesson text", "es": "Editar el texto de la lección"},
    "insights.stale.save_edit": {"en": "Save the text", "es": "Guardar el texto"},
    "insights.stale.saved_edit": {"en": "Lesson text saved.", "es": "Texto de la lección guardado."},
    "insights.stale.kept": {"en": "Kept: the decision is recorded.", "es": "Se mantiene: la decisión queda registrada."},
    "insights.stale.draft_title": {"en": "New version of “{module}” ({engine}): review it before it replaces the module",
                                   "es": "Nueva versión de «{module}» ({engine}): revísala antes de que sustituya al módulo"},
    "insights.stale.draft_warning": {
        "en": "Approving replaces the module's lessons and exercises; learners' progress on this module starts again.",
        "es": "Al aprobar se sustituyen las lecciones y ejercicios del módulo; el progreso de los alumnos en este módulo vuelve a empezar."},
    "insights.stale.approve": {"en": "Approve and replace", "es": "Aprobar y sustituir"},
    "insights.stale.discard": {"en": "Discard the draft", "es": "Descartar el borrador"},
    "insights.stale.replaced": {"en": "Module replaced; its flags are closed.",
                                "es": "Módulo sustituido; sus avisos quedan cerrados."},
    "insights.stale.exercises": {"en": "{n} exercises", "es": "{n} ejercicios"},
    "insights.stale.admins_only": {"en": "Only HR admins can review stale lessons.",
                                   "es": "Solo los administradores pueden revisar lecciones desactualizadas."},
    "insights.stale.nothing_to_regenerate": {"en": "This module has no open flags.",
                                             "es": "Este módulo no tiene avisos abiertos."},
    "insights.stale.empty_draft": {"en": "The draft has no lessons; nothing was changed.",
                                   "es": "El borrador no tiene lecciones; no se ha cambiado nada."},
    "insights.stale.regenerate_instructions": {
        "en": "The source document changed: follow the current text of the sources exactly.",
        "es": "El documento fuente ha cambiado: sigue exactamente el texto actual de las fuentes."},
    "insights.stale.learner_note": {
        "en": "📣 Updated policy: the document this lesson is based on has changed since it was written. "
              "Check the current document before applying it.",
        "es": "📣 Política actualizada: el documento en el que se basa esta lección ha cambiado desde que se escribió. "
              "Consulta el documento actual antes de aplicarla."},
    # SCORM export (the package speaks the course's language)
    "insights.scorm.download": {"en": "⬇️ SCORM 1.2 package", "es": "⬇️ Paquete SCORM 1.2"},
    "insights.scorm.download_help": {
        "en": "For your company's LMS: the lessons and a quiz that reports the score and passed/failed.",
        "es": "Para el LMS de tu empresa: las lecciones y un cuestionario que informa de la nota y de aprobado/suspenso."},
    "insights.scorm.quiz": {"en": "Check what you learned", "es": "Comprueba lo aprendido"},
    "insights.scorm.submit": {"en": "Submit answers", "es": "Enviar respuestas"},
    "insights.scorm.passed": {"en": "Passed", "es": "Aprobado"},
    "insights.scorm.failed": {"en": "Not passed yet", "es": "Aún no aprobado"},
    "insights.scorm.score": {"en": "score", "es": "nota"},
    "insights.scorm.not_graded": {"en": "Not scored: compare your answer with the model answer.",
                                  "es": "No puntúa: compara tu respuesta con la respuesta modelo."},
    "insights.scorm.model_answer": {"en": "Model answer", "es": "Respuesta modelo"},
    "insights.scorm.restart_dialogue": {"en": "Start the conversation again", "es": "Empezar de nuevo la conversación"},
    "insights.scorm.your_order": {"en": "Number the steps in the right order:", "es": "Numera los pasos en el orden correcto:"},
    "insights.scorm.true": {"en": "True", "es": "Verdadero"},
    "insights.scorm.false": {"en": "False", "es": "Falso"},
    
    
    "insights.scorm.answer_all": {"en": "Answer every exercise first.", "es": "Responde primero a todos los ejercicios."},
    "insights.scorm.correct": {"en": "Correct.", "es": "Correcto."},
    "insights.scorm.wrong": {"en": "Not quite.", "es": "No exactamente."},
}
