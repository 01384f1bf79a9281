"""Academic integrity while a learner is mid-exercise: spot answers given away, and a safe Socratic hint.

``is_about_exercise`` decides whether a question asked away from the exercise is still about it;
``find_leaks`` is what the reflection node checks a draft with; ``socratic_hint`` is the deterministic
graded hint (the offline twin, and the last resort once the model has had its two rewrites).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from agents.i18n import has, t
from agents.offline import match_exemplars, split_sentences
from agents.retrieval.passages import CITATION_MARKER, Passage
from core.text import words

if TYPE_CHECKING:
    from agents.runtime.deps import Embedder

_ANSWER_KEY = re.compile(
    r"\b(la respuesta( correcta)? es|the (correct |right )?answer is|respuesta correcta|correct answer|"
    r"answer key|clave de respuestas|soluci[oó]n completa|full solution|la opci[oó]n correcta|"
    r"the correct option|the right option)\b",
    re.IGNORECASE,
)
_VERDICT = re.compile(
    r"\b(es|is|resulta|it'?s)\s+(verdadera|verdadero|falsa|falso|true|false|correcta|incorrecta|correct|incorrect)\b",
    re.IGNORECASE,
)
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


# Words that point at the exercise itself ("this question", "una pista"), in either language.
_POINTS_AT_EXERCISE = re.compile(
    r"\b(this|the) (exercise|question|quiz|statement|case)\b|\b(este|el) (ejercicio|caso|enunciado)\b|"
    r"\besta (pregunta|afirmacion)\b|\b(hint|pista|clue)s?\b|\b(the|la) (answer|respuesta)\b"
)
# Cosine (multilingual-e5-small, query to query) above which a message asks what the exercise asks:
# a rephrasing of the exercise scores 0.86-0.92 in either language; another topic of the same
# course scores 0.79-0.83 (measured on the demo courses' exercises).
SAME_QUESTION_SIMILARITY = 0.86


def exercise_text(attempt: dict) -> str:
    """What the learner reads on screen for the exercise (prompt, statement, options, steps, case)."""
    content = attempt.get("content") or {}
    lines = [node for node in (content.get("nodes") or {}).values() if isinstance(node, dict)]  # a dialogue
    parts = [
        attempt.get("prompt") or "",
        content.get("statement") or "",
        content.get("text") or "",
        content.get("scenario") or "",
        *(content.get("options") or []),
        *(content.get("steps") or []),
        *(node.get("text") for node in lines),
        *(option.get("text") for node in lines for option in node.get("options") or [] if isinstance(option, dict)),
    ]
    return " ".join(part for part in parts if isinstance(part, str))


def is_about_exercise(message: str, attempt: dict, embedder: Embedder) -> bool:
    """Whether a message sent from elsewhere (not the course player's exercise) still asks about the
    open exercise: it points at it, repeats most of its content words, or asks the same in other words
    (any language). Other questions get a normal answer."""
    plain = normalize(message)
    if _POINTS_AT_EXERCISE.search(plain):
        return True
    asked = {word[:5] for word in plain.split() if len(word) >= 4}
    shown = {word[:5] for word in normalize(exercise_text(attempt)).split() if len(word) >= 4}
    if len(asked) >= 2 and len(asked & shown) / len(asked) >= 0.6:
        return True
    same = match_exemplars(message, {"exercise": [attempt.get("prompt") or ""]}, embedder)
    return same[1] >= SAME_QUESTION_SIMILARITY


_HINT_HEADER = re.compile(r"^\W*💡[^\n]*\n", re.MULTILINE)


def find_leaks(text: str, attempt: dict | None) -> list[str]:
    """Why ``text`` gives the active exercise away (empty when it does not). The hint-level header
    ("Hint 1 of 3") is our own template and is not read as an answer of "3"."""
    if not attempt or not text:
        return []
    text = CITATION_MARKER.sub("", _HINT_HEADER.sub("", text))  # "[1]" is a source's number, not an answer of 1
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
        if any(
            len(normalize(s).split()) >= 6 and _overlap(s, content["model_answer"]) >= 0.5
            for s in split_sentences(text)
        ):
            leaks.append("reproduces the model answer")
    if any(len(block.strip().splitlines()) >= 3 for block in _CODE_BLOCK.findall(text)):
        leaks.append("contains a complete code solution")
    return leaks


HINT_LEVELS = 3


def hint_header(level: int, language: str) -> str:
    """What the learner sees above a hint: which of the three levels this one is."""
    return t("tutor.hint.level", language, level=level, name=t(f"tutor.hint.name.{level}", language))


def _message(kind: str, exercise_type: str | None, language: str) -> str:
    key = f"tutor.hint.{kind}.{exercise_type}"
    return t(key if has(key) else f"tutor.hint.{kind}.default", language)


def _blanked(sentence: str, attempt: dict) -> str:
    """The sentence with the exercise's answers left blank (the longest first)."""
    for correct in sorted(attempt.get("correct_texts") or [], key=len, reverse=True):
        if correct.strip():
            sentence = re.sub(rf"(?<!\w){re.escape(correct.strip())}(?!\w)", "___", sentence, flags=re.IGNORECASE)
    return sentence


def _clue(attempt: dict, passages: list[Passage]) -> tuple[str, Passage] | None:
    """The passage sentence sharing most words with the exercise, shown so it gives nothing away: the
    sentence the exercise was written from has its answer blanked (a near sentence that says something
    else would mislead); one that still gives it away is skipped."""
    prompt_words = set(normalize(exercise_text(attempt)).split())
    best: tuple[int, str, Passage] | None = None
    for passage in passages:
        for sentence in split_sentences(passage.text):
            shown = _blanked(sentence, attempt) if find_leaks(sentence, attempt) else sentence
            if len(sentence) > 260 or find_leaks(shown, attempt):
                continue
            score = len(prompt_words & set(normalize(sentence).split()))
            if score and (best is None or score > best[0]):
                best = (score, shown, passage)
    return (best[1], best[2]) if best else None


PROMPT_CHARS = 90


def _short(attempt: dict) -> str:
    """The exercise as the hint names it (cut at a word): a true/false one by its statement ("True or
    false?" names none), a dialogue or case by its situation, not the order after it ("A customer wants to
    return a jacket without a receipt." without "Choose your replies.": quoted in the hint, the order made the
    instruction filter take the hint's sentence for one when the hint was stored)."""
    statement = (attempt.get("content") or {}).get("statement") if attempt.get("type") == "true_false" else None
    text = " ".join((statement if isinstance(statement, str) else attempt.get("prompt") or "").split())
    prompt = next(iter(split_sentences(text)), text)
    return prompt if len(prompt) <= PROMPT_CHARS else prompt[:PROMPT_CHARS].rsplit(" ", 1)[0] + "…"


def socratic_hint(attempt: dict, passages: list[Passage], language: str, level: int = 1) -> str:
    """A graded hint built from the exercise and the material, never its answer (003):
    1 a conceptual nudge, 2 a pointer to the passage (and a line of it), 3 a worked analogy."""
    level = max(1, min(HINT_LEVELS, level))
    # the exercise's own material (agents/tutor/exercise_material.py) is the subject; the rest only if none
    own = [p for p in passages if p.source_id in (attempt.get("source_ids") or ())]
    clue = _clue(attempt, own) or (None if own else _clue(attempt, passages))
    source = clue[1] if clue else next(iter(own or passages), None)
    lines = [t("tutor.hint.intro", language) if level == 1 else ""]
    if level == 1:
        if source is not None and (source.section or source.document):
            lines.append(
                t("tutor.hint.concept", language, prompt=_short(attempt), topic=source.section or source.document)
            )
        lines.append(_message("ask", attempt.get("type"), language))
    elif level == 2:
        if source is not None:
            lines.append(
                t(
                    "tutor.hint.look",
                    language,
                    section=source.section or source.document,
                    document=source.document,
                    index=source.index,
                )
            )
        if clue is not None:
            lines.append(t("tutor.hint.clue", language, sentence=clue[0].strip(), index=clue[1].index))
        lines.append(_message("ask", attempt.get("type"), language))
    else:
        lines.append(_message("analogy", attempt.get("type"), language))
        if source is not None:
            lines.append(
                t(
                    "tutor.hint.look",
                    language,
                    section=source.section or source.document,
                    document=source.document,
                    index=source.index,
                )
            )
    lines.append(t("tutor.hint.more" if level < HINT_LEVELS else "tutor.hint.last", language))
    return "\n\n".join(line for line in lines if line and not find_leaks(line, attempt))
