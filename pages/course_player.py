"""Course player: lessons as Markdown with their sources, exercises with immediate feedback, the tutor
beside them, previous/next through the course."""
import uuid

import streamlit as st

from agents.learning import service
from storage.markup import safe_markdown
from ui.exercises import exercise_input, lesson_markdown, show_feedback, t
from ui.session import require_user
from ui.stale import updated_policy_note

try:  # the tutor chat widget (written beside this page); the page works without it
    from ui.tutor_chat import embed_tutor
except ImportError:
    embed_tutor = None

user = require_user()
lang = user.language
enrollments = service.my_courses(user)
if not enrollments:
    st.info(t(lang, "Aún no tienes cursos asignados.", "You have no courses assigned yet."))
    st.stop()
titles = {str(e.course_id): e.course_title for e in enrollments}
wanted = st.session_state.get("learn_course_id") or st.query_params.get("course")
course_id = st.selectbox(t(lang, "Curso", "Course"), list(titles), format_func=titles.get,
                         index=list(titles).index(wanted) if wanted in titles else 0)
st.session_state["learn_course_id"] = course_id
try:
    view = service.course_view(user, course_id)
except service.LearningError as exc:
    st.error(str(exc))
    st.stop()

lessons = view.lessons
if not lessons:
    st.info(t(lang, "Este curso aún no tiene lecciones.", "This course has no lessons yet."))
    st.stop()
lesson_key = f"learn_lesson_{course_id}"
ids = [lesson.id for lesson in lessons]
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

main, side = st.columns([3, 2], gap="large")
with main:
    st.progress(view.enrollment.progress, text=t(lang, f"Progreso del curso: {round(view.enrollment.progress * 100)}%",
                                                 f"Course progress: {round(view.enrollment.progress * 100)}%"))
    if st.session_state.pop("learn_celebrate", False):
        st.balloons()
    if view.enrollment.status == "completed":
        score = round((view.enrollment.score or 0) * 100)
        st.success(t(lang, f"🎓 ¡Curso completado! Nota: {score}%", f"🎓 Course completed! Score: {score}%"))
    module = view.module_of(lesson.id)
    st.caption(t(lang, f"Módulo {module.position}: {module.title} · Lección {position + 1} de {len(lessons)}",
                 f"Module {module.position}: {module.title} · Lesson {position + 1} of {len(lessons)}"))
    st.header(lesson.title)
    updated_policy_note(user, lesson.id)
    st.markdown(lesson_markdown(lesson.content_md))
    if lesson.citations:
        with st.expander(t(lang, f"Fuentes ({len(lesson.citations)})", f"Sources ({len(lesson.citations)})")):
            for n, c in enumerate(lesson.citations, 1):
                page = f", {t(lang, 'pág.', 'p.')} {c['page']}" if c.get("page") else ""
                section = f" › {c['section']}" if c.get("section") else ""
                st.markdown(safe_markdown(f"[{n}] {c.get('document', '')}{section}{page}"))

    pending = None
    for exercise in lesson.exercises:
        attempt = view.answers.get(exercise.id)
        if attempt and not st.session_state.get(f"retry_{exercise.id}"):
            with st.container(border=True):
                st.markdown(f"**{safe_markdown(exercise.prompt)}**")
                show_feedback(lang, correct=bool(attempt.is_correct), score=attempt.score or 0.0,
                              feedback=attempt.feedback or "", explanation=exercise.explanation,
                              sources=view.sources.get(exercise.id, []),
                              engine=st.session_state.get(f"graded_by_{exercise.id}", "rules"))
                if not attempt.is_correct and st.button(t(lang, "Intentar de nuevo", "Try again"),
                                                        key=f"again_{exercise.id}"):
                    st.session_state[f"retry_{exercise.id}"] = True
                    st.rerun()
            continue
        pending = exercise
        service.open_exercise(user, exercise.id)
        with st.container(border=True):
            answer = exercise_input(exercise, lang, key=str(exercise.id))
        if answer is not None:
            submission = st.session_state.setdefault(f"submission_{exercise.id}", uuid.uuid4().hex)
            try:
                result = service.submit_answer(user, exercise.id, answer, submission)
            except service.LearningError as exc:
                st.error(str(exc))
            else:
                for key in (f"submission_{exercise.id}", f"retry_{exercise.id}"):
                    st.session_state.pop(key, None)
                st.session_state[f"graded_by_{exercise.id}"] = result.engine  # the attempt row keeps no engine
                for skill in result.skills_raised:
                    st.toast(t(lang, f"Habilidad actualizada: {skill}", f"Skill updated: {skill}"), icon="⭐")
                st.rerun()
        remaining = len(lesson.exercises) - lesson.exercises.index(exercise) - 1
        if remaining:
            st.caption(t(lang, f"{remaining} ejercicio(s) más después de este.",
                         f"{remaining} more exercise(s) after this one."))
        break
    if pending is None:  # nothing open on screen: the tutor may speak freely again
        service.leave_exercises(user)

    back, _, forward = st.columns([1, 2, 1])
    if position > 0 and back.button(t(lang, "← Anterior", "← Previous"), key="prev_lesson"):
        st.session_state[lesson_key] = ids[position - 1]
        st.rerun()
    last = position == len(lessons) - 1
    if forward.button(t(lang, "Terminar curso", "Finish course") if last else t(lang, "Siguiente →", "Next →"),
                      key="next_lesson", type="primary"):
        _, status = service.complete_lesson(user, course_id, lesson.id)
        if not last:
            st.session_state[lesson_key] = ids[position + 1]
        st.session_state["learn_celebrate"] = status == "completed" and view.enrollment.status != "completed"
        st.rerun()
    if last and view.enrollment.status != "completed":
        left = view.unanswered()
        if left:
            st.caption(t(lang, f"Te quedan {len(left)} ejercicio(s) sin responder en el curso.",
                         f"{len(left)} exercise(s) in the course are still unanswered."))

with side:
    st.subheader(t(lang, "Tutor", "Tutor"))
    if embed_tutor is not None:
        embed_tutor(user, course_id, str(lesson.id))
    else:
        st.info(t(lang, "El chat del tutor aparecerá aquí. Mientras tanto, ábrelo desde el menú.",
                  "The tutor chat appears here. Meanwhile, open it from the menu."))
