"""The tutor that adapts to the learner (issue 29, spec 003): the guiding question of a guided course and the
feedback on the learner's guess, the support picked from their record, the lesson or review that helps, and
why; the course's tutor mode."""

MESSAGES = {
    # the guiding question, by the kind of thing asked ({topic}: the section the answer comes from, quoted)
    "tutor.guide.heading": {"en": "“{heading}”", "es": "«{heading}»"},
    # a section of a document in the other language: the learner is told before reading its heading
    "tutor.guide.heading_other_language": {
        "en": "“{heading}” (a section in {language})",
        "es": "«{heading}» (apartado en {language})",
    },
    "tutor.guide.ask.when": {
        "en": "Think first: what time limit do you think {topic} sets, and from when does it count?",
        "es": "Piénsalo primero: ¿qué plazo crees que marca {topic}, y desde cuándo empieza a contar?",
    },
    "tutor.guide.ask.number": {
        "en": "Think first: what number would you expect from {topic}, and why that one?",
        "es": "Piénsalo primero: ¿qué número esperarías según {topic}, y por qué ese?",
    },
    "tutor.guide.ask.permission": {
        "en": "Think about it first: do you think it's allowed? Which condition in {topic} would it depend on?",
        "es": "Piénsalo primero: ¿crees que está permitido? ¿De qué condición de {topic} dependería?",
    },
    "tutor.guide.ask.steps": {
        "en": "Think first: which step do you think comes first in {topic}, and why that one?",
        "es": "Piénsalo primero: ¿qué paso crees que va primero según {topic}, y por qué ese?",
    },
    "tutor.guide.ask.why": {
        "en": "What risk or problem do you think {topic} is there to prevent?",
        "es": "¿Qué riesgo o problema crees que quiere evitar {topic}?",
    },
    "tutor.guide.ask.define": {
        "en": "Think back to {topic}: how would you explain it in your own words?",
        "es": "Piensa en lo que viste en {topic}: ¿cómo lo explicarías con tus palabras?",
    },
    "tutor.guide.ask.recall": {
        "en": "What do you remember from {topic} that answers this?",
        "es": "¿Qué recuerdas de {topic} que responda a esto?",
    },
    # how to reply to it, by the support level picked from the learner's record (1 least, 3 most)
    "tutor.guide.reply.1": {
        "en": "Tell me what you think and I'll check it against the material, or say “{reveal}” for the answer.",
        "es": "Dime qué crees y lo comprobamos con el material, o escribe «{reveal}» para verla ya.",
    },
    "tutor.guide.reply.2": {
        "en": "A clue: the answer is in {topic}. Tell me what you think and I'll check it against the material, "
        "or say “{reveal}” for the answer.",
        "es": "Una pista: la respuesta está en {topic}. Dime qué crees y lo comprobamos con el material, "
        "o escribe «{reveal}» para verla ya.",
    },
    "tutor.guide.reply.3": {
        "en": "Take your time: give me your best guess, even a partial one, and we'll go through the material "
        "together step by step. If you'd rather have the answer now, say “{reveal}”.",
        "es": "Con calma: dime lo que creas, aunque sea una parte, y repasamos juntos el material paso a paso. "
        "Si prefieres la respuesta ahora, pide «{reveal}».",
    },
    # the way out of a guiding question (a chip under it; typing it works too)
    "tutor.guide.reveal": {"en": "Just tell me", "es": "Dime la respuesta"},
    # the learner's guess compared with the fact that answers the question
    "tutor.guide.feedback.right": {
        "en": "✅ Well thought: “{guess}” matches what the material says.",
        "es": "✅ Bien pensado: «{guess}» coincide con lo que dice el material.",
    },
    "tutor.guide.feedback.figure": {
        "en": "❌ Not quite: you said {said}, and the material says {fact}.",
        "es": "❌ No exactamente: dijiste {said} y el material dice {fact}.",
    },
    "tutor.guide.feedback.partly": {
        "en": "🟡 Partly: you're on the right track, but check the details against what the material says.",
        "es": "🟡 En parte: vas por buen camino, pero revisa los detalles con lo que dice el material.",
    },
    "tutor.guide.feedback.wrong": {
        "en": "❌ Not quite: “{guess}” isn't what the material says. Here it is.",
        "es": "❌ No exactamente: «{guess}» no es lo que dice el material. Esto es lo que dice.",
    },
    "tutor.guide.feedback.compare": {
        "en": "Compare “{guess}” with what the material says.",
        "es": "Compara «{guess}» con lo que dice el material.",
    },
    # why the learner gets this kind of answer
    "tutor.adapt.why.guided": {
        "en": "I'm asking first because you're taking the course “{course}” (guided mode){signal}.",
        "es": "Te pregunto primero porque estás haciendo el curso «{course}» (modo guiado){signal}.",
    },
    "tutor.adapt.why.direct": {
        "en": "I suggest this because you're taking the course “{course}”{signal}.",
        "es": "Te lo sugiero porque estás haciendo el curso «{course}»{signal}.",
    },
    "tutor.adapt.signal.recent_wrong": {
        "en": " and {n} of your last {of} answers in it were wrong",
        "es": " y fallaste {n} de tus últimas {of} respuestas en él",
    },
    "tutor.adapt.signal.first_tries": {
        "en": " and you got {right} of {of} exercises right at the first try",
        "es": " y acertaste a la primera {right} de {of} ejercicios",
    },
    "tutor.adapt.signal.fading": {
        "en": " and {n} of your {of} reviews in it are fading from memory",
        "es": " y {n} de tus {of} repasos del curso se te están olvidando",
    },
    # what helps, when the question touches what the learner is weak in
    "tutor.adapt.help.lesson": {
        "en": "📚 To strengthen it, go back to the lesson “{lesson}”.",
        "es": "📚 Para reforzarlo, vuelve a la lección «{lesson}».",
    },
    "tutor.adapt.help.reviews": {
        "en": "🔁 {n, plural, one {# review} other {# reviews}} of this course {n, plural, one {is} other {are}} due: doing {n, plural, one {it} other {them}} now is the quickest way to fix it.",
        "es": "🔁 Tienes {n, plural, one {# repaso pendiente} other {# repasos pendientes}} de este curso: hacerlos ahora es lo más rápido para fijarlo.",
    },
    "tutor.adapt.help.skills": {
        "en": "🎯 Your level in {skills} is below what the course aims for.",
        "es": "🎯 Tu nivel en {skills} está por debajo del que busca el curso.",
    },
    "tutor.adapt.quoted": {"en": "“{name}”", "es": "«{name}»"},
    "tutor.adapt.action.lesson": {"en": "Go to the lesson: {title}", "es": "Ir a la lección: {title}"},
    # the admin's setting, per course
    "admin.tutor_mode.label": {"en": "Tutor mode for this course", "es": "Modo del tutor en este curso"},
    "admin.tutor_mode.help": {
        "en": "Guided: the tutor first asks a question that makes the learner think and waits for their answer, "
        "then gives the facts. Direct: the facts first. Applies to learners taking the course.",
        "es": "Guiado: el tutor primero hace una pregunta que hace pensar y espera la respuesta del alumno; "
        "luego da los datos. Directo: primero los datos. Se aplica a quienes están haciendo el curso.",
    },
    "admin.tutor_mode.saved": {
        "en": "Tutor mode of “{course}”: {mode}.",
        "es": "Modo del tutor de «{course}»: {mode}.",
    },
    "code.tutor_mode.guided": {"en": "guided", "es": "guiado"},
    "code.tutor_mode.direct": {"en": "direct", "es": "directo"},
    "code.audit_action.course.tutor_mode": {"en": "course tutor mode changed", "es": "modo del tutor cambiado"},
}
