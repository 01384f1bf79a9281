"""Exercises the offline twin writes from source text (in the source's language): prompts, explanations,
the practical case's and the dialogue's lines."""

MESSAGES = {
    "content.exercise.tf_prompt": {"en": "True or false?", "es": "¿Verdadero o falso?"},
    "content.exercise.fb_prompt": {
        "en": "Fill in the blank with the right term.",
        "es": "Completa la frase con el término correcto.",
    },
    "content.exercise.order_prompt": {"en": "Put the steps in order: “{h}”.", "es": "Ordena los pasos: «{h}»."},
    "content.exercise.test_prompt": {
        "en": "Which term completes the sentence? «{s}»",
        "es": "¿Qué término completa la frase? «{s}»",
    },
    "content.exercise.case_prompt": {"en": "Practical case: {h}", "es": "Caso práctico: {h}"},
    "content.exercise.dialogue_prompt": {"en": "Conversation: {h}", "es": "Conversación: {h}"},
    "content.exercise.says": {"en": "The source says: «{q}» {c}", "es": "La fuente dice: «{q}» {c}"},
    "content.exercise.changed": {
        "en": "False. According to the source, «{q}» {c}",
        "es": "Falso. Según la fuente, «{q}» {c}",
    },
    "content.exercise.order_expl": {
        "en": "This is the order of the “{h}” procedure {c}",
        "es": "Es el orden del procedimiento «{h}» {c}",
    },
    "content.exercise.case": {
        "en": "{who} brings you a situation about “{h}”: {fact} What would you do, step by step?",
        "es": "{who} te plantea una situación relacionada con «{h}»: {fact} ¿Qué harías, paso a paso?",
    },
    "content.exercise.case_plain": {
        "en": "You must handle a “{h}” situation at work: {fact} How would you act?",
        "es": "Tienes que resolver una situación de «{h}» en tu trabajo: {fact} ¿Cómo actuarías?",
    },
    "content.exercise.customer": {"en": "A customer", "es": "Un cliente"},
    "content.exercise.colleague": {"en": "A colleague", "es": "Un compañero"},
    "content.exercise.d_customer": {"en": "Customer", "es": "Cliente"},
    "content.exercise.d_colleague": {"en": "Colleague", "es": "Compañero"},
    "content.exercise.d_open": {
        "en": "Hi, I need help with this: {h}. What do we do?",
        "es": "Hola, necesito ayuda con esto: {h}. ¿Qué hacemos?",
    },
    "content.exercise.d_next": {"en": "All right. And then?", "es": "De acuerdo. ¿Y después?"},
    "content.exercise.d_ok": {
        "en": "Right, that is the step the procedure gives.",
        "es": "Correcto, es el paso que indica el procedimiento.",
    },
    "content.exercise.d_done": {
        "en": "Right: you completed the procedure.",
        "es": "Correcto: has completado el procedimiento.",
    },
    "content.exercise.d_wrong": {
        "en": "Not yet: according to the procedure, the next step is «{s}».",
        "es": "Todavía no: según el procedimiento, ahora toca «{s}».",
    },
    "content.exercise.case_expl": {
        "en": "A good answer follows the “{h}” procedure {c}",
        "es": "La respuesta debe seguir el procedimiento «{h}» {c}",
    },
    "content.exercise.test_fact_prompt": {
        "en": "What does the source say goes in the blank? «{s}»",
        "es": "¿Qué dice la fuente que va en el hueco? «{s}»",
    },
    "content.exercise.rule_case": {
        "en": "The situation: {s}. What applies, according to “{h}”?",
        "es": "La situación: {s}. ¿Qué corresponde, según «{h}»?",
    },
    "content.exercise.topic_case": {
        "en": "A colleague asks you what “{h}” says about {s}. What do you answer?",
        "es": "Un compañero te pregunta qué dice «{h}» sobre {s}. ¿Qué le respondes?",
    },
    "content.exercise.topic_case_named": {
        "en": "A colleague asks you about {s}. What do you answer, according to “{h}”?",
        "es": "Un compañero te pregunta por {s}. ¿Qué le respondes, según «{h}»?",
    },
    "content.exercise.d_topic": {
        "en": "And what does the policy say about {s}?",
        "es": "¿Y qué dice la norma sobre {s}?",
    },
    "content.exercise.rule_expl": {"en": "The rule: «{q}» {c}", "es": "La regla: «{q}» {c}"},
    "content.exercise.d_situation": {"en": "{s}: what applies then?", "es": "{s}: ¿qué corresponde entonces?"},
    "content.exercise.dialogue_expl": {
        "en": "Each reply is a rule of the source {c}",
        "es": "Cada respuesta es una regla de la fuente {c}",
    },
    "content.exercise.why_no_sequence": {
        "en": "the source gives no ordered procedure",
        "es": "la fuente no da ningún procedimiento ordenado",
    },
    "content.exercise.why_no_rule": {
        "en": "the source states no rule with a condition and its consequence",
        "es": "la fuente no enuncia ninguna regla con condición y consecuencia",
    },
    "content.exercise.why_no_rules": {
        "en": "a conversation needs two rules of one topic and the source has fewer",
        "es": "una conversación necesita dos reglas de un tema y la fuente tiene menos",
    },
    "content.exercise.why_no_changeable_fact": {
        "en": "no fact of the source has another of its kind to make a false statement from",
        "es": "ningún dato de la fuente tiene otro de su tipo con el que hacer una afirmación falsa",
    },
    "content.exercise.why_no_same_kind": {
        "en": "no figure of the source has three others of its kind to offer as options",
        "es": "ninguna cifra de la fuente tiene otras de su tipo que ofrecer como opciones",
    },
    "content.exercise.why_no_fact": {
        "en": "the source has no figure or key term to blank",
        "es": "la fuente no tiene cifras ni términos clave que ocultar",
    },
    "content.exercise.d_rule_ok": {
        "en": "Right, that is what the source says.",
        "es": "Correcto, es lo que dice la fuente.",
    },
    "content.exercise.d_rule_done": {
        "en": "Right: you applied every rule.",
        "es": "Correcto: has aplicado cada regla.",
    },
    "content.exercise.d_rule_wrong": {
        "en": "Not quite: the source says «{s}»",
        "es": "No exactamente: la fuente dice «{s}»",
    },
    "content.draft.exercises": {
        "en": "Exercises: edit or delete ({count, plural, one {# exercise} other {# exercises}})",
        "es": "Ejercicios: editar o eliminar ({count, plural, one {# ejercicio} other {# ejercicios}})",
    },
    "content.draft.exercise_line": {
        "en": "**Module {module} · {n}. {kind}** · {bloom} · {prompt}",
        "es": "**Módulo {module} · {n}. {kind}** · {bloom} · {prompt}",
    },
    "content.draft.delete_exercise": {"en": "🗑️ Delete…", "es": "🗑️ Eliminar…"},
    "content.draft.delete_exercise_preview": {
        "en": "Delete exercise {n} of module {module} from the draft: «{prompt}». Learners will not see it.",
        "es": "Eliminar del borrador el ejercicio {n} del módulo {module}: «{prompt}». Los alumnos no lo verán.",
    },
    "content.draft.delete_exercise_confirm": {"en": "🗑️ Confirm deleting it", "es": "🗑️ Confirmar la eliminación"},
    "content.draft.exercise_deleted": {
        "en": "The exercise was deleted from «{title}».",
        "es": "El ejercicio se ha eliminado de «{title}».",
    },
    "content.draft.exercise_gone": {
        "en": "That exercise is no longer in a draft course: nothing was changed.",
        "es": "Ese ejercicio ya no está en un curso en borrador: no se cambió nada.",
    },
    "content.draft.exercise_saved": {
        "en": "Exercise {n} of module {module} saved. The course reviewer found nothing to fix in it.",
        "es": "Ejercicio {n} del módulo {module} guardado. El revisor del curso no encuentra nada que corregir.",
    },
    "content.draft.exercise_saved_findings": {
        "en": "Exercise {n} of module {module} saved. The course reviewer read it again: {count, plural, one {# finding} other {# findings}} below it.",
        "es": "Ejercicio {n} del módulo {module} guardado. El revisor del curso lo ha vuelto a leer: {count, plural, one {# hallazgo} other {# hallazgos}} debajo.",
    },
}
