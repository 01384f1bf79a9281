"""The tutor's deterministic side: offline answers (the generator's twin) and follow-up suggestions.

Everything here is built from the turn's real inputs (retrieved passages, the learner's data from the
database, the course in view, the exercise in progress) in the learner's language (es/en).
"""
from __future__ import annotations

from agents.offline import extractive_answer
from agents.tutor.guardrails import is_about_exercise, normalize, socratic_hint

_TEXT = {
    "es": {
        "hello": "¡Hola, {name}! Soy tu tutor de {org}. Pregúntame sobre tus cursos o los documentos de la empresa.",
        "thanks": "¡De nada, {name}! Si quieres, seguimos con otra duda.",
        "bye": "¡Hasta pronto, {name}! Aquí estaré cuando quieras seguir aprendiendo.",
        "course_now": "Ahora estás en «{course}».",
        "off_topic": ("Eso queda fuera de lo que puedo ayudarte a aprender aquí. Prefiero centrarme en tu "
                      "formación y en los documentos de {org}."),
        "off_topic_courses": "Por ejemplo, podemos repasar {courses}.",
        "grounded": "Según el material de la empresa:",
        "document": "Según el documento del curso:",
        "general": ("No encontré nada sobre esto en los documentos de {org}, y sin un modelo de lenguaje "
                    "configurado no puedo responder con conocimiento general."),
        "general_try": "Prueba a reformular la pregunta con los términos de tus cursos, por ejemplo {courses}.",
        "progress_none": "Todavía no tienes cursos asignados.",
        "progress_head": "Así vas, {name}:",
        "progress_course": "«{course}»: {status}, {progress:.0%} completado{deadline}{score}",
        "deadline": ", fecha límite {date}",
        "score": ", nota {score:.0%}",
        "reviews": "Tienes {n} repasos pendientes para hoy.",
        "no_reviews": "No tienes repasos pendientes.",
        "skills": "Habilidades: {skills}.",
        "failures": "Conviene repasar: {items}.",
        "status": {"assigned": "sin empezar", "in_progress": "en curso", "completed": "completado"},
        "level": {"low": "bajo", "medium": "medio", "high": "alto"},
    },
    "en": {
        "hello": "Hi {name}! I'm your {org} tutor. Ask me about your courses or the company's documents.",
        "thanks": "You're welcome, {name}! Happy to help with your next question.",
        "bye": "See you soon, {name}! I'll be here when you want to keep learning.",
        "course_now": "You are in “{course}” right now.",
        "off_topic": ("That's outside what I can help you learn here. Let's stay with your training and "
                      "{org}'s documents."),
        "off_topic_courses": "For example, we could review {courses}.",
        "grounded": "According to the company material:",
        "document": "According to the course document:",
        "general": ("I found nothing about this in {org}'s documents, and without a language model configured "
                    "I can't answer from general knowledge."),
        "general_try": "Try rephrasing with the terms of your courses, for example {courses}.",
        "progress_none": "You have no courses assigned yet.",
        "progress_head": "Here is where you stand, {name}:",
        "progress_course": "“{course}”: {status}, {progress:.0%} done{deadline}{score}",
        "deadline": ", deadline {date}",
        "score": ", score {score:.0%}",
        "reviews": "You have {n} reviews due today.",
        "no_reviews": "You have no reviews due.",
        "skills": "Skills: {skills}.",
        "failures": "Worth reviewing: {items}.",
        "status": {"assigned": "not started", "in_progress": "in progress", "completed": "completed"},
        "level": {"low": "low", "medium": "medium", "high": "high"},
    },
}

_GREETING_WORDS = {"thanks": {"gracias", "thanks", "thank", "thx", "merci"},
                   "bye": {"adios", "bye", "chao", "goodbye", "hasta"}}


def texts(language: str) -> dict:
    return _TEXT.get(language, _TEXT["en"])


def _course_list(progress: dict | None, language: str) -> str:
    titles = [f"«{e['course']}»" if language == "es" else f"“{e['course']}”"
              for e in (progress or {}).get("enrollments", []) if e.get("status") != "completed"][:2]
    joiner = " o " if language == "es" else " or "
    return joiner.join(titles)


def chitchat(message: str, name: str, org: str, course: str | None, language: str) -> str:
    words = texts(language)
    said = set(normalize(message).split())
    kind = next((k for k, vocab in _GREETING_WORDS.items() if said & vocab), "hello")
    lines = [words[kind].format(name=name, org=org)]
    if course and kind == "hello":
        lines.append(words["course_now"].format(course=course))
    return " ".join(lines)


def off_topic(org: str, progress: dict | None, language: str) -> str:
    words = texts(language)
    courses = _course_list(progress, language)
    return " ".join([words["off_topic"].format(org=org)]
                    + ([words["off_topic_courses"].format(courses=courses)] if courses else []))


