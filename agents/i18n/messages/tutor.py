"""The tutor: its refusals, offline answers, graded hints, follow-ups and the chat's labels."""

MESSAGES = {
    # refusals (one line, the reader's language)
    "tutor.error.empty_message": {"en": "Please type a question.", "es": "Escribe una pregunta."},
    "tutor.error.rate_limited": {
        "en": "Too many questions in a row: wait {retry_after} s and try again.",
        "es": "Demasiadas preguntas seguidas: espera {retry_after} s y vuelve a intentarlo.",
    },
    "tutor.error.session_not_found": {"en": "Conversation not found.", "es": "Conversación no encontrada."},
    "tutor.error.course_not_found": {"en": "Course not found: {ref}.", "es": "Curso no encontrado: {ref}."},
    "tutor.error.lesson_not_found": {"en": "Lesson not found: {ref}.", "es": "Lección no encontrada: {ref}."},
    "tutor.error.exercise_not_found": {"en": "Exercise not found: {ref}.", "es": "Ejercicio no encontrado: {ref}."},
    "tutor.error.account_inactive": {"en": "Your account is deactivated.", "es": "Tu cuenta está desactivada."},
    "tutor.error.agent_error": {
        "en": "The tutor could not answer; please try again.",
        "es": "El tutor no pudo responder; inténtalo de nuevo.",
    },
    "tutor.truncated": {
        "en": "Your message was very long: I read only its first {n} characters.",
        "es": "Tu mensaje era muy largo: he leído solo los primeros {n} caracteres.",
    },
    # graded hints (003): 1 a conceptual nudge, 2 a pointer to the passage, 3 a worked analogy
    "tutor.hint.level": {"en": "💡 Hint {level} of 3 · {name}", "es": "💡 Pista {level} de 3 · {name}"},
    "tutor.hint.name.1": {"en": "the key idea", "es": "la idea clave"},
    "tutor.hint.name.2": {"en": "where to look", "es": "dónde mirar"},
    "tutor.hint.name.3": {"en": "a similar case", "es": "un caso parecido"},
    "tutor.hint.intro": {
        "en": "You are working on this exercise, so I'll guide you rather than give the answer.",
        "es": "Estás resolviendo este ejercicio, así que te guío en lugar de darte la respuesta.",
    },
    "tutor.hint.concept": {
        "en": "The exercise “{prompt}” is about “{topic}”.",
        "es": "El ejercicio «{prompt}» trata de «{topic}».",
    },
    "tutor.hint.look": {
        "en": "Reread the section “{section}” of “{document}” [{index}].",
        "es": "Relee la sección «{section}» de «{document}» [{index}].",
    },
    "tutor.hint.clue": {
        "en": "A good place to start is this sentence of the material: “{sentence}” [{index}]",
        "es": "Esta frase del material es un buen punto de partida: «{sentence}» [{index}]",
    },
    "tutor.hint.more": {"en": "Still stuck? Ask me for another hint.", "es": "¿Sigues atascado? Pídeme otra pista."},
    "tutor.hint.last": {
        "en": "That was the last hint: now answer, and you'll see the explanation afterwards.",
        "es": "Era la última pista: responde ahora y después verás la explicación.",
    },
    "tutor.hint.ask.test": {
        "en": "Which option would you rule out first, and why?",
        "es": "¿Qué opción descartarías primero y por qué?",
    },
    "tutor.hint.ask.true_false": {
        "en": "Which part of the statement could you check in the material?",
        "es": "¿Qué parte de la afirmación podrías comprobar en el material?",
    },
    "tutor.hint.ask.fill_blank": {
        "en": "What kind of information is missing: a number, a name, a period of time?",
        "es": "¿Qué tipo de dato falta: un número, un nombre, un plazo?",
    },
    "tutor.hint.ask.order_steps": {
        "en": "What has to happen before each step can be taken?",
        "es": "¿Qué tiene que ocurrir antes de poder dar cada paso?",
    },
    "tutor.hint.ask.practical_case": {
        "en": "What risk or priority do you see first in the case?",
        "es": "¿Qué riesgo o prioridad ves primero en el caso?",
    },
    "tutor.hint.ask.dialogue": {
        "en": "How would the other person feel with each possible reply?",
        "es": "¿Cómo se sentiría la otra persona con cada respuesta posible?",
    },
    "tutor.hint.ask.default": {
        "en": "Which key concept of the topic applies here?",
        "es": "¿Qué concepto clave del tema se aplica aquí?",
    },
    "tutor.hint.analogy.test": {
        "en": "Think of picking a tool from a toolbox: you first set aside the ones made for another job. "
        "Hold each option against the material the same way: which ones does it rule out?",
        "es": "Piensa en elegir una herramienta de una caja: primero apartas las que sirven para otro trabajo. "
        "Compara así cada opción con el material: ¿cuáles descarta?",
    },
    "tutor.hint.analogy.true_false": {
        "en": "Think of checking a receipt line by line: one wrong detail makes the whole receipt wrong. "
        "Check each detail of the statement (who, how much, how long) against the material.",
        "es": "Piensa en revisar un tique línea a línea: un solo dato erróneo invalida todo el tique. "
        "Comprueba cada detalle de la afirmación (quién, cuánto, qué plazo) con el material.",
    },
    "tutor.hint.analogy.fill_blank": {
        "en": "Think of a form with an empty field: the words around it tell you what goes there. "
        "Read the sentence around the gap and find that same sentence in the material.",
        "es": "Piensa en un formulario con un campo vacío: las palabras de alrededor te dicen qué va ahí. "
        "Lee la frase alrededor del hueco y busca esa misma frase en el material.",
    },
    "tutor.hint.analogy.order_steps": {
        "en": "Think of making coffee: you can't pour it before it is brewed, nor brew it before there is water. "
        "For each step, ask which other step it needs first, and start with the one that needs none.",
        "es": "Piensa en preparar un café: no puedes servirlo antes de hacerlo, ni hacerlo sin agua. "
        "Para cada paso pregúntate qué otro paso necesita antes, y empieza por el que no necesita ninguno.",
    },
    "tutor.hint.analogy.practical_case": {
        "en": "Think of a nurse doing triage: first what is urgent or risky, then what the protocol says, "
        "then who must be told. Walk the case in that order.",
        "es": "Piensa en una enfermera haciendo triaje: primero lo urgente o arriesgado, luego lo que dice el "
        "protocolo, luego a quién hay que avisar. Recorre el caso en ese orden.",
    },
    "tutor.hint.analogy.dialogue": {
        "en": "Think of the last time you complained somewhere: first you wanted to be heard, then helped. "
        "Which reply does that for the person in the dialogue?",
        "es": "Piensa en la última vez que te quejaste en algún sitio: primero querías que te escucharan y luego "
        "que te ayudaran. ¿Qué respuesta hace eso con la persona del diálogo?",
    },
    "tutor.hint.analogy.default": {
        "en": "Think of a similar situation from your own work and what the material asks you to do there.",
        "es": "Piensa en una situación parecida de tu trabajo y en lo que el material pide hacer en ella.",
    },
    # offline answers
    "tutor.hello": {
        "en": "Hi {name}! I'm your {org} tutor. Ask me about your courses or the company's documents.",
        "es": "¡Hola, {name}! Soy tu tutor de {org}. Pregúntame sobre tus cursos o los documentos de la empresa.",
    },
    "tutor.thanks": {
        "en": "You're welcome, {name}! Happy to help with your next question.",
        "es": "¡De nada, {name}! Si quieres, seguimos con otra duda.",
    },
    "tutor.bye": {
        "en": "See you soon, {name}! I'll be here when you want to keep learning.",
        "es": "¡Hasta pronto, {name}! Aquí estaré cuando quieras seguir aprendiendo.",
    },
    "tutor.course_now": {"en": "You are in “{course}” right now.", "es": "Ahora estás en «{course}»."},
    "tutor.off_topic": {
        "en": "That's outside what I can help you learn here. Let's stay with your training and {org}'s documents.",
        "es": "Eso queda fuera de lo que puedo ayudarte a aprender aquí. Prefiero centrarme en tu "
        "formación y en los documentos de {org}.",
    },
    "tutor.off_topic_courses": {
        "en": "For example, we could review {courses}.",
        "es": "Por ejemplo, podemos repasar {courses}.",
    },
    "tutor.grounded": {"en": "According to the company material:", "es": "Según el material de la empresa:"},
    "tutor.document": {"en": "According to the course document:", "es": "Según el documento del curso:"},
    "tutor.quoted_from": {
        "en": "(quoted from the {language} text “{document}”)",
        "es": "(cita del texto en {language} «{document}»)",
    },
    "tutor.language.es": {"en": "Spanish", "es": "español"},
    "tutor.language.en": {"en": "English", "es": "inglés"},
    "tutor.nothing_found": {
        "en": "I found nothing about this in {org}'s documents. Here is how you can go on:",
        "es": "No encontré nada sobre esto en los documentos de {org}. Así puedes seguir:",
    },
    "tutor.general.opening": {
        "en": "I found nothing about this in {org}'s documents. What follows is general knowledge, not {org}'s rules:",
        "es": "No encontré nada sobre esto en los documentos de {org}. Lo que sigue es conocimiento general, no "
        "normas de {org}:",
    },
    "tutor.closest": {"en": "Closest material: {titles}.", "es": "Lo más cercano: {titles}."},
    "tutor.closest_in": {
        "en": "Closest material: {titles}, under {section}.",
        "es": "Lo más cercano: {titles}, en {section}.",
    },
    "tutor.ways_forward": {
        "en": "Ask the helpdesk (below), or ask again with the words your documents would use.",
        "es": "Pregunta al helpdesk (abajo) o vuelve a preguntar con las palabras que usarían tus documentos.",
    },
    "tutor.list_or": {"en": " or ", "es": " o "},
    "tutor.quote": {"en": "“{text}”", "es": "«{text}»"},
    "tutor.progress_none": {"en": "You have no courses assigned yet.", "es": "Todavía no tienes cursos asignados."},
    "tutor.progress_head": {"en": "Here is where you stand, {name}:", "es": "Así vas, {name}:"},
    "tutor.progress_course": {
        "en": "“{course}”: {status}{progress}{deadline}{score}",
        "es": "«{course}»: {status}{progress}{deadline}{score}",
    },
    "tutor.progress_done": {"en": ", {progress} done", "es": ", {progress} completado"},
    "tutor.deadline": {"en": ", deadline {date}", "es": ", fecha límite {date}"},
    "tutor.score": {"en": ", score {score}", "es": ", nota {score}"},
    "tutor.reviews": {
        "en": "You have {n, plural, one {# review} other {# reviews}} due today.",
        "es": "Tienes {n, plural, one {# repaso pendiente} other {# repasos pendientes}} para hoy.",
    },
    "tutor.no_reviews": {"en": "You have no reviews due.", "es": "No tienes repasos pendientes."},
    "tutor.skills": {"en": "Skills: {skills}.", "es": "Habilidades: {skills}."},
    "tutor.failures": {"en": "Worth reviewing: {items}.", "es": "Conviene repasar: {items}."},
    "tutor.failed_exercise": {"en": "“{exercise}”", "es": "«{exercise}»"},
    "tutor.earlier_topics": {"en": "Topics discussed earlier", "es": "Temas tratados antes"},
    # follow-ups
    "tutor.suggest.example": {
        "en": "Give me a practical example of “{topic}”",
        "es": "Dame un ejemplo práctico de «{topic}»",
    },
    "tutor.suggest.more": {"en": "What else does “{topic}” say?", "es": "¿Qué más dice «{topic}»?"},
    "tutor.suggest.course": {"en": "Is there a course on this topic?", "es": "¿Hay algún curso sobre este tema?"},
    "tutor.suggest.progress": {"en": "How am I doing in my courses?", "es": "¿Cómo voy en mis cursos?"},
    "tutor.suggest.review": {"en": "What should I review today?", "es": "¿Qué debería repasar hoy?"},
    "tutor.suggest.next": {"en": "What is my next step?", "es": "¿Cuál es mi siguiente paso?"},
    "tutor.suggest.learn": {"en": "What can I learn today?", "es": "¿Qué puedo aprender hoy?"},
    "tutor.suggest.explain_course": {
        "en": "Explain the key points of “{topic}”",
        "es": "Explícame los puntos clave de «{topic}»",
    },
    # a chip's answer (agents/tutor/chip_answers.py), from the material it names
    "tutor.chip.more": {"en": "This is what “{topic}” says:", "es": "Esto es lo que dice «{topic}»:"},
    "tutor.chip.all_said": {
        "en": "“{topic}” says no more than I quoted: this is all of it.",
        "es": "«{topic}» no dice más de lo que te cité: esto es todo.",
    },
    "tutor.chip.explain": {"en": "The key points of “{topic}”:", "es": "Los puntos clave de «{topic}»:"},
    "tutor.chip.example": {
        "en": "I can't write an example without a language model. These are the concrete rules of “{topic}”, "
        "to picture a case with:",
        "es": "Sin un modelo de lenguaje no puedo inventar un ejemplo. Estas son las reglas concretas de «{topic}», "
        "para imaginar un caso:",
    },
    "tutor.chip.key_points_document": {
        "en": "The key points of “{topic}”, section by section:",
        "es": "Los puntos clave de «{topic}», apartado por apartado:",
    },
    "tutor.chip.more_sections": {
        "en": "{n, plural, one {One more section is} other {# more sections are}} in the source.",
        "es": "{n, plural, one {Hay un apartado más} other {Hay # apartados más}} en la fuente.",
    },
    "tutor.suggest.hint": {"en": "Give me another hint", "es": "Dame otra pista"},
    "tutor.suggest.concept": {
        "en": "Which concept should I review for this exercise?",
        "es": "¿Qué concepto debería repasar para este ejercicio?",
    },
    # next steps (actions under an answer)
    # what the chat's status line says to a screen reader when a step ends (Gradio's own catalogue lacks it)
    "tutor.chat.status_done": {"en": "Done", "es": "Hecho"},
    "tutor.chat.status_error": {"en": "Something went wrong", "es": "Algo ha fallado"},
    "tutor.action.helpdesk": {"en": "Ask the helpdesk", "es": "Preguntar al helpdesk"},
    "tutor.action.didnt_help": {
        "en": "This didn't help: ask the helpdesk",
        "es": "No me ha servido: preguntar al helpdesk",
    },
    "tutor.action.course": {"en": "Course: {title}", "es": "Curso: {title}"},
    "tutor.action.document": {"en": "Document: {title}", "es": "Documento: {title}"},
    # the source viewer
    "tutor.source.title": {"en": "Sources", "es": "Fuentes"},
    "tutor.source.page": {"en": "page {page} of {pages}", "es": "página {page} de {pages}"},
    "tutor.source.page_short": {"en": "p. {page}", "es": "pág. {page}"},
    "tutor.source.not_found": {"en": "Source not found.", "es": "Fuente no encontrada."},
    "tutor.source.pick": {"en": "Document", "es": "Documento"},
    "tutor.source.download": {
        "en": "Download the original file ({name})",
        "es": "Descargar el archivo original ({name})",
    },
    "tutor.source.download_text": {"en": "Download the text", "es": "Descargar el texto"},
    "tutor.source.no_original": {
        "en": "The original file is not kept on this server; the text is.",
        "es": "El archivo original no se guarda en este servidor; el texto sí.",
    },
    "tutor.source.cited": {"en": "The cited passage is highlighted.", "es": "El pasaje citado está resaltado."},
    "tutor.source.cited_sentence": {
        "en": "The cited sentence is highlighted, in its passage.",
        "es": "La frase citada está resaltada, dentro de su pasaje.",
    },
    "tutor.source.earlier": {
        "en": "Earlier in the document ({count} passages)",
        "es": "Antes en el documento ({count} pasajes)",
    },
    "tutor.source.panel": {"en": "Sources of the last answer", "es": "Fuentes de la última respuesta"},
    "tutor.source.lesson": {"en": "Lesson", "es": "Lección"},
    "tutor.source.open_manual": {"en": "Open the whole manual", "es": "Abrir el manual completo"},
    # the chat
    "tutor.chat.label": {"en": "Tutor", "es": "Tutor"},
    "tutor.chat.placeholder": {"en": "Ask your tutor…", "es": "Pregunta a tu tutor…"},
    "tutor.chat.send": {"en": "Send", "es": "Enviar"},
    "tutor.chat.new": {"en": "+ New chat", "es": "+ Nueva conversación"},
    "tutor.chat.conversations": {"en": "Conversations", "es": "Conversaciones"},
    "tutor.chat.rename": {"en": "Rename", "es": "Renombrar"},
    "tutor.chat.delete": {"en": "Delete", "es": "Borrar"},
    "tutor.chat.sources": {"en": "Sources", "es": "Fuentes"},
    "tutor.chat.open_source": {"en": "open", "es": "abrir"},
    "tutor.chat.next_steps": {"en": "Next steps", "es": "Siguientes pasos"},
    "tutor.badge.company": {"en": "Company document", "es": "Documento de la empresa"},
    "tutor.badge.course": {"en": "Enrolled-course document", "es": "Documento de tu curso"},
    "tutor.badge.general": {"en": "General knowledge", "es": "Conocimiento general"},
    "tutor.badge.progress": {"en": "Your learning data", "es": "Tus datos de aprendizaje"},
    "tutor.badge.none": {"en": "No documents needed", "es": "Sin documentos"},
    "tutor.badge.not_found": {"en": "Not in the company documents", "es": "No está en los documentos de la empresa"},
    "tutor.badge.low_confidence": {"en": "Low confidence: {reason}", "es": "Confianza baja: {reason}"},
    "tutor.low.removed_citations": {
        "en": "some references matched no source and were removed",
        "es": "algunas referencias no correspondían a ninguna fuente y se han quitado",
    },
    "tutor.low.unsupported": {
        "en": "some sentences are not backed by the cited passages",
        "es": "algunas frases no están respaldadas por los pasajes citados",
    },
    "tutor.low.uncited": {
        "en": "the answer cites none of the passages found",
        "es": "la respuesta no cita ninguno de los pasajes encontrados",
    },
    "tutor.low.not_grounded": {
        "en": "nothing in the company documents backs it",
        "es": "nada en los documentos de la empresa lo respalda",
    },
}
