"""The tutor's first node: what kind of message this is (a course question, the learner's progress, chitchat,
off topic). Greetings and progress phrases decide without a model; the model's answer has an offline twin
that matches the message against exemplars by embedding similarity."""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING

from langgraph.runtime import Runtime
from pydantic import BaseModel

from agents.i18n import LANGUAGES, t
from agents.offline import match_exemplars
from agents.tutor import prompts
from agents.tutor.chip_questions import answers_a_chip, recognise
from agents.tutor.due_today import asks_due_today
from agents.tutor.guardrails import normalize
from agents.tutor.next_step import asks_next_step
from agents.tutor.state import Intent, TutorContext, TutorState

if TYPE_CHECKING:
    from agents.runtime.deps import Embedder

# Whole-message greetings and unmistakable progress phrases decide without a model call (000 §1.3).
_GREETINGS = {
    "hola",
    "hi",
    "hello",
    "hey",
    "buenas",
    "buenos dias",
    "buenas tardes",
    "buenas noches",
    "good morning",
    "gracias",
    "muchas gracias",
    "thanks",
    "thank you",
    "adios",
    "bye",
    "chao",
    "hasta luego",
    "ok gracias",
    "vale gracias",
}
_PROGRESS = re.compile(
    r"\b(mi progreso|my progress|mis notas?|my (scores?|grades?)|mi puntaje|cuanto llevo|"
    r"fechas? limite|deadlines?|como voy|how am i doing|repasos? pendientes?|reviews? due|"
    r"mis cursos|my courses|mis habilidades|my skills)\b"
)
# The offline classifier's exemplars (matched by embedding similarity).
_EXEMPLARS = {
    "academic": [
        "¿Cuál es el plazo para devolver un producto?",
        "¿Qué hago si un cliente pide un reembolso?",
        "Explícame el procedimiento de seguridad",
        "How do I handle a customer complaint?",
        "What is the policy for refunds?",
        "Explain the steps of the opening checklist",
        # questions about the learner's own entitlements are policy questions, not progress
        "How many days of holiday am I entitled to?",
        "Can I take unpaid leave for a family reason?",
        "¿Me pagan las horas extra si trabajo un festivo?",
    ],
    "progress": [
        "¿Qué cursos tengo pendientes?",
        "¿Cuándo vence mi curso?",
        "¿Qué nota saqué?",
        "Which courses do I have left?",
        "When is my course due?",
        "What score did I get?",
        # where the learner stands in her own learning: what is left, what to review, how she did
        "¿Qué me toca repasar hoy?",
        "¿Cuánto me falta para terminar el curso?",
        "¿Ya he terminado el curso?",
        "¿En qué fallo más?",
        "What should I review today?",
        "How much of the course have I got left?",
        "Have I finished the course?",
        "What did I get wrong in the quiz?",
    ],
    "off_topic": [
        "¿Quién ganó el partido de fútbol ayer?",
        "Dame una receta de paella",
        "¿Qué tiempo hará mañana?",
        "Who won the football match last night?",
        "Tell me a celebrity gossip story",
        "Who should I vote for in the election?",
        "Cuéntame un chiste",
        "Tell me a joke",
        "Recomiéndame una serie de Netflix",
        "What movie should I watch tonight?",
    ],
}
# e5 similarities bunch together, so a label must beat the academic reading by a margin; progress
# also needs the learner to be talking about themselves and about their learning ("¿Cuánto tarda en
# configurarse mi cuenta de Concur?" sat nearer "¿Cuándo vence mi curso?" than any policy question and got
# Lucía's progress report).
_OFF_TOPIC_MARGIN = 0.04
_PROGRESS_MARGIN = 0.03
# A longer message asks the next step of something else ("what should I do next if a customer complains?")
NEXT_STEP_WORDS = 7
# "¿Qué nota saqué?", "¿En qué voy peor?" say no "mi"
_ABOUT_ME = re.compile(r"\b(mi|mis|me|my|i|am|yo|tengo|llevo|saque|voy|fallo|he|termine)\b")
LEARNING_WORDS = re.compile(
    r"\b(cursos?|courses?|notas?|scores?|grades?|repasos?|reviews?|progreso|progress|leccion(es)?|lessons?|"
    r"ejercicios?|exercises?|modulos?|modules?|habilidad(es)?|skills?|deadlines?|formacion|training|"
    r"quiz(zes)?|tests?|repasar|revise|estudiar|study|aprobado|passed?|atrasad[oa]|behind|peor|weakest)\b"
)


