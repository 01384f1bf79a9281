"""Academic integrity while a learner is mid-exercise: spot answers given away, and a safe Socratic hint.

``find_leaks`` is what the reflection node checks a draft with; ``socratic_hint`` is the deterministic
hint (the offline twin, and the last resort once the model has had its two rewrites).
"""
from __future__ import annotations

import re

from agents.offline import split_sentences
from agents.text import words

_ANSWER_KEY = re.compile(
    r"\b(la respuesta( correcta)? es|the (correct |right )?answer is|respuesta correcta|correct answer|"
    r"answer key|clave de respuestas|soluci[oó]n completa|full solution|la opci[oó]n correcta|"
    r"the correct option|the right option)\b", re.IGNORECASE)
_VERDICT = re.compile(
    r"\b(es|is|resulta|it'?s)\s+(verdadera|verdadero|falsa|falso|true|false|correcta|incorrecta|correct|incorrect)\b",
    re.IGNORECASE)
_CODE_BLOCK = re.compile(r"```.*?\n(.*?)```", re.DOTALL)
_LETTERS = "abcdefgh"


def normalize(text: str) -> str:
    """Lower case, no accents, words separated by single spaces (so matching ignores typography)."""
    return " ".join(words(text))


def _contains(haystack: str, needle: str) -> bool:
    needle = normalize(needle)
    return bool(needle) and f" {needle} " in f" {haystack} "


def _overlap(sentence: str, reference: str) -> float:
    words, ref = set(normalize(sentence).split()), set(normalize(reference).split())
    return len(words & ref) / len(ref) if ref else 0.0


def is_about_exercise(message: str, attempt: dict, lesson_id: str | None = None) -> bool:
    """Whether the learner is asking about their open exercise: from its lesson, or in its words.

    Other questions get a normal answer; the reflection node still checks that answer for leaks.
    """
    if lesson_id and str(lesson_id) == str(attempt.get("lesson_id")):
        return True
    exercise_text = " ".join([attempt.get("prompt") or "", *(attempt.get("correct_texts") or [])])
    asked = {word for word in normalize(message).split() if len(word) >= 5}
    return bool(asked & set(normalize(exercise_text).split()))


def find_leaks(text: str, attempt: dict | None) -> list[str]:
    """Why ``text`` gives the active exercise away (empty when it does not)."""
    if not attempt or not text:
        return []
    plain = normalize(text)
    kind, content = attempt.get("type"), attempt.get("content") or {}
    leaks: list[str] = []
    for correct in attempt.get("correct_texts") or []:
        if len(normalize(correct)) >= 1 and _contains(plain, correct):
            leaks.append(f"states the correct answer «{correct}»")
    if _ANSWER_KEY.search(text):
        leaks.append("uses answer-key phrasing")
    if kind == "true_false" and _VERDICT.search(text):
        leaks.append("gives a true/false verdict")
    if kind == "test" and isinstance(content.get("answer"), int):
        letter, number = _LETTERS[content["answer"] % len(_LETTERS)], content["answer"] + 1
        if re.search(rf"\b(opci[oó]n|option|respuesta|answer)\s*\(?({letter}|{number})\)?(?![\w])", text, re.I):
            leaks.append("names the correct option")
    if kind == "order_steps":
        steps = content.get("steps") or []
        found = [plain.find(normalize(step)) for step in steps if _contains(plain, step)]
        if len(found) >= min(3, len(steps)) and len(found) >= 2 and found == sorted(found):
            leaks.append("lists the steps in the correct order")
    if kind == "practical_case" and content.get("model_answer"):
        if any(len(normalize(s).split()) >= 6 and _overlap(s, content["model_answer"]) >= 0.5
               for s in split_sentences(text)):
            leaks.append("reproduces the model answer")
    if any(len(block.strip().splitlines()) >= 3 for block in _CODE_BLOCK.findall(text)):
        leaks.append("contains a complete code solution")
    return leaks


_HINT_TEXT = {
    "es": {
        "intro": "Estás en mitad de un ejercicio, así que te doy una pista en lugar de la respuesta.",
        "look": "Repasa la sección «{section}» de «{document}» [{index}].",
        "clue": "Una idea del material que te puede ayudar: «{sentence}» [{index}]",
        "test": "¿Qué opción descartarías primero y por qué?",
        "true_false": "¿Qué parte de la afirmación podrías comprobar en el material?",
        "fill_blank": "¿Qué dato concreto falta en la frase y dónde aparece en el material?",
        "order_steps": "¿Qué tiene que ocurrir antes de poder dar cada paso?",
        "practical_case": "¿Qué riesgo o prioridad ves primero en el caso, y qué dice el procedimiento sobre ello?",
        "dialogue": "¿Cómo se sentiría la otra persona con cada respuesta posible?",
        "default": "¿Qué concepto clave del tema se aplica aquí?",
    },
    "en": {
        "intro": "You are in the middle of an exercise, so here is a hint instead of the answer.",
        "look": "Review the section “{section}” of “{document}” [{index}].",
        "clue": "An idea from the material that may help: “{sentence}” [{index}]",
        "test": "Which option would you rule out first, and why?",
        "true_false": "Which part of the statement could you check in the material?",
        "fill_blank": "Which specific piece of information is missing, and where does the material mention it?",
        "order_steps": "What has to happen before each step can be taken?",
        "practical_case": "What risk or priority do you see first in the case, and what does the procedure say about it?",
        "dialogue": "How would the other person feel with each possible reply?",
        "default": "Which key concept of the topic applies here?",
    },
}


def socratic_hint(attempt: dict, passages: list[dict], language: str) -> str:
    """A hint built from the exercise and the material, with every answer-bearing sentence left out."""
    words = _HINT_TEXT.get(language, _HINT_TEXT["en"])
    lines = [words["intro"], words.get(attempt.get("type") or "default", words["default"])]
    prompt_words = set(normalize(attempt.get("prompt", "")).split())
    best: tuple[float, str, dict] | None = None
    for passage in passages:
        for sentence in split_sentences(passage.get("text", "")):
            if len(sentence) > 260 or find_leaks(sentence, attempt):
                continue
            score = len(prompt_words & set(normalize(sentence).split()))
            if score and (best is None or score > best[0]):
                best = (score, sentence, passage)
    if best is not None:
        lines.append(words["clue"].format(sentence=best[1].strip(), index=best[2]["index"]))
    if passages:
        first = best[2] if best else passages[0]
        lines.append(words["look"].format(section=first.get("section") or first.get("document"),
                                          document=first.get("document"), index=first["index"]))
    return "\n\n".join(line for line in lines if not find_leaks(line, attempt))