def progress_text(progress: dict | None, name: str, language: str) -> str:
    words, progress = texts(language), progress or {}
    enrollments = progress.get("enrollments") or []
    if not enrollments:
        lines = [words["progress_none"]]
    else:
        lines = [words["progress_head"].format(name=name)]
        for e in enrollments:
            lines.append("- " + words["progress_course"].format(
                course=e["course"], status=words["status"].get(e["status"], e["status"]),
                progress=e.get("progress") or 0,
                deadline=words["deadline"].format(date=e["deadline"]) if e.get("deadline") else "",
                score=words["score"].format(score=e["score"]) if e.get("score") is not None else ""))
    due = progress.get("reviews_due") or 0
    lines.append(words["reviews"].format(n=due) if due else words["no_reviews"])
    if progress.get("skills"):
        lines.append(words["skills"].format(skills=", ".join(
            f"{s['skill']} ({words['level'].get(s['level'], s['level'])})" for s in progress["skills"][:8])))
    if progress.get("recent_failures"):
        lines.append(words["failures"].format(items="; ".join(
            f["exercise"][:80] for f in progress["recent_failures"][:3])))
    return "\n".join(lines)


def grounded(message: str, passages: list[dict], rung: str, org: str, progress: dict | None,
             language: str) -> str:
    words = texts(language)
    body = extractive_answer(message, [(p["index"], p["text"]) for p in passages]) if passages else ""
    if not body.strip():
        courses = _course_list(progress, language)
        return " ".join([words["general"].format(org=org)]
                        + ([words["general_try"].format(courses=courses)] if courses else []))
    return f"{words['document' if rung == 'document' else 'grounded']}\n\n{body}"


def _hint_mode(state: dict) -> bool:
    attempt = state.get("attempt")
    return bool(attempt) and is_about_exercise(state["message"], attempt, state.get("lesson_id"))


def offline_answer(state: dict, name: str, org: str) -> str:
    """The generator's twin: what the tutor says when no model answers."""
    language, intent = state.get("language", "es"), state.get("intent")
    if intent == "chitchat":
        return chitchat(state["message"], name, org, state.get("course_title"), language)
    if intent == "off_topic":
        return off_topic(org, state.get("progress"), language)
    if intent == "progress":
        return progress_text(state.get("progress"), name, language)
    if _hint_mode(state):
        return socratic_hint(state["attempt"], state.get("passages") or [], language)
    return grounded(state["message"], state.get("passages") or [], state.get("rung", "general"), org,
                    state.get("progress"), language)


_SUGGEST = {
    "es": {
        "example": "Dame un ejemplo práctico de «{topic}»",
        "more": "¿Qué más dice «{topic}»?",
        "course": "¿Hay algún curso sobre este tema?",
        "progress": "¿Cómo voy en mis cursos?",
        "review": "¿Qué debería repasar hoy?",
        "next": "¿Cuál es mi siguiente paso?",
        "learn": "¿Qué puedo aprender hoy?",
        "explain_course": "Explícame los puntos clave de «{topic}»",
        "hint": "Dame otra pista",
        "concept": "¿Qué concepto debería repasar para este ejercicio?",
    },
    "en": {
        "example": "Give me a practical example of “{topic}”",
        "more": "What else does “{topic}” say?",
        "course": "Is there a course on this topic?",
        "progress": "How am I doing in my courses?",
        "review": "What should I review today?",
        "next": "What is my next step?",
        "learn": "What can I learn today?",
        "explain_course": "Explain the key points of “{topic}”",
        "hint": "Give me another hint",
        "concept": "Which concept should I review for this exercise?",
    },
}


def suggestions(state: dict, citations: list[dict]) -> list[str]:
    """Up to three follow-ups in the learner's language, from what this turn was about."""
    s = _SUGGEST.get(state.get("language", "es"), _SUGGEST["en"])
    intent, course = state.get("intent"), state.get("course_title")
    if _hint_mode(state) and intent in ("in_course", "cross_course"):
        return [s["hint"], s["concept"], s["progress"]]
    if intent == "progress":
        return [s["review"], s["next"]] + ([s["explain_course"].format(topic=course)] if course else [])
    if intent in ("chitchat", "off_topic"):
        enrolled = [e["course"] for e in (state.get("progress") or {}).get("enrollments", [])
                    if e.get("status") != "completed"]
        topic = course or (enrolled[0] if enrolled else None)
        return ([s["explain_course"].format(topic=topic)] if topic else []) + [s["progress"], s["learn"]]
    sources = citations or state.get("passages") or []
    sections = list(dict.fromkeys(c.get("section") or c.get("document") for c in sources if c))
    out = [s["example"].format(topic=sections[0])] if sections else []
    if len(sections) > 1:
        out.append(s["more"].format(topic=sections[1]))
    out.append(s["course"] if not course else s["review"])
    return out[:3]
