"""Reviews: exercises due again by spaced repetition (FSRS), one at a time, with feedback.

A review is not an exercise in progress for the tutor (it was answered and explained before), so no
attempt is opened here, and any left open in the course player is closed."""

import uuid

import streamlit as st

from agents.i18n import format_date, t
from agents.learning import service
from core.markup import safe_markdown
from ui.deps import app_deps
from ui.exercises import exercise_input, show_feedback
from ui.review_forecast import learner_forecast_chart
from ui.session import require_user

user = require_user()
deps = app_deps()
lang = user.language
service.leave_exercises(deps, user)
st.title(t("learning.reviews", lang))

last = st.session_state.get("review_last")
if last:
    prompt, result = last
    with st.container(border=True):
        st.markdown(f"**{safe_markdown(prompt)}**")
        show_feedback(
            lang,
            correct=result.correct,
            score=result.score,
            feedback=result.feedback,
            explanation=result.explanation,
            sources=result.sources,
            engine=result.engine,
            solution=result.solution,
        )
        if result.next_review:
            st.caption(t("learning.next_review", lang, date=format_date(result.next_review, lang)))

learner_forecast_chart(deps, user)  # what the next 30 days hold, under the organisation's retention
items = service.due_reviews(deps, user)
if not items:
    st.success(t("learning.no_reviews", lang))
    st.stop()

item = items[0]
st.caption(t("learning.reviews_due", lang, n=len(items), course=item.course_title))
with st.container(border=True):
    answer = exercise_input(item.exercise, lang, key=f"review_{item.exercise.id}_{item.reps}", show_level=user.is_admin)
if answer is not None:
    submission = st.session_state.setdefault(f"review_submission_{item.exercise.id}_{item.reps}", uuid.uuid4().hex)
    try:
        result = service.submit_answer(deps, user, item.exercise.id, answer, submission)
    except service.LearningError as exc:
        st.error(str(exc))
    else:
        st.session_state["review_last"] = (item.exercise.prompt, result)
        st.rerun()
