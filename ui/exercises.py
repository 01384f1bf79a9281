"""The six exercise types as Streamlit widgets, and the feedback shown after an answer.

``exercise_input`` renders an exercise and returns the learner's answer once they submit it (else
None), in the shape ``agents.learning.grading`` expects.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from typing import Any

import streamlit as st
from streamlit.errors import StreamlitAPIException

from agents.i18n import code_label, format_percent, t
from agents.tutor.citations import citation_where
from core.markup import safe_markdown

SOURCE_PAGE = "pages/source_viewer.py"


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


def exercise_input(exercise, lang: str, key: str, *, show_level: bool = False) -> Any | None:
    """Render ``exercise`` (anything with id, type, prompt, content, bloom_level); the answer or None.

    ``show_level`` adds the exercise's Bloom level, a trainer's word: admins checking a course see it,
    learners don't."""
    st.markdown(f"**{exercise.prompt}**")
    kind = t(f"learning.type.{exercise.type}", lang)
    st.caption(
        t("learning.type_and_level", lang, type=kind, level=t(f"learning.bloom.{exercise.bloom_level}", lang))
        if show_level
        else kind
    )
    content = exercise.content
    if exercise.type == "dialogue":
        return _dialogue(exercise, lang, key)
    answer: int | bool | str | list[str] | list[str | None] | None
    with st.form(f"form_{key}", clear_on_submit=False):
        if exercise.type == "test":
            options = content["options"]
            answer = st.radio(
                t("learning.choose_one", lang),
                range(len(options)),
                index=None,
                format_func=lambda i: options[i],
                key=f"in_{key}",
            )
        elif exercise.type == "true_false":
            st.write(content["statement"])
            answer = st.radio(
                t("learning.true_or_false", lang),
                [True, False],
                index=None,
                format_func=lambda v: t("learning.true" if v else "learning.false", lang),
                horizontal=True,
                key=f"in_{key}",
            )
        elif exercise.type == "fill_blank":
            parts = re.split(r"_{3,}", content["text"])
            st.write(" ____ ".join(parts) if len(parts) > 1 else content["text"])
            answer = [
                st.text_input(t("learning.blank", lang, n=n), key=f"in_{key}_{n}")
                for n in range(1, max(len(parts) - 1, 1) + 1)
            ]
        elif exercise.type == "order_steps":
            answer = _order_steps(exercise, lang, key)
        else:  # practical_case
            st.info(content["scenario"])
            answer = st.text_area(t("learning.your_answer", lang), height=140, key=f"in_{key}")
        submitted = st.form_submit_button(t("learning.check", lang), type="primary")
    if not submitted:
        return None
    if answer is None or answer == "" or (isinstance(answer, list) and (not answer or None in answer)):
        st.warning(t("learning.answer_first", lang))
        return None
    if exercise.type == "order_steps" and isinstance(answer, list):
        repeated = next((step for step, times in Counter(answer).items() if times > 1), None)
        if repeated:
            st.warning(t("learning.order_repeated", lang, step=repeated))
            return None
    return answer


def _order_steps(exercise, lang: str, key: str) -> list[str | None]:
    """One picker per position (no "select all" shortcut that would submit the order as shown)."""
    steps = shuffled_steps(exercise.id, exercise.content["steps"])
    st.caption(t("learning.order_help", lang))
    return [
        st.selectbox(
            t("learning.order_position", lang, n=n),
            steps,
            index=None,
            placeholder=t("learning.order_pick", lang),
            key=f"in_{key}_{n}",
        )
        for n in range(1, len(steps) + 1)
    ]


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


def link_to_source(label: str, query: dict, page: str = SOURCE_PAGE, icon: str = "📄") -> None:
    """A link that opens the source viewer on a passage (or another reading page), in this session (the
    sign-in carries over)."""
    try:
        st.page_link(page, label=label, icon=icon, query_params=query)
    except StreamlitAPIException:  # a page run on its own (AppTest, no navigation) has no viewer to link to
        st.markdown(f"{icon} {label}")


def source_links(lang: str, sources: list) -> None:
    """Where an exercise comes from, each source opening the viewer on its passage."""
    for source in sources:
        label = citation_where({"document": source.document, "section": source.section}) + (
            f", {t('learning.page_short', lang)} {source.page}" if source.page else ""
        )
        if source.chunk_id:
            link_to_source(f"{t('learning.source', lang)}{label}", {"chunk": source.chunk_id})
        else:
            st.caption(t("learning.source", lang) + label)


def verdict_line(lang: str, verdict: str, score: float, feedback: str) -> str:
    """'Not yet · 50 % — 1 of 2 blanks right'; the grader's bare 'Not quite.' / 'Correct!' only repeat the
    verdict ('Todavía no · 0 % — Todavía no.'), so they are left out."""
    generic = {t("learning.grade.correct", lang), t("learning.grade.not_yet", lang)}
    return f"{verdict} · {format_percent(score, lang)}" + (
        f" — {feedback}" if feedback and feedback not in generic else ""
    )


def answered_text(exercise) -> None:
    """Under an answered exercise's question, what was answered: the statement judged or the situation, so the
    feedback below it reads against it."""
    text = {"true_false": "statement", "practical_case": "scenario"}.get(exercise.type)
    if text and exercise.content.get(text):
        st.markdown(f"> {safe_markdown(exercise.content[text])}")


_CITED = re.compile(r"\s*\[(?:Fuente|Source): [^\]]*\]\s*$")


def show_feedback(
    lang: str,
    *,
    correct: bool,
    score: float,
    feedback: str,
    explanation: str,
    sources: list,
    engine: str = "rules",
    solution: str = "",
    revealed: bool = True,
) -> None:
    """Feedback after an answer. Not yet revealed (a first wrong try): the verdict and where to look,
    never the answer. Revealed: the verdict, the solution, why (the explanation) and the sources."""
    if not revealed:
        st.warning(f"🔁 {verdict_line(lang, t('learning.verdict.not_yet', lang), score, feedback)}")
        if sources:
            st.markdown(t("learning.look_again", lang))
        source_links(lang, sources)
        return
    verdict = t("learning.verdict.correct" if correct else "learning.verdict.incorrect", lang)
    (st.success if correct else st.error)(f"{'✅' if correct else '❌'} {verdict_line(lang, verdict, score, feedback)}")
    if solution and not correct:
        st.markdown(f"**{t('learning.solution', lang)}:** {solution}")
    if explanation:  # the source links below say where it comes from: no bracketed citation before them
        explanation = _CITED.sub("", explanation) if sources else explanation
        st.markdown(f"**{t('learning.explanation', lang)}:** {explanation}")
    source_links(lang, sources)
    if engine not in ("rules",):
        st.caption(t("learning.graded_by", lang, engine=code_label("engine", engine, lang)))
