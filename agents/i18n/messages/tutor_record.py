"""What the tutor says from the learner's own record when asked what to do next: the next step
(agents/tutor/next_step.py), what is due today (due_today.py) and the link under them to the reviews."""

MESSAGES = {
    # "what's my next step?": one line, then the way to the whole record (agents/tutor/next_step.py)
    "tutor.next.lesson": {
        "en": "Your next step: the lesson “{lesson}” of “{course}”.",
        "es": "Tu siguiente paso: la lección «{lesson}» de «{course}».",
    },
    "tutor.next.course": {
        "en": "Your next step: carry on with “{course}”.",
        "es": "Tu siguiente paso: seguir con «{course}».",
    },
    "tutor.next.why.overdue": {
        "en": "Its deadline, {date}, has passed.",
        "es": "Su fecha límite, el {date}, ya ha pasado.",
    },
    "tutor.next.why.deadline": {
        "en": "It is due on {date} and you have done {progress}.",
        "es": "Vence el {date} y llevas el {progress}.",
    },
    "tutor.next.why.started": {"en": "You have done {progress} of it.", "es": "Llevas el {progress}."},
    "tutor.next.why.not_started": {"en": "You haven't started the course yet.", "es": "Aún no has empezado el curso."},
    "tutor.next.reviews": {
        "en": "Your next step: {n, plural, one {the review due today. Done on the day it falls due} other {the # reviews due today. Done on the day they fall due}}, what you learned stays with you.",
        "es": "Tu siguiente paso: {n, plural, one {el repaso pendiente de hoy. Hecho el día que toca} other {los # repasos pendientes de hoy. Hechos el día que tocan}}, lo aprendido se queda.",
    },
    "tutor.next.done": {
        "en": "You have nothing pending: every course of yours is finished. To keep learning, ask “{ask}”",
        "es": "No tienes nada pendiente: has terminado todos tus cursos. Para seguir aprendiendo, pregunta «{ask}»",
    },
    "tutor.next.more": {
        "en": "For your whole progress, ask “{ask}”",
        "es": "Para ver todo tu progreso, pregunta «{ask}»",
    },
    # "what should I review today?": what is due, where from, then the way to the whole record (due_today.py)
    "tutor.due.head": {
        "en": "You have {n, plural, one {# review} other {# reviews}} due today:",
        "es": "Hoy te {n, plural, one {toca # repaso} other {tocan # repasos}}:",
    },
    "tutor.due.lesson": {"en": "{n} from “{lesson}” (“{course}”)", "es": "{n} de «{lesson}» («{course}»)"},
    "tutor.due.rest": {
        "en": "and {n, plural, one {# more lesson} other {# more lessons}}",
        "es": "y {n, plural, one {# lección más} other {# lecciones más}}",
    },
    "tutor.due.why": {
        "en": "Done on the day they fall due, what you learned stays with you.",
        "es": "Hechos el día que tocan, lo aprendido se queda.",
    },
    "tutor.due.none": {
        "en": "You have no reviews due today. To see what to do now, ask “{ask}”",
        "es": "Hoy no tienes repasos pendientes. Para saber qué hacer ahora, pregunta «{ask}»",
    },
    # a link under the answer when it is the reviews due
    "tutor.action.reviews": {
        "en": "Do {n, plural, one {your review} other {your # reviews}} now",
        "es": "Hacer {n, plural, one {tu repaso} other {tus # repasos}} ahora",
    },
}
