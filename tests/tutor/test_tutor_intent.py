"""What kind of message a question is (agents/tutor/classify.py): a question about a rule or a role that names
courses, progress or a deadline is a question for the documents; "how am I doing?" is one for the learner's record.

Session 19's newcomer walk: "¿Mi jefe puede ver cómo voy en los cursos?" and "what's the deadline for compulsory
courses when I'm new?" got the learner's course list; the onboarding guide answers both (who sees training records,
the newcomer's deadline)."""

from __future__ import annotations

import json

import pytest

from agents.i18n import t
from agents.runtime.deps import process_embedder
from agents.tutor.classify import heuristic_intent, offline_intent
from core.turns import Grounding
from tests.fake_openai import Reply
from tests.tutor.conftest import by_name, run

EMBEDDER = process_embedder()

RULES_ABOUT_COURSES = [
    "¿Mi jefe puede ver cómo voy en los cursos?",
    "what's the deadline for compulsory courses when I'm new?",
    "is there a deadline for the compulsory courses when you're new?",
    "What happens if I miss the deadline for my compulsory courses?",
    "¿Recursos humanos se entera de mis notas en los cursos?",
    "Does HR get told about my course scores?",
    "Is my manager told if I fail a course?",
    "¿Le avisan a mi responsable si suspendo un curso?",
    "¿Puedo hablar de cómo voy en el trabajo con mi compañero de acogida en vez de con mi jefe?",
    "Is there a deadline for the compulsory courses?",
    "¿Hay un plazo para hacer la formación obligatoria?",
    # a performance review and the probation period are processes the onboarding guide describes (session 20's walk)
    "When is my first performance review?",
    "Do I have to finish the courses before my probation ends?",
    # compulsory training is a rule (an answer eval question that the session-21 exemplars first sent to her record)
    "¿En qué plazo tengo que completar la formación obligatoria?",
]
MY_OWN_RECORD = [
    "How am I doing?",
    "¿Cuántos cursos me quedan?",
    "What are my deadlines?",
    "¿Cuáles son mis fechas límite?",
    "¿Qué nota saqué?",
    "¿Qué cursos tengo sin terminar?",
    "When do I have to finish my courses?",
    "What is my next deadline?",
    # "is there…?" about her own things: not whether a rule exists
    "¿Hay algún repaso pendiente?",
    "Is there anything left in my course?",
    "are there reviews due for me today?",
    "is there a deadline on my returns course?",
    "¿Hay alguna fecha límite en mi curso de devoluciones?",
    # what is left, what to review, how she did (session 21: these went to the documents)
    "What should I review today?",
    "¿Cuánto me falta del curso de devoluciones?",
    "¿Qué me toca repasar hoy?",
    "Have I finished the security course?",
    "¿Ya terminé el curso de seguridad?",
    "What did I get wrong in the last quiz?",
    "¿En qué voy peor?",
    "¿Qué tengo que estudiar esta semana?",
    "Am I behind on anything?",
    "¿Voy atrasada en algo?",
]
# Written in session 21 before the exemplars and words above were added, and not tuned on: offline, progress 5 -> 10
# of 15, documents 15 of 15 before and after. The floors are the after figures.
HELD_OUT_PROGRESS = [
    "¿Tengo algo pendiente para esta semana?",
    "Do I have any quizzes waiting for me?",
    "¿Cuánto me queda para terminar el curso de atención al cliente?",
    "How far along am I in the warehouse course?",
    "¿He aprobado el test de seguridad de la información?",
    "Did I pass the returns quiz?",
    "¿Qué lección me toca ahora?",
    "Which lesson should I do next?",
    "¿Qué repasos tengo hoy?",
    "What do I need to revise this week?",
    "¿Se me ha pasado algún plazo?",
    "Have I missed any deadlines?",
    "¿En qué temas fallo más?",
    "Where am I going wrong in my exercises?",
    "¿Cuándo tengo que tener acabado el curso de gastos?",
]
HELD_OUT_DOCUMENTS = [
    "¿Qué pasa si no termino la formación obligatoria a tiempo?",
    "Do trainees have to finish the safety course before driving a forklift?",
    "¿Cuántas horas dura el curso de carretillas?",
    "How often do we have to repeat the security awareness training?",
    "¿Quién revisa mi progreso durante el periodo de prueba?",
    "Who do I tell if I can't finish a course because of work?",
    "¿Cuánto tiempo tengo para devolver unas zapatillas?",
    "What do I do if a customer is rude on the phone?",
    "¿Puedo llevarme el portátil a casa el fin de semana?",
    "How much can I spend on dinner on a business trip?",
    "¿Qué tengo que llevar el primer día?",
    "When do I get my first performance review?",
    "¿Cada cuánto se revisan las estanterías del almacén?",
    "Is the fire training mandatory for everyone?",
    "¿Tengo que repasar el manual de seguridad cada año?",
]


@pytest.mark.parametrize("question", RULES_ABOUT_COURSES)
def test_a_rule_or_a_role_that_names_courses_is_a_question_for_the_documents(question):
    assert heuristic_intent(question) is None  # no phrase decides it: a model, or the exemplars
    assert offline_intent(question, False, EMBEDDER) == "cross_course"
    assert offline_intent(question, True, EMBEDDER) == "in_course"


@pytest.mark.parametrize("question", MY_OWN_RECORD)
def test_where_the_learner_stands_is_a_progress_question(question):
    assert offline_intent(question, False, EMBEDDER) == "progress"


@pytest.mark.parametrize("language", ["es", "en"])
def test_the_tutors_own_record_chips_reach_the_record_without_a_model(language):
    """Offered after a progress answer or a greeting, they were read as document questions: "¿Qué debería repasar
    hoy?" and "What can I learn today?" got "not found", "¿Cuál es mi siguiente paso?" a travel guide's "Next Step:
    First-Time Travel", "¿Qué puedo aprender hoy?" the warehouse's near accidents (session 21's review)."""
    for key in ("tutor.suggest.review", "tutor.suggest.next", "tutor.suggest.progress", "tutor.suggest.learn"):
        assert heuristic_intent(t(key, language)) == "progress", t(key, language)


def test_held_out_questions_reach_the_record_or_the_documents_as_measured():
    progress = sum(offline_intent(q, False, EMBEDDER) == "progress" for q in HELD_OUT_PROGRESS)
    documents = sum(offline_intent(q, False, EMBEDDER) == "cross_course" for q in HELD_OUT_DOCUMENTS)
    assert progress >= 10 and documents == len(HELD_OUT_DOCUMENTS)


def test_a_model_reading_a_rule_question_as_progress_is_overruled(seeded_pool, lucia, fake_openai):
    """The model's categories say "progress: deadlines…"; the rule question still goes to the documents."""

    def responder(request):
        if (request.get("response_format") or {}).get("type") == "json_object":
            return Reply(text=json.dumps({"intent": "progress"}))
        return Reply(text="Tu responsable ve tu avance en la formación obligatoria [1].")

    fake_openai.responder = responder
    events, _ = run(lucia, "¿Mi jefe puede ver cómo voy en los cursos?", seeded_pool)
    assert by_name(events, Grounding).source != "db"
    events, _ = run(lucia, "¿Qué nota saqué en mis cursos?", seeded_pool)
    assert by_name(events, Grounding).source == "db"
