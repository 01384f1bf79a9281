"""Content studio: generated course text (in the source's language), the studio page and the Manuals page."""
MESSAGES = {
    # -- outline (structure from the document)
    "content.outline.description": {"en": "A course built from {docs}. Modules: {modules}.",
                                    "es": "Curso basado en {docs}. Módulos: {modules}."},
    "content.outline.outcome": {
        "en": "After this course the employee will be able to apply what {docs} sets out on: {topics}.",
        "es": "Al terminar el curso, la persona empleada sabrá aplicar lo que establece {docs} sobre: {topics}."},
    # -- lessons (offline twin)
    "content.lesson.practice_title": {"en": "Put it into practice", "es": "Ponlo en práctica"},
    "content.lesson.practice_intro": {
        "en": "Check what you learned in this module. Each exercise comes from the source text and its "
              "explanation cites it.",
        "es": "Comprueba lo que has aprendido en este módulo. Cada ejercicio sale del texto fuente y su "
              "explicación lo cita."},
    "content.lesson.key_points": {"en": "Key points", "es": "Lo esencial"},
    "content.lesson.definitions": {"en": "Definitions", "es": "Definiciones"},
    "content.lesson.steps": {"en": "Step by step: {what}", "es": "Paso a paso: {what}"},
    "content.lesson.figures": {"en": "Figures and deadlines", "es": "Cifras y plazos"},
    "content.lesson.example": {"en": "A worked example", "es": "Un ejemplo del texto"},
    "content.lesson.summary": {"en": "In short:", "es": "En resumen:"},
    "content.lesson.summary_plain": {"en": "Remember the points of “{heading}” above.",
                                     "es": "Recuerda los puntos de «{heading}» que has visto."},
    "content.lesson.sources": {"en": "Sources", "es": "Fuentes"},
    "content.lesson.page": {"en": "p. {page}", "es": "pág. {page}"},
    # -- quality review (deterministic checks; descriptions and fixes in the source's language)
    "content.review.uncited": {"en": "Lesson “{title}” does not cite its source.",
                               "es": "La lección «{title}» no cita su fuente."},
    "content.review.uncited_fix": {"en": "Cite each paragraph once with [n] pointing at its chunk.",
                                   "es": "Cita cada párrafo una vez con [n] apuntando a su fragmento."},
    "content.review.unanswerable": {"en": "Exercise {n} ({kind}): {why}.", "es": "Ejercicio {n} ({kind}): {why}."},
    "content.review.unanswerable_fix": {"en": "Fix the answer from the source text or replace the exercise.",
                                        "es": "Corrige la respuesta con el texto fuente o sustituye el ejercicio."},
    "content.review.wrong_chunk": {"en": "Exercise {n} ({kind}): its answer is not in the chunk it cites.",
                                   "es": "Ejercicio {n} ({kind}): su respuesta no está en el fragmento que cita."},
    "content.review.wrong_chunk_fix": {"en": "Point the exercise at the chunk that holds the answer.",
                                       "es": "Haz que el ejercicio cite el fragmento que contiene la respuesta."},
    "content.review.only_shared_words": {
        "en": "Exercise {n} ({kind}): only the right option shares words with the question, so it can be guessed.",
        "es": "Ejercicio {n} ({kind}): solo la opción correcta comparte palabras con la pregunta; se adivina."},
    "content.review.only_shared_words_fix": {"en": "Use distractors from the same topic as the question.",
                                             "es": "Usa distractores del mismo tema que la pregunta."},
    "content.review.implausible_distractors": {
        "en": "Exercise {n} ({kind}): distractors of another kind or length than the answer: {options}.",
        "es": "Ejercicio {n} ({kind}): distractores de otro tipo o longitud que la respuesta: {options}."},
    "content.review.implausible_distractors_fix": {"en": "Give distractors of the same kind and similar length.",
                                                   "es": "Pon distractores del mismo tipo y longitud parecida."},
    "content.review.blank_not_content_word": {
        "en": "Exercise {n} ({kind}): the blank hides a word that carries no content ({blank}).",
        "es": "Ejercicio {n} ({kind}): el hueco oculta una palabra sin contenido ({blank})."},
    "content.review.blank_not_content_word_fix": {"en": "Blank a key term or a figure instead.",
                                                  "es": "Deja en blanco un término clave o una cifra."},
    "content.review.no_exercises": {"en": "The module has no exercises.", "es": "El módulo no tiene ejercicios."},
    "content.review.no_exercises_fix": {"en": "Add exercises built from the source text.",
                                        "es": "Añade ejercicios basados en el texto fuente."},
    "content.review.bloom": {"en": "Only {share} % of exercises are at apply level or above (50 % minimum).",
                             "es": "Solo el {share} % de los ejercicios son de aplicación o superior (mínimo 50 %)."},
    "content.review.bloom_fix": {"en": "Add practical cases, dialogues or step ordering.",
                                 "es": "Añade casos prácticos, diálogos u ordenación de pasos."},
    "content.review.longest_right": {
        "en": "In {share} % of multiple-choice questions the right option is the longest (40 % at most).",
        "es": "En el {share} % de las preguntas de opción múltiple la correcta es la más larga (máximo 40 %)."},
    "content.review.longest_right_fix": {"en": "Balance the options' lengths.",
                                         "es": "Equilibra la longitud de las opciones."},
    "content.review.manual_toc": {"en": "The manual has no table of contents.", "es": "El manual no tiene índice."},
    "content.review.manual_toc_fix": {"en": "Build the contents from the headings.",
                                      "es": "Genera el índice a partir de los encabezados."},
    "content.review.coverage": {"en": "The content covers {share} % of the source's sections; missing: {missing}.",
                                "es": "El contenido cubre el {share} % de las secciones de la fuente; faltan: {missing}."},
    "content.review.coverage_fix": {"en": "Cover the missing sections in a module or in the manual.",
                                    "es": "Incluye las secciones que faltan en algún módulo o en el manual."},
    "content.review.copied": {"en": "The lessons copy {share} % of the source's sentences word for word (50 % at most).",
                              "es": "Las lecciones copian literalmente el {share} % de las frases de la fuente (máximo 50 %)."},
    "content.review.copied_fix": {"en": "Keep the key statements and explain the rest in your own words.",
                                  "es": "Quédate con lo esencial y explica el resto con tus palabras."},
    "content.review.types": {"en": "Exercise types missing: {missing}.", "es": "Faltan tipos de ejercicio: {missing}."},
    "content.review.types_fix": {"en": "Variety: add the missing types if the text allows.",
                                 "es": "Variedad: añade los tipos que faltan si el texto lo permite."},
    # -- content studio page
    "content.studio.criticals_block": {
        "en": "{count} critical quality issue(s) are open: fix them, or waive them with a reason, before publishing.",
        "es": "Hay {count} problema(s) crítico(s) de calidad: corrígelos, o dispénsalos indicando el motivo, antes de publicar."},
    # -- manual
    "content.manual.title": {"en": "Manual: {title}", "es": "Manual: {title}"},
    "content.manual.toc": {"en": "Contents", "es": "Índice"},
}
