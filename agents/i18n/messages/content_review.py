"""The course reviewer's findings a trainer reads: the quality review's deterministic checks (agents/content/review.py),
the reading checks (agents/content/checks.py) and the lesson parts they name."""

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
    "content.review.option_other_unit": {
        "en": "Exercise {n}: the wrong value «{value}» is not written in the right answer's unit and form ({answer}).",
        "es": "Ejercicio {n}: el valor incorrecto «{value}» no está en la unidad y la forma de la respuesta ({answer}).",
    },
    "content.review.option_other_unit_fix": {
        "en": "Use a value in the same unit that the source gives for something else.",
        "es": "Usa un valor de la misma unidad que la fuente da para otra cosa.",
    },
    "content.review.option_same_value": {
        "en": "Exercise {n}: the wrong value «{value}» is the right answer ({answer}) written another way.",
        "es": "Ejercicio {n}: el valor incorrecto «{value}» es la respuesta ({answer}) escrita de otra forma.",
    },
    "content.review.option_same_value_fix": {
        "en": "Replace it with a value the source gives for something else.",
        "es": "Sustitúyelo por un valor que la fuente da para otra cosa.",
    },
    "content.review.option_not_stated": {
        "en": "Exercise {n}: the wrong value «{value}» appears nowhere in the source; a learner cannot tell why it is wrong.",
        "es": "Ejercicio {n}: el valor incorrecto «{value}» no aparece en la fuente; quien aprende no sabe por qué falla.",
    },
    "content.review.option_not_stated_fix": {
        "en": "Use a value in the same unit that the source gives for something else.",
        "es": "Usa un valor de la misma unidad que la fuente da para otra cosa.",
    },
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
    # -- quality review (deterministic checks; descriptions and fixes in the source's language)
    "content.review.uncited": {
        "en": "Lesson “{title}” does not cite its source.",
        "es": "La lección «{title}» no cita su fuente.",
    },
    "content.review.uncited_fix": {
        "en": "Cite each paragraph once with [n] pointing at its chunk.",
        "es": "Cita cada párrafo una vez con [n] apuntando a su fragmento.",
    },
    "content.review.unanswerable": {"en": "Exercise {n} ({kind}): {why}.", "es": "Ejercicio {n} ({kind}): {why}."},
    "content.review.unanswerable_fix": {
        "en": "Fix the answer from the source text or replace the exercise.",
        "es": "Corrige la respuesta con el texto fuente o sustituye el ejercicio.",
    },
    "content.review.wrong_chunk": {
        "en": "Exercise {n} ({kind}): its answer is not in the chunk it cites.",
        "es": "Ejercicio {n} ({kind}): su respuesta no está en el fragmento que cita.",
    },
    "content.review.wrong_chunk_fix": {
        "en": "Point the exercise at the chunk that holds the answer.",
        "es": "Haz que el ejercicio cite el fragmento que contiene la respuesta.",
    },
    "content.review.only_shared_words": {
        "en": "Exercise {n} ({kind}): only the right option shares words with the question, so it can be guessed.",
        "es": "Ejercicio {n} ({kind}): solo la opción correcta comparte palabras con la pregunta; se adivina.",
    },
    "content.review.only_shared_words_fix": {
        "en": "Use distractors from the same topic as the question.",
        "es": "Usa distractores del mismo tema que la pregunta.",
    },
    "content.review.implausible_distractors": {
        "en": "Exercise {n} ({kind}): distractors of another kind or length than the answer: {options}.",
        "es": "Ejercicio {n} ({kind}): distractores de otro tipo o longitud que la respuesta: {options}.",
    },
    "content.review.implausible_distractors_fix": {
        "en": "Give distractors of the same kind and similar length.",
        "es": "Pon distractores del mismo tipo y longitud parecida.",
    },
    "content.review.blank_not_content_word": {
        "en": "Exercise {n} ({kind}): the blank hides a word that carries no content ({blank}).",
        "es": "Ejercicio {n} ({kind}): el hueco oculta una palabra sin contenido ({blank}).",
    },
    "content.review.blank_not_content_word_fix": {
        "en": "Blank a key term or a figure instead.",
        "es": "Deja en blanco un término clave o una cifra.",
    },
    "content.review.no_exercises": {"en": "The module has no exercises.", "es": "El módulo no tiene ejercicios."},
    "content.review.no_exercises_fix": {
        "en": "Add exercises built from the source text.",
        "es": "Añade ejercicios basados en el texto fuente.",
    },
    "content.review.bloom": {
        "en": "Only {share} % of exercises are at apply level or above (50 % minimum).",
        "es": "Solo el {share} % de los ejercicios son de aplicación o superior (mínimo 50 %).",
    },
    "content.review.bloom_fix": {
        "en": "Add practical cases, dialogues or step ordering.",
        "es": "Añade casos prácticos, diálogos u ordenación de pasos.",
    },
    "content.review.longest_right": {
        "en": "In {share} % of multiple-choice questions the right option is the longest (40 % at most).",
        "es": "En el {share} % de las preguntas de opción múltiple la correcta es la más larga (máximo 40 %).",
    },
    "content.review.longest_right_fix": {
        "en": "Balance the options' lengths.",
        "es": "Equilibra la longitud de las opciones.",
    },
    "content.review.manual_toc": {"en": "The manual has no table of contents.", "es": "El manual no tiene índice."},
    "content.review.manual_toc_fix": {
        "en": "Build the contents from the headings.",
        "es": "Genera el índice a partir de los encabezados.",
    },
    "content.review.coverage": {
        "en": "The content covers {share} % of the source's sections; missing: {missing}.",
        "es": "El contenido cubre el {share} % de las secciones de la fuente; faltan: {missing}.",
    },
    "content.review.coverage_fix": {
        "en": "Cover the missing sections in a module or in the manual.",
        "es": "Incluye las secciones que faltan en algún módulo o en el manual.",
    },
    "content.review.copied": {
        "en": "The lessons copy {share} % of the source's sentences word for word (50 % at most).",
        "es": "Las lecciones copian literalmente el {share} % de las frases de la fuente (máximo 50 %).",
    },
    "content.review.copied_fix": {
        "en": "Keep the key statements and explain the rest in your own words.",
        "es": "Quédate con lo esencial y explica el resto con tus palabras.",
    },
    "content.review.types": {"en": "Exercise types missing: {missing}.", "es": "Faltan tipos de ejercicio: {missing}."},
    "content.review.types_fix": {
        "en": "Variety: add the missing types if the text allows.",
        "es": "Variedad: añade los tipos que faltan si el texto lo permite.",
    },
    "content.review.steps_cut": {
        "en": "Exercise {n} (order the steps) asks {asked} steps; the source's procedure has {total}.",
        "es": "Ejercicio {n} (ordenar pasos) pide {asked} pasos; el procedimiento de la fuente tiene {total}.",
    },
    "content.review.steps_cut_fix": {
        "en": "Ask every step of the procedure, in the source's order.",
        "es": "Pide todos los pasos del procedimiento, en el orden de la fuente.",
    },
    "content.review.case_not_situation": {
        "en": "Exercise {n} (practical case): “{s}” is not a situation a learner can picture.",
        "es": "Ejercicio {n} (caso práctico): «{s}» no es una situación que el alumno pueda imaginar.",
    },
    "content.review.case_not_situation_fix": {
        "en": "Put a person in a concrete situation (the rule's condition), then ask what applies.",
        "es": "Pon a una persona en una situación concreta (la condición de la regla) y pregunta qué corresponde.",
    },
    "content.review.rubric_unmet": {
        "en": "Exercise {n} (practical case): the model answer does not meet the point “{point}”; a right answer would be graded as missing it.",
        "es": "Ejercicio {n} (caso práctico): la respuesta modelo no cumple el punto «{point}»; una respuesta correcta se calificaría como si le faltara.",
    },
    "content.review.rubric_unmet_fix": {
        "en": "Write each rubric point as what a right answer says: the rule's consequence, whole.",
        "es": "Escribe cada punto de la rúbrica como lo que dice una respuesta correcta: la consecuencia de la regla, entera.",
    },
    "content.review.blank_given_away": {
        "en": "Exercise {n} (fill the blank): the sentence writes the answer again.",
        "es": "Ejercicio {n} (completar): la frase vuelve a escribir la respuesta.",
    },
    "content.review.blank_given_away_fix": {
        "en": "Blank a word the rest of the sentence does not repeat.",
        "es": "Deja en blanco una palabra que el resto de la frase no repita.",
    },
    "content.review.off_title": {
        "en": "Exercise {n} ({kind}): its title names a section its answers do not come from.",
        "es": "Ejercicio {n} ({kind}): su título nombra una sección de la que no salen sus respuestas.",
    },
    "content.review.off_title_fix": {
        "en": "Title the exercise with the sections its answers come from.",
        "es": "Titula el ejercicio con las secciones de las que salen sus respuestas.",
    },
}
