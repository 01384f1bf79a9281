"""Reviews: exercises due again by spaced repetition (FSRS), one at a time, with feedback."""
import uuid

import streamlit as st

from agents.learning import service
from storage.markup import safe_markdown
from ui.exercises import exercise_input, show_feedback, t
from ui.session import require_user

user = require_user()
lang = user.language
st.title(t(lang, "Repasos", "Reviews"))

last = st.session_state.get("review_last")
if last:
    prompt, result = last
    with st.container(border=True):
        st.markdown(f"**{safe_markdown(prompt)}**")
        show_feedback(lang, correct=result.correct, score=result.score, feedback=result.feedback,
                      explanation=result.explanation, sources=result.sources, engine=result.engine)
        if result.next_review:
            st.caption(t(lang, f"Próximo repaso: {result.next_review:%Y-%m-%d}",
                         f"Next review: {result.next_review:%Y-%m-%d}"))

items = service.due_reviews(user)
if not items:
    st.success(t(lang, "🎉 No tienes repasos pendientes. ¡Vuelve mañana!", "🎉 No reviews due. Come back tomorrow!"))
    st.stop()

item = items[0]
st.caption(t(lang, f"{len(items)} pendiente(s) · {item.course_title}", f"{len(items)} due · {item.course_title}"))
service.open_exercise(user, item.exercise.id)
with st.container(border=True):
    answer = exercise_input(item.exercise, lang, key=f"review_{item.exercise.id}_{item.reps}")
if answer is not None:
    submission = st.session_state.setdefault(f"review_submission_{item.exercise.id}_{item.reps}", uuid.uuid4().hex)
    try:
        result = service.submit_answer(user, item.exercise.id, answer, submission)
    except service.LearningError as exc:
        st.error(str(exc))
    else:
        st.session_state["review_last"] = (item.exercise.prompt, result)
        st.rerun()
