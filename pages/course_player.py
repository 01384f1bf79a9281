"""Course player: lessons as Markdown with their sources, exercises with feedback and a second try
before the answer is shown, the tutor beside them, previous/next through the course."""

import uuid

import streamlit as st

from agents.i18n import code_label, format_percent, t
from agents.learning import service
from agents.tutor.citations import citation_where
from agents.tutor.sources import lesson_sources
from core.markup import safe_markdown
from ui.deps import app_deps
from ui.exercises import answered_text, exercise_input, lesson_markdown, link_to_source, show_feedback
from ui.links import page_link
from ui.session import require_user
from ui.stale import updated_policy_note

try:  # the tutor chat widget (written beside this page); the page works without it
    from ui.tutor_chat import embed_tutor
except ImportError:
    embed_tutor = None

user = require_user()
deps = app_deps()
lang = user.language
enrollments = service.my_courses(deps, user)
titles = {str(e.course_id): e.course_title for e in enrollments}
linked = st.query_params.get("course")
lesson_link = st.query_params.get("lesson")  # the tutor's "go to the lesson": followed once, then the learner moves on
followed = bool(lesson_link) and st.session_state.get("learn_lesson_link") != lesson_link
# an admin following a link to a course they are not enrolled in (e.g. from the studio) previews it
preview = bool(user.is_admin and linked and linked not in titles)
if not enrollments and not preview:
    st.info(t("learning.no_courses_admin" if user.is_admin else "learning.no_courses", lang))
    if user.is_admin:
        page_link("pages/course_stats.py", t("learning.to_course_stats", lang), "📊", {})
    st.stop()
try:
    if preview:
        view = service.preview_view(deps, user, linked)
        course_id = linked
        st.info(t("learning.preview_note", lang, title=view.enrollment.course_title))
    else:
        wanted = (linked if followed else None) or st.session_state.get("learn_course_id") or linked
        course_id = st.selectbox(
            t("learning.course", lang),
            list(titles),
            format_func=titles.get,
            index=list(titles).index(wanted) if wanted in titles else 0,
        )
        st.session_state["learn_course_id"] = course_id
        view = service.course_view(deps, user, course_id)
except service.LearningError as exc:
    st.error(str(exc))
    st.stop()

lessons = view.lessons
if not lessons:
    st.info(t("learning.no_lessons", lang))
    st.stop()
lesson_key = f"learn_lesson_{course_id}"
ids = [lesson.id for lesson in lessons]
if followed:
    st.session_state["learn_lesson_link"] = lesson_link
    st.session_state[lesson_key] = next((i for i in ids if str(i) == lesson_link), st.session_state.get(lesson_key))
if st.session_state.get(lesson_key) not in ids:
    st.session_state[lesson_key] = next((i for i in ids if i not in view.completed_lessons), ids[0])
position = ids.index(st.session_state[lesson_key])
lesson = lessons[position]

with st.sidebar:
    st.markdown(f"### {view.enrollment.course_title}")
    for module in view.outline.modules:
        st.caption(f"{module.position}. {module.title}")
        for item in module.lessons:
            mark = "✅" if item.id in view.completed_lessons else ("▶️" if item.id == lesson.id else "⚪")
            if st.button(f"{mark} {item.title}", key=f"nav_{item.id}", width="stretch"):
                st.session_state[lesson_key] = item.id
                st.rerun()
    wide = st.toggle(t("learning.wide_tutor", lang), key="learn_wide_tutor")

