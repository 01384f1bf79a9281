"""Course health (item analysis): flags with their reasons and evidence, the view, and the trainer's actions."""

MESSAGES = {
    "content.health.true": {"en": "True", "es": "Verdadero"},
    "content.health.false": {"en": "False", "es": "Falso"},
    "content.health.not_enough": {
        "en": "Not enough answers yet ({n} of the {needed} needed).",
        "es": "Aún no hay respuestas suficientes ({n} de las {needed} necesarias).",
    },
    "content.health.method.point_biserial": {"en": "point-biserial correlation", "es": "correlación biserial puntual"},
    "content.health.method.upper_lower": {"en": "upper-lower groups", "es": "grupos superior-inferior"},
    "content.health.flag.too_easy": {
        "en": "Too easy: almost everyone gets it right.",
        "es": "Demasiado fácil: casi todo el mundo acierta.",
    },
    "content.health.evidence.too_easy": {
        "en": "{right} of {n} learners right at the first try ({facility}; above {limit}).",
        "es": "{right} de {n} personas acertaron al primer intento ({facility}; más de {limit}).",
    },
    "content.health.flag.too_hard": {
        "en": "Too hard: hardly anyone gets it right.",
        "es": "Demasiado difícil: casi nadie acierta.",
    },
    "content.health.evidence.too_hard": {
        "en": "{right} of {n} learners right at the first try ({facility}; below {limit}).",
        "es": "{right} de {n} personas acertaron al primer intento ({facility}; menos de {limit}).",
    },
    "content.health.flag.not_discriminating": {
        "en": "Does not tell who knows the course: those who do well elsewhere get it right no more often.",
        "es": "No distingue quién domina el curso: quien va bien en el resto no acierta más a menudo.",
    },
    "content.health.evidence.not_discriminating": {
        "en": "Discrimination {d} ({method}, {n} learners; at or below {limit}).",
        "es": "Discriminación {d} ({method}, {n} personas; igual o menor que {limit}).",
    },
    "content.health.flag.negative_discrimination": {
        "en": "The key may be wrong: those who do best on the rest of the course get it wrong more often.",
        "es": "La clave puede estar mal: quien mejor va en el resto del curso falla más aquí.",
    },
    "content.health.evidence.negative_discrimination": {
        "en": "Discrimination {d} ({method}, {n} learners; below 0).",
        "es": "Discriminación {d} ({method}, {n} personas; por debajo de 0).",
    },
    "content.health.flag.distractor_beats_key": {
        "en": "The key may be wrong: a wrong option is chosen more often than the right one.",
        "es": "La clave puede estar mal: una opción incorrecta se elige más que la correcta.",
    },
    "content.health.evidence.distractor_beats_key": {
        "en": "“{option}” chosen by {picks} of {n}; the key “{key}” by {key_picks}.",
        "es": "«{option}» la eligieron {picks} de {n}; la clave «{key}», {key_picks}.",
    },
    "content.health.flag.unused_distractor": {
        "en": "A wrong option nobody chooses: it does not make anyone think.",
        "es": "Una opción incorrecta que nadie elige: no hace pensar a nadie.",
    },
    "content.health.evidence.unused_distractor": {
        "en": "“{option}” chosen by none of {n} learners.",
        "es": "«{option}» no la eligió ninguna de {n} personas.",
    },
    "content.health.flag.tf_all_same": {
        "en": "Every true/false statement of this module has the same answer: answering “{value}” always scores.",
        "es": "Todas las afirmaciones verdadero/falso de este módulo tienen la misma respuesta: contestar "
        "«{value}» siempre puntúa.",
    },
    "content.health.evidence.tf_all_same": {
        "en": "{n} true/false statements in the module, all “{value}”.",
        "es": "{n} afirmaciones verdadero/falso en el módulo, todas «{value}».",
    },
    # the view
    "content.health.title": {"en": "Course health", "es": "Salud del curso"},
    "content.health.caption": {
        "en": "What learners' first answers say about each exercise. Figures refresh as answers arrive.",
        "es": "Lo que dicen las primeras respuestas de las personas sobre cada ejercicio. Las cifras se "
        "actualizan al llegar respuestas.",
    },
    "content.health.computed_at": {"en": "Figures of {when}.", "es": "Cifras de {when}."},
    "content.health.never": {
        "en": "No figures yet: they are computed when answers arrive.",
        "es": "Aún no hay cifras: se calculan al llegar respuestas.",
    },
    "content.health.flagged": {"en": "Flagged exercises", "es": "Ejercicios señalados"},
    "content.health.no_flags": {"en": "No exercise is flagged.", "es": "Ningún ejercicio está señalado."},
    "content.health.modules": {"en": "Modules", "es": "Módulos"},
    "content.health.exercises": {"en": "Every exercise", "es": "Todos los ejercicios"},
    "content.health.chart": {"en": "Facility against discrimination", "es": "Facilidad frente a discriminación"},
    "content.health.chart_help": {
        "en": "Bottom: does not tell who knows the course (below 0: check the key). Far left: too hard; far "
        "right: too easy.",
        "es": "Abajo: no distingue quién domina el curso (bajo 0: revisa la clave). Muy a la izquierda: "
        "demasiado difícil; muy a la derecha: demasiado fácil.",
    },
    "content.health.pick_course": {"en": "Course", "es": "Curso"},
    "content.health.options": {"en": "How the options were chosen", "es": "Cómo se eligieron las opciones"},
    "content.health.key": {"en": "key", "es": "clave"},
    "content.health.regenerate": {"en": "Regenerate this exercise", "es": "Regenerar este ejercicio"},
    "content.health.retire": {"en": "Retire", "es": "Retirar"},
    "content.health.retired": {
        "en": "Retired: new attempts no longer meet it.",
        "es": "Retirado: ya no aparece en nuevos intentos.",
    },
    "content.health.draft_title": {
        "en": "Proposed replacement (engine: {engine})",
        "es": "Sustituto propuesto (motor: {engine})",
    },
    "content.health.draft_warning": {
        "en": "Confirm to replace the live exercise. Answers already given keep their scores.",
        "es": "Confirma para sustituir el ejercicio publicado. Las respuestas ya dadas conservan su nota.",
    },
    "content.health.review_findings": {"en": "Reviewer: {findings}", "es": "Revisor: {findings}"},
    "content.health.review_clean": {"en": "Reviewer: no findings.", "es": "Revisor: sin observaciones."},
    "content.health.confirm": {"en": "Confirm replacement", "es": "Confirmar sustitución"},
    "content.health.discard": {"en": "Discard", "es": "Descartar"},
    "content.health.replaced": {
        "en": "Replaced: learners' next attempts meet the new exercise.",
        "es": "Sustituido: los próximos intentos verán el nuevo ejercicio.",
    },
    "content.health.no_replacement": {
        "en": "No replacement passed the reviewer from this exercise's sources; retire it or edit the course.",
        "es": "Ningún sustituto a partir de las fuentes de este ejercicio pasó la revisión; retíralo o edita el curso.",
    },
    "content.health.gone": {"en": "This exercise is no longer live.", "es": "Este ejercicio ya no está publicado."},
    "content.health.admins_only": {
        "en": "Only HR admins can change a course's exercises.",
        "es": "Solo los administradores pueden cambiar los ejercicios de un curso.",
    },
    "content.health.note": {"en": "Regenerate because: {reason}", "es": "Regenerar porque: {reason}"},
    "content.health.flagged_caption": {
        "en": "{n} of {total} exercises flagged. Each says why, with the figures; regenerate or retire it here.",
        "es": "{n} de {total} ejercicios señalados. Cada uno dice por qué, con las cifras; regenéralo o retíralo aquí.",
    },
    "content.health.answer": {"en": "Answer: {answer}", "es": "Respuesta: {answer}"},
    "content.health.chart_flagged": {"en": "flagged", "es": "señalado"},
    "content.health.chart_fine": {"en": "no flag", "es": "sin señal"},
    "content.health.no_exercises": {
        "en": "This course has no live exercises.",
        "es": "Este curso no tiene ejercicios publicados.",
    },
    "col.module": {"en": "Module", "es": "Módulo"},
    "col.exercise": {"en": "Exercise", "es": "Ejercicio"},
    "col.exercises": {"en": "Exercises", "es": "Ejercicios"},
    "col.facility": {"en": "Facility", "es": "Facilidad"},
    "col.discrimination": {"en": "Discrimination", "es": "Discriminación"},
    "col.method": {"en": "Method", "es": "Método"},
    "col.flags": {"en": "Flags", "es": "Señales"},
    "col.mean_facility": {"en": "Mean facility", "es": "Facilidad media"},
    "col.flagged_share": {"en": "Flagged", "es": "Señalados"},
    "col.option": {"en": "Option", "es": "Opción"},
    "col.picks": {"en": "Chosen by", "es": "La eligieron"},
    "col.share": {"en": "Share", "es": "Proporción"},
    "col.key": {"en": "Key", "es": "Clave"},
    "code.discrimination_method.point_biserial": {"en": "point-biserial", "es": "biserial puntual"},
    "code.discrimination_method.upper_lower": {"en": "upper-lower 27 %", "es": "superior-inferior 27 %"},
    "code.audit_action.course_health.regenerate": {
        "en": "flagged exercise regenerated",
        "es": "ejercicio señalado regenerado",
    },
    "code.audit_action.course_health.retire": {"en": "flagged exercise retired", "es": "ejercicio señalado retirado"},
}
