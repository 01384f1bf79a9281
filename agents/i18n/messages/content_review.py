"""The course reviewer's findings a trainer reads (agents/content/checks.py), and the lesson parts it names."""

MESSAGES = {
    "content.lesson.figure": {"en": "Figure", "es": "Cifra"},
    "content.lesson.fact": {"en": "What the source says", "es": "Lo que dice la fuente"},
    "content.lesson.recap": {"en": "Recap of the module", "es": "Repaso del módulo"},
    "content.review.repeated": {
        "en": "“{title}” repeats a sentence {count} times: «{sentence}».",
        "es": "«{title}» repite una frase {count} veces: «{sentence}».",
    },
    "content.review.repeated_fix": {
        "en": "Keep each sentence once in a module.",
        "es": "Deja cada frase una sola vez en el módulo.",
    },
    "content.review.fragment": {
        "en": "“{title}” shows a cut sentence: «{sentence}».",
        "es": "«{title}» muestra una frase cortada: «{sentence}».",
    },
    "content.review.fragment_fix": {
        "en": "Show the whole sentence as the source writes it.",
        "es": "Muestra la frase entera, como la escribe la fuente.",
    },
    "content.review.broken_token": {
        "en": "“{title}” splits a word the source writes whole: «{token}».",
        "es": "«{title}» parte una palabra que la fuente escribe entera: «{token}».",
    },
    "content.review.broken_token_fix": {
        "en": "Copy figures and names exactly as written.",
        "es": "Copia cifras y nombres tal como están escritos.",
    },
    "content.review.fact_coverage": {
        "en": "Only {share} % of the source's fact sentences reach a lesson or an exercise; left out: {missing}.",
        "es": "Solo el {share} % de las frases con datos de la fuente llega a una lección o un ejercicio; "
        "fuera: {missing}.",
    },
    "content.review.fact_coverage_fix": {
        "en": "Teach the figures, deadlines and rules left out.",
        "es": "Enseña las cifras, plazos y reglas que faltan.",
    },
    "content.review.tf_balance": {
        "en": "{share} % of the true/false items are false (30–70 % expected).",
        "es": "El {share} % de los ítems de verdadero/falso son falsos (se espera 30–70 %).",
    },
    "content.review.tf_balance_fix": {
        "en": "Change one fact of some true statements to make them false.",
        "es": "Cambia un dato de algunas afirmaciones verdaderas para hacerlas falsas.",
    },
    "content.review.changed_fact": {
        "en": "Exercise {n} ({kind}): «{value}» is not what the source says.",
        "es": "Ejercicio {n} ({kind}): «{value}» no es lo que dice la fuente.",
    },
    "content.review.changed_fact_fix": {"en": "Use the source's figure.", "es": "Usa la cifra de la fuente."},
    "content.review.option_length": {
        "en": "Exercise {n}: the right option's length gives it away.",
        "es": "Ejercicio {n}: la longitud de la opción correcta la delata.",
    },
    "content.review.option_length_fix": {
        "en": "Give options of similar length.",
        "es": "Da opciones de longitud parecida.",
    },
    "content.review.figures_answer": {
        "en": "Exercise {n} ({kind}): its expected answer is a list of figures.",
        "es": "Ejercicio {n} ({kind}): su respuesta esperada es una lista de cifras.",
    },
    "content.review.figures_answer_fix": {
        "en": "Build the case from a rule: a condition and its consequence.",
        "es": "Construye el caso desde una regla: una condición y su consecuencia.",
    },
    "content.review.language": {
        "en": "“{title}” is in {found}, the course in {expected}.",
        "es": "«{title}» está en {found} y el curso en {expected}.",
    },
    "content.review.language_fix": {
        "en": "Keep the whole course in one language.",
        "es": "Mantén todo el curso en un solo idioma.",
    },
    "content.review.instruction": {
        "en": "“{title}” holds text addressed to an assistant: «{sentence}».",
        "es": "«{title}» contiene texto dirigido a un asistente: «{sentence}».",
    },
    "content.review.instruction_fix": {
        "en": "Remove it; it is not course material.",
        "es": "Quítalo: no es material del curso.",
    },
    "content.review.pasted": {
        "en": "“{title}” pastes {count} source sentences in a row as one paragraph.",
        "es": "«{title}» pega {count} frases seguidas de la fuente en un párrafo.",
    },
    "content.review.pasted_fix": {
        "en": "Select the key points instead of pasting the section.",
        "es": "Selecciona lo esencial en lugar de pegar la sección.",
    },
    "content.review.filler": {
        "en": "“{title}” is template text with nothing from the source.",
        "es": "«{title}» es texto de plantilla sin nada de la fuente.",
    },
    "content.review.filler_fix": {
        "en": "Remove it or teach from the source.",
        "es": "Quítalo o enseña desde la fuente.",
    },
    "content.review.reply_not_sentence": {
        "en": "Exercise {n} (dialogue): the reply «{reply}» is not a sentence.",
        "es": "Ejercicio {n} (diálogo): la respuesta «{reply}» no es una frase.",
    },
    "content.review.reply_not_sentence_fix": {
        "en": "Offer whole sentences as replies.",
        "es": "Ofrece frases completas como respuestas.",
    },
    "content.review.left_out_type": {"en": "No {kind} exercise: {why}.", "es": "Sin ejercicio de tipo {kind}: {why}."},
    "content.review.left_out_type_fix": {
        "en": "Nothing to do unless the source can support it.",
        "es": "Nada que hacer salvo que la fuente lo permita.",
    },
    "content.review.lesson_replaced": {
        "en": "The model's lesson “{title}” failed the review twice ({why}): the offline version is shown instead.",
        "es": "La lección «{title}» del modelo no pasó la revisión dos veces ({why}): se muestra la versión sin modelo.",
    },
    "content.review.lesson_replaced_fix": {
        "en": "Read the offline lesson; edit it or regenerate the module with notes.",
        "es": "Lee la lección sin modelo; edítala o regenera el módulo con notas.",
    },
}