main, side = st.columns([2, 3] if wide else [3, 2], gap="medium")
on_screen = None  # the exercise in front of the learner: the tutor gives hints only about it
with main:
    if not preview:
        percent = format_percent(view.enrollment.progress, lang)
        st.progress(view.enrollment.progress, text=t("learning.course_progress", lang, percent=percent))
    if st.session_state.pop("learn_celebrate", False):
        st.balloons()
    if view.enrollment.status == "completed":
        st.success(t("learning.course_done", lang, percent=format_percent(view.enrollment.score or 0, lang)))
    if view.enrollment.course_language != lang:  # one language per course: say so when it isn't the reader's
        st.info(t("learning.course_in", lang, language=code_label("language", view.enrollment.course_language, lang)))
    module = view.module_of(lesson.id)
    st.caption(
        t("learning.where", lang, module=module.position, title=module.title, n=position + 1, total=len(lessons))
    )
    st.header(lesson.title)
    updated_policy_note(deps, user, lesson.id)
    st.markdown(lesson_markdown(lesson.content_md))
    if lesson.citations:
        with st.expander(t("learning.sources", lang, n=len(lesson.citations))):
            for n, c in enumerate(lesson_sources(deps, user, lesson.content_md, lesson.citations), 1):
                page = f", {t('learning.page_short', lang)} {c['page']}" if c.get("page") else ""
                label = f"[{n}] {citation_where(c)}{page}"
                if c.get("chunk_id"):  # the viewer marks the sentence the lesson's [n] rests on
                    link_to_source(label, {"chunk": str(c["chunk_id"]), "quote": c.get("quote", "")})
                else:
                    st.markdown(safe_markdown(label))

    for exercise in lesson.exercises if preview else []:  # a preview shows each question with its answer
        with st.container(border=True):
            st.markdown(f"**{safe_markdown(exercise.prompt)}**")
            st.caption(t("learning.preview_answer", lang, answer=view.solutions.get(exercise.id, "")))
    for exercise in [] if preview else lesson.exercises:
        attempt = view.answers.get(exercise.id)
        retry_key, show_key = f"retry_{exercise.id}", f"show_{exercise.id}"
        if attempt and not st.session_state.get(retry_key):
            tries = view.tries.get(exercise.id, 1)
            shown = service.revealed(bool(attempt.is_correct), tries, st.session_state.get(show_key, False))
            if not shown:  # the second try is still to come: the exercise stays in progress for the tutor
                on_screen = exercise
                service.open_exercise(deps, user, exercise.id)
            with st.container(border=True):
                st.markdown(f"**{safe_markdown(exercise.prompt)}**")
                answered_text(exercise)
                show_feedback(
                    lang,
                    correct=bool(attempt.is_correct),
                    score=attempt.score or 0.0,
                    feedback=attempt.feedback or "",
                    explanation=exercise.explanation,
                    sources=view.sources.get(exercise.id, []),
                    engine=st.session_state.get(f"graded_by_{exercise.id}", "rules"),
                    solution=view.solutions.get(exercise.id, ""),
                    revealed=shown,
                )
                if not attempt.is_correct:
                    again, reveal = st.columns(2)
                    if again.button(
                        t("learning.second_try", lang),
                        key=f"again_{exercise.id}",
                        type="primary" if not shown else "secondary",
                    ):
                        st.session_state[retry_key] = True
                        st.rerun()
                    if not shown and reveal.button(t("learning.show_me", lang), key=f"reveal_{exercise.id}"):
                        st.session_state[show_key] = True
                        service.leave_exercises(deps, user)
                        st.rerun()
            if not shown:
                break
            continue
        on_screen = exercise
        service.open_exercise(deps, user, exercise.id)
        with st.container(border=True):
            answer = exercise_input(exercise, lang, key=str(exercise.id), show_level=user.is_admin)
        if answer is not None:
            submission = st.session_state.setdefault(f"submission_{exercise.id}", uuid.uuid4().hex)
            try:
                result = service.submit_answer(deps, user, exercise.id, answer, submission)
            except service.LearningError as exc:
                st.error(str(exc))
            else:
                for key in (f"submission_{exercise.id}", retry_key, show_key):
                    st.session_state.pop(key, None)
                st.session_state[f"graded_by_{exercise.id}"] = result.engine  # the attempt row keeps no engine
                for skill in result.skills_raised:
                    st.toast(t("learning.skill_updated", lang, skill=skill), icon="⭐")
                st.rerun()
        remaining = len(lesson.exercises) - lesson.exercises.index(exercise) - 1
        if remaining:
            st.caption(t("learning.more_exercises", lang, n=remaining))
        break
    if on_screen is None:  # nothing open on screen: the tutor may speak freely again
        service.leave_exercises(deps, user)

    back, _, forward = st.columns([1, 2, 1])
    if position > 0 and back.button(t("learning.previous", lang), key="prev_lesson"):
        st.session_state[lesson_key] = ids[position - 1]
        st.rerun()
    last = position == len(lessons) - 1
    if preview and not last and forward.button(t("learning.next", lang), key="next_lesson", type="primary"):
        st.session_state[lesson_key] = ids[position + 1]
        st.rerun()
    if not preview and forward.button(
        t("learning.finish" if last else "learning.next", lang), key="next_lesson", type="primary"
    ):
        _, status = service.complete_lesson(deps, user, course_id, lesson.id)
        if not last:
            st.session_state[lesson_key] = ids[position + 1]
        st.session_state["learn_celebrate"] = status == "completed" and view.enrollment.status != "completed"
        st.rerun()
    if last and not preview and view.enrollment.status != "completed":
        left = view.unanswered()
        if left:
            st.caption(t("learning.unanswered", lang, n=len(left)))

with side:
    st.subheader(t("learning.tutor", lang))
    if preview:
        st.caption(t("learning.preview_no_tutor", lang))
    elif embed_tutor is not None:
        embed_tutor(user, course_id, str(lesson.id), exercise_id=str(on_screen.id) if on_screen else None)
    else:
        st.info(t("learning.tutor_missing", lang))