# A question about a rule or a role is a document question even when it names courses, progress or a deadline:
# who sees or is told ("¿Mi jefe puede ver cómo voy en los cursos?", "Does HR get told about my scores?"), what
# happens if, how often, what a newcomer must do ("what's the deadline for compulsory courses when I'm new?"), pay.
# The documents answer these; the learner's own record answers "how am I doing?", "¿cuántos cursos me quedan?",
# "what are my deadlines?" (issue 29, the session 19 walk). A performance review or the probation period is an HR
# process the onboarding guide describes, not a course's review ("When is my first performance review?").
_RULE_OR_ROLE = re.compile(
    r"\b(jef[ae]s?|(line )?managers?|responsables?|supervisor[ae]?s?|boss|hr|rrhh|recursos humanos|"
    r"people (and )?culture|quien(es)?|who|whom|what happens|que (pasa|ocurre|sucede)|"
    r"how often|cada cuanto|new (starters?|joiners?|hires?|employees?)|newcomers?|"
    r"when (i m|i am|you re|you are|we re) new|soy nuev[oa]|(los|las) nuev[oa]s|(get|gets|getting) paid|"
    r"me pagan|se paga|performance reviews?|evaluacion(es)? de desempeno|probation|periodo de prueba)\b"
)
# "Is there a…?" asks whether a rule exists, unless it asks about the learner's own things ("¿Hay algún repaso
# pendiente?", "is there a deadline on my returns course?", "are there reviews due for me?"): her record answers.
_IS_THERE = re.compile(r"\b(is there|are there|hay (un|una|algun|alguna))\b")
_HER_OWN = re.compile(r"\b(my|mine|me|mi|mis|pending|pendientes?|left|due|queda|quedan)\b")


# Compulsory training is a rule the documents state ("¿En qué plazo tengo que completar la formación obligatoria?"),
# unless the message asks about the learner's own ("what compulsory courses do I have left?").
_OBLIGATION = re.compile(r"\b(obligatori[oa]s?|compulsory|mandatory)\b")


def asks_a_rule(message: str) -> bool:
    """Whether ``message`` asks how things work (a rule, a role, a newcomer's duty), not where the learner stands."""
    plain = normalize(message)
    general = (_IS_THERE.search(plain) or _OBLIGATION.search(plain)) and not _HER_OWN.search(plain)
    return bool(_RULE_OR_ROLE.search(plain) or general)


class IntentChoice(BaseModel):
    intent: Intent


@functools.cache
def _record_chips() -> frozenset[str]:
    """The follow-ups the tutor itself offers about the learner's record ("¿Qué debería repasar hoy?", "What is my
    next step?"), in every language: her record answers them, whatever words they share with a document."""
    keys = ("tutor.suggest.review", "tutor.suggest.next", "tutor.suggest.progress", "tutor.suggest.learn")
    return frozenset(normalize(t(key, language)) for key in keys for language in LANGUAGES)


def heuristic_intent(message: str) -> Intent | None:
    plain = normalize(message)
    if plain in _GREETINGS:
        return "chitchat"
    if plain in _record_chips():
        return "progress"
    if asks_next_step(message) and len(plain.split()) <= NEXT_STEP_WORDS:  # "what's my next step?", "¿por dónde sigo?"
        return "progress"
    if asks_due_today(message) and len(plain.split()) <= NEXT_STEP_WORDS:  # "¿qué me toca repasar hoy?"
        return "progress"
    if _PROGRESS.search(plain) and not asks_a_rule(message):
        return "progress"
    return None


def offline_intent(message: str, in_course: bool, embedder: Embedder) -> Intent:
    override = heuristic_intent(message)
    if override:
        return override
    scores = {label: match_exemplars(message, {label: examples}, embedder)[1] for label, examples in _EXEMPLARS.items()}
    if scores["off_topic"] - max(scores["academic"], scores["progress"]) >= _OFF_TOPIC_MARGIN:
        return "off_topic"
    plain = normalize(message)
    about_my_learning = _ABOUT_ME.search(plain) and LEARNING_WORDS.search(plain)
    if about_my_learning and not asks_a_rule(message) and scores["progress"] - scores["academic"] >= _PROGRESS_MARGIN:
        return "progress"
    return "in_course" if in_course else "cross_course"


def classify_intent(state: TutorState, runtime: Runtime[TutorContext]) -> dict:
    message, in_course = state["message"], bool(state.get("course_id"))
    override = heuristic_intent(message)
    if override:
        return {"intent": override}
    if recognise(message):  # one of our chips: a question on the material it names
        return {"intent": "in_course" if in_course else "cross_course"}
    ctx = runtime.context
    user = prompts.CLASSIFY_USER.format(
        where="inside a course" if in_course else "not inside any course (general chat)",
        course=state.get("course_title") or "None",
        lesson=state.get("lesson_title") or "None",
        message=message[:2000],
    )
    choice = ctx.llm.structured(
        "classifier",
        [{"role": "system", "content": prompts.CLASSIFY_SYSTEM}, {"role": "user", "content": user}],
        IntentChoice,
        twin=lambda: IntentChoice(intent=offline_intent(message, in_course, ctx.embedder)),
    )
    intent = choice.value.intent
    if intent == "progress" and asks_a_rule(message):
        intent = "in_course"
    if intent == "in_course" and not in_course:
        intent = "cross_course"
    return {"intent": intent}


def route_after_classify(state: TutorState) -> str:
    intent = state["intent"]
    if answers_a_chip(state):
        return "retrieve_named"
    if intent == "in_course" and state.get("course_id"):
        return "retrieve_course_context"
    if intent in ("in_course", "cross_course"):
        return "retrieve_semantic"
    if intent == "progress":
        return "retrieve_progress"
    return "skip_retrieval"
