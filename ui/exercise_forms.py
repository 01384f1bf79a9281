"""The studio's exercise editor, for a job's final review and a draft course alike: one form per exercise
type (prompt, options, right answer, explanation, Bloom level), so an admin fixes a question without touching
JSON, in a dialog opened by an "Edit" button."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from agents.i18n import t
from core.markup import safe_markdown

BLANK = r"\_\_\_"  # a blank shown as underscores, not read as Markdown emphasis
BLOOM = ["remember", "understand", "apply", "analyze", "evaluate", "create"]


def _lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip()]


def _content(kind: str, content: dict, lang: str, key: str) -> dict:
    if kind == "test":
        options = _lines(
            st.text_area(t("content.form.options", lang), "\n".join(content.get("options") or []), key=f"{key}-options")
        )
        answer = st.selectbox(
            t("content.form.right_option", lang),
            range(len(options)) or [0],
            index=min(content.get("answer") or 0, max(0, len(options) - 1)),
            format_func=lambda i: options[i] if i < len(options) else "—",
            key=f"{key}-answer",
        )
        return {"options": options, "answer": answer}
    if kind == "true_false":
        statement = st.text_area(t("content.form.statement", lang), content.get("statement", ""), key=f"{key}-st")
        answer = st.radio(
            t("content.form.right_answer", lang),
            [True, False],
            index=0 if content.get("answer") else 1,
            format_func=lambda v: t("content.form.true" if v else "content.form.false", lang),
            horizontal=True,
            key=f"{key}-tf",
        )
        return {"statement": statement, "answer": answer}
    if kind == "fill_blank":
        text = st.text_area(t("content.form.blank_text", lang), content.get("text", ""), key=f"{key}-text")
        answers = st.text_input(
            t("content.form.blank_answers", lang), ", ".join(content.get("answers") or []), key=f"{key}-answers"
        )
        return {"text": text, "answers": [a.strip() for a in answers.split(",") if a.strip()]}
    if kind == "order_steps":
        steps = st.text_area(t("content.form.steps", lang), "\n".join(content.get("steps") or []), key=f"{key}-steps")
        return {"steps": _lines(steps)}
    if kind == "practical_case":
        scenario = st.text_area(t("content.form.scenario", lang), content.get("scenario", ""), key=f"{key}-sc")
        rubric = st.text_area(t("content.form.rubric", lang), "\n".join(content.get("rubric") or []), key=f"{key}-rb")
        model = st.text_area(t("content.form.model_answer", lang), content.get("model_answer", ""), key=f"{key}-ma")
        return {"scenario": scenario, "rubric": _lines(rubric), "model_answer": model}
    nodes = {}
    for node_id, node in (content.get("nodes") or {}).items():  # dialogue: each turn and its replies
        text = st.text_input(
            t("content.form.turn", lang, speaker=node.get("speaker", "")),
            node.get("text", ""),
            key=f"{key}-{node_id}-text",
        )
        replies = []
        for n, option in enumerate(node.get("options") or []):
            label = t("content.form.reply_right" if option.get("correct") else "content.form.reply_wrong", lang)
            replies.append({**option, "text": st.text_input(label, option.get("text", ""), key=f"{key}-{node_id}-{n}")})
        nodes[node_id] = {**node, "text": text, "options": replies}
    return {**content, "nodes": nodes}


def exercise_form(exercise: dict, lang: str, key: str) -> dict | None:
    """The editor for one exercise; the changed fields when saved."""
    with st.form(key):
        prompt = st.text_input(t("content.form.prompt", lang), exercise["prompt"], key=f"{key}-prompt")
        content = _content(exercise["type"], exercise["content"], lang, key)
        explanation = st.text_area(
            t("content.form.explanation", lang), exercise.get("explanation", ""), key=f"{key}-expl"
        )
        bloom = st.selectbox(
            t("content.form.bloom", lang),
            BLOOM,
            index=BLOOM.index(exercise["bloom_level"]) if exercise["bloom_level"] in BLOOM else 2,
            format_func=lambda level: t(f"content.bloom.{level}", lang),
            key=f"{key}-bloom",
        )
        if not st.form_submit_button(t("content.form.save", lang)):
            return None
    fields = {"prompt": prompt, "content": content, "explanation": explanation, "bloom_level": bloom}
    current = {name: exercise.get(name) for name in fields}
    return {name: value for name, value in fields.items() if value != current[name]}


EDITING = "studio-editing-exercise"  # the edit button of the exercise whose dialog is open


def _close() -> None:
    st.session_state.pop(EDITING, None)


def edit_button(column, lang: str, opener: str) -> bool:
    """The exercise's "Edit" button; True while its dialog is open (until saved or dismissed)."""
    if column.button(t("content.studio.edit_exercise", lang), key=opener):
        st.session_state[EDITING] = opener
    return st.session_state.get(EDITING) == opener


def exercise_dialog(exercise: dict, lang: str, number: int, key: str, save: Callable[[dict], bool]) -> None:
    """One exercise's editor in a dialog: it scrolls inside the window, so a long form (a steps exercise) keeps
    every field and its save button within reach. ``save`` gets the changed fields and returns False when it
    refused them (the dialog then stays open with the reason); it stays open across reruns until then."""
    kind = t("content.exercise_type." + exercise["type"], lang)

    @st.dialog(f"{t('content.studio.edit_exercise', lang)} · {number}. {kind}", width="large", on_dismiss=_close)
    def editor() -> None:
        fields = exercise_form(exercise, lang, key)
        if fields is None:
            return
        opener = st.session_state.pop(EDITING, None)
        if not fields:  # saved as it was: nothing to do
            st.rerun()
        if not save(fields):
            st.session_state[EDITING] = opener

    editor()


def exercise_summary(exercise: dict, lang: str) -> str:
    """What the learner will read and the right answer, as Markdown: a trainer checks an exercise at a glance
    without opening its editor."""
    content, lines = exercise["content"], []

    def label(key: str) -> str:
        return t(f"content.form.{key}", lang).split(" (")[0]

    if exercise["type"] == "true_false":
        verdict = t("content.form.true" if content.get("answer") else "content.form.false", lang)
        lines.append(f"> {safe_markdown(content.get('statement', ''))} → **{verdict}**")
    elif exercise["type"] == "test":
        for n, option in enumerate(content.get("options") or []):
            mark = "✅" if n == content.get("answer") else "▫️"
            lines.append(f"- {mark} {safe_markdown(option)}")
    elif exercise["type"] == "fill_blank":
        lines.append("> " + safe_markdown(content.get("text", "")).replace("___", BLANK))
        lines.append(f"{label('blank_answers')}: **{safe_markdown(', '.join(content.get('answers') or []))}**")
    elif exercise["type"] == "order_steps":
        lines += [f"{n}. {safe_markdown(step)}" for n, step in enumerate(content.get("steps") or [], 1)]
    elif exercise["type"] == "practical_case":
        lines.append(f"> {safe_markdown(content.get('scenario', ''))}")
        lines.append(f"{label('rubric')}: **{safe_markdown('; '.join(content.get('rubric') or []))}**")
    else:
        for node in (content.get("nodes") or {}).values():
            right = next((o["text"] for o in node.get("options") or [] if o.get("correct")), "")
            lines.append(f"- {safe_markdown(node.get('text', ''))} → **{safe_markdown(right)}**")
    body = ("\n" if exercise["type"] in ("test", "order_steps", "dialogue") else "\n\n").join(lines)
    if exercise.get("explanation"):
        body += f"\n\n*{label('explanation')}: {safe_markdown(exercise['explanation'])}*"
    return body
