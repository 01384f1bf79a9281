"""The six exercise types as Streamlit widgets, and the feedback shown after an answer.

``exercise_input`` renders an exercise and returns the learner's answer once they submit it (else
None), in the shape ``agents.learning.grading`` expects.
"""
from __future__ import annotations

import random
import re
from typing import Any

import streamlit as st

from storage.markup import safe_markdown

BLOOM_LABELS = {"remember": ("Recordar", "Remember"), "understand": ("Comprender", "Understand"),
                "apply": ("Aplicar", "Apply"), "analyze": ("Analizar", "Analyze"),
                "evaluate": ("Evaluar", "Evaluate"), "create": ("Crear", "Create")}
TYPE_LABELS = {"test": ("Test", "Multiple choice"), "true_false": ("Verdadero o falso", "True or false"),
               "fill_blank": ("Completar", "Fill in the blank"), "order_steps": ("Ordenar pasos", "Order the steps"),
               "practical_case": ("Caso práctico", "Practical case"), "dialogue": ("Diálogo", "Dialogue")}


def t(lang: str, es: str, en: str) -> str:
    return es if lang == "es" else en


def _label(table: dict, value: str, lang: str) -> str:
    es, en = table.get(value, (value, value))
    return t(lang, es, en)


def lesson_markdown(markdown: str) -> str:
    """Lesson Markdown one heading level down, so its sections sit under the lesson's own title."""
    return re.sub(r"^(#{1,5})(?=\s)", r"#\1", safe_markdown(markdown), flags=re.MULTILINE)


def shuffled_steps(exercise_id: Any, steps: list[str]) -> list[str]:
    """A stable shuffle (same order on every rerun) that never shows the answer as given."""
    order = list(steps)
    random.Random(str(exercise_id)).shuffle(order)
    if order == list(steps):
        order = order[1:] + order[:1]
    return order


def exercise_input(exercise, lang: str, key: str) -> Any | None:
    """Render ``exercise`` (anything with id, type, prompt, content, bloom_level); the answer or None."""
    st.markdown(f"**{exercise.prompt}**")
    st.caption(f"{_label(TYPE_LABELS, exercise.type, lang)} · Bloom: {_label(BLOOM_LABELS, exercise.bloom_level, lang)}")
    content = exercise.content
    if exercise.type == "dialogue":
        return _dialogue(exercise, lang, key)
    check = t(lang, "Comprobar", "Check answer")
    with st.form(f"form_{key}", clear_on_submit=False):
        if exercise.type == "test":
            options = content["options"]
            choice = st.radio(t(lang, "Elige una opción", "Choose one"), range(len(options)), index=None,
                              format_func=lambda i: options[i], key=f"in_{key}")
            answer = choice
        elif exercise.type == "true_false":
            st.write(content["statement"])
            answer = st.radio(t(lang, "¿Verdadero o falso?", "True or false?"), [True, False], index=None,
                              format_func=lambda v: t(lang, "Verdadero", "True") if v else t(lang, "Falso", "False"),
                              horizontal=True, key=f"in_{key}")
        elif exercise.type == "fill_blank":
            parts = re.split(r"_{3,}", content["text"])
            st.write(" ____ ".join(parts) if len(parts) > 1 else content["text"])
            answer = [st.text_input(t(lang, f"Hueco {n}", f"Blank {n}"), key=f"in_{key}_{n}")
                      for n in range(1, max(len(parts) - 1, 1) + 1)]
        elif exercise.type == "order_steps":
            answer = st.multiselect(t(lang, "Selecciona los pasos en el orden correcto",
                                      "Pick the steps in the right order"),
                                    shuffled_steps(exercise.id, content["steps"]), key=f"in_{key}")
        else:  # practical_case
            st.info(content["scenario"])
            answer = st.text_area(t(lang, "Tu respuesta", "Your answer"), height=140, key=f"in_{key}")
        submitted = st.form_submit_button(check, type="primary")
    if not submitted:
        return None
    if answer is None or answer == "" or (isinstance(answer, list) and not answer):
        st.warning(t(lang, "Responde antes de comprobar.", "Answer before checking."))
        return None
    return answer


def _dialogue(exercise, lang: str, key: str) -> list[int] | None:
    """Walk the branching conversation one reply at a time; the path once it ends."""
    content, path_key = exercise.content, f"path_{key}"
    path: list[int] = st.session_state.setdefault(path_key, [])
    node_id = content["start"]
    for index in path:
        node = content["nodes"][node_id]
        option = node["options"][index]
        st.chat_message("assistant").markdown(f"**{node['speaker']}:** {node['text']}")
        st.chat_message("user").markdown(option["text"])
        (st.success if option.get("correct") else st.warning)(option.get("feedback") or "")
        node_id = option["next"]
        if node_id is None:
            st.session_state.pop(path_key, None)
            return list(path)
    node = content["nodes"][node_id]
    st.chat_message("assistant").markdown(f"**{node['speaker']}:** {node['text']}")
    for index, option in enumerate(node["options"]):
        if st.button(option["text"], key=f"opt_{key}_{len(path)}_{index}"):
            path.append(index)
            st.rerun()
    return None


def show_feedback(lang: str, *, correct: bool, score: float, feedback: str, explanation: str,
                  sources: list, engine: str = "rules") -> None:
    """Immediate feedback: the verdict, why (the explanation) and where it comes from."""
    verdict = t(lang, "Correcto", "Correct") if correct else t(lang, "Incorrecto", "Incorrect")
    (st.success if correct else st.error)(f"{'✅' if correct else '❌'} {verdict} · {round(score * 100)}% — {feedback}")
    if explanation:
        st.markdown(f"**{t(lang, 'Explicación', 'Explanation')}:** {explanation}")
    if sources:
        st.caption(t(lang, "Fuente: ", "Source: ") + "; ".join(
            f"{s.document}" + (f" › {s.section}" if s.section else "") + (f", p. {s.page}" if s.page else "")
            for s in sources))
    if engine not in ("rules",):
        st.caption(t(lang, f"Corregido por: {engine}", f"Graded by: {engine}"))
