"""Content studio (HR admins): documents -> course + manual, with structure and final reviews."""
import json

import pandas as pd
import streamlit as st

from agents.content import service
from storage.markup import safe_markdown
from ui.session import require_admin
from ui.scorm import scorm_download
from ui.stale import stale_panel

user = require_admin()
pool = service.pool()


def say(es: str, en: str) -> str:
    return es if user.language == "es" else en


STATUS = {"pending": ("En cola", "Queued"), "extracting": ("Analizando", "Analysing"),
          "structuring": ("Diseñando estructura", "Designing structure"),
          "awaiting_structure_review": ("Revisar estructura", "Review structure"),
          "generating": ("Generando", "Generating"), "reviewing": ("Revisando calidad", "Reviewing quality"),
          "awaiting_final_review": ("Revisión final", "Final review"), "publishing": ("Publicando", "Publishing"),
          "published": ("Publicado", "Published"), "rejected": ("Rechazado", "Rejected"),
          "failed": ("Error", "Failed"), "cancelled": ("Cancelado", "Cancelled")}
KINDS = ["theory", "example", "exercise", "summary"]


def status_label(status: str) -> str:
    return say(*STATUS.get(status, (status, status)))


def act(action, *args, **kwargs) -> None:
    """Run a service call; a refusal is shown as one line and changes nothing."""
    try:
        action(pool, user, *args, **kwargs)
    except service.ContentServiceError as exc:
        st.error(str(exc))
    else:
        st.toast(say("Hecho. El trabajo continúa en segundo plano.", "Done. The job continues in the background."))
        st.rerun()


st.title(say("🏭 Estudio de contenidos", "🏭 Content studio"))
st.caption(say("Convierte documentos en un curso y un manual. Nada se publica sin tu aprobación.",
               "Turn documents into a course and a manual. Nothing is published without your approval."))

# ---------------------------------------------------------------------------------------- new job
with st.expander(say("➕ Nuevo curso desde documentos", "➕ New course from documents"),
                 expanded=not service.list_jobs(pool, user)):
    uploads = st.file_uploader(say("Sube documentos (PDF, DOCX, Markdown, texto, HTML)",
                                   "Upload documents (PDF, DOCX, Markdown, text, HTML)"),
                               accept_multiple_files=True, key="uploads", max_upload_size=service.max_upload_mb())
    known = {f"{d.title} ({d.page_count} p.)": d.id for d in service.list_documents(pool, user)}
    picked = st.multiselect(say("…o elige documentos ya ingeridos", "…or pick documents already ingested"),
                            list(known), key="picked", placeholder=say("Elige documentos", "Choose documents"))
    manual_only = st.checkbox(say("Solo el manual", "Manual only"), key="manual_only")
    if st.button(say("Generar", "Generate"), type="primary", key="start"):
        try:
            with st.spinner(say("Leyendo e indexando los documentos subidos…", "Reading and indexing the uploads…")):
                ingested = service.ingest_uploads(pool, user, [(f.name, f.getvalue()) for f in uploads or []])
            job_id = service.start_job(pool, user, [r.document_id for r in ingested] + [known[p] for p in picked],
                                       "manual_only" if manual_only else "course_and_manual")
        except service.ContentServiceError as exc:
            st.error(str(exc))
        else:
            # the picker below keeps its own value across reruns: point it at the new job
            st.session_state["job_id"] = st.session_state["job_pick"] = str(job_id)
            st.rerun()

stale_panel(user)   # lessons whose source passages changed since they were written

# ---------------------------------------------------------------------------------------- job list
jobs = service.list_jobs(pool, user)
if not jobs:
    st.info(say("Aún no hay trabajos de generación.", "No generation jobs yet."))
    st.stop()
st.subheader(say("Trabajos", "Jobs"))
st.dataframe(pd.DataFrame([{say("Creado", "Created"): j.created_at.strftime("%Y-%m-%d %H:%M"),
                            say("Estado", "Status"): status_label(j.status),
                            say("Documentos", "Documents"): len(j.source_document_ids),
                            say("Puntuación", "Score"): (j.review_report or {}).get("overall_score"),
                            "Error": j.error or "", "id": str(j.id)} for j in jobs]),
             hide_index=True, width="stretch")
ids = [str(j.id) for j in jobs]
current = st.session_state.get("job_id") if st.session_state.get("job_id") in ids else ids[0]
created = {str(j.id): f"{j.created_at:%Y-%m-%d %H:%M}" for j in jobs}
# the label holds nothing that changes while the job runs: a selectbox keeps showing its first label
job_id = st.selectbox(say("Trabajo", "Job"), ids, index=ids.index(current), key="job_pick",
                      format_func=lambda i: f"{created[i]} · {i[:8]}")
st.session_state["job_id"] = job_id


@st.fragment(run_every=2)
def progress() -> None:
    """Live progress: the status, module i of n, and the job's events (refreshes every 2 s)."""
    view = service.job_view(pool, user, job_id, with_state=False)
    job = view.job
    cols = st.columns([2, 3])
    cols[0].metric(say("Estado", "Status"), status_label(job.status))
    total, done = job.progress.get("total") or 0, len(job.progress.get("done") or [])
    if total and job.status in ("generating", "reviewing", "awaiting_final_review", "publishing", "published"):
        cols[1].progress(done / total, text=say(f"Módulo {done} de {total}", f"Module {done} of {total}")
                         + (f" · {job.progress.get('current')}" if job.progress.get("current") and done < total else ""))
    if job.error:
        st.error(job.error)
    with st.expander(say("Eventos", "Events")):
        for event in view.events[-30:]:
            message = event.data.get("message_en" if user.language != "es" else "message") or \
                json.dumps(event.data, ensure_ascii=False)
            st.caption(f"{event.created_at:%H:%M:%S} · **{event.event_type}** · {message}")
    if st.session_state.get("seen_status") != job.status:   # a new stage: redraw the review panels
        st.session_state["seen_status"] = job.status
        st.rerun()


progress()
view = service.job_view(pool, user, job_id)
job = view.job

if job.status == "failed":
    if st.button(say("🔁 Reintentar desde el paso que falló", "🔁 Retry from the failed step"), key="retry"):
        act(service.retry_job, job_id)
if job.status == "published":
    st.success(say("Curso y manual publicados.", "Course and manual published."))
    if job.result_course_id:
        scorm_download(user, job.result_course_id)

# ------------------------------------------------------------------------------ checkpoint 1: structure
if view.checkpoint == "structure":
    outline = view.state["course_outline"]
    st.subheader(say("Revisión de la estructura", "Structure review"))
    title = st.text_input(say("Título del curso", "Course title"), outline["title"], key=f"title-{job_id}")
    st.caption(say("Edita el esquema: cambia el número de módulo para reordenar, renombra, añade o borra filas.",
                   "Edit the outline: change the module number to reorder, rename, add or delete rows."))
    rows = st.data_editor(
        pd.DataFrame(service.outline_rows(outline)), num_rows="dynamic", width="stretch",
        key=f"outline-{job_id}", hide_index=True,
        column_config={"module": st.column_config.NumberColumn(say("Módulo", "Module"), min_value=1, step=1),
                       "module_title": say("Título del módulo", "Module title"),
                       "lesson": st.column_config.NumberColumn(say("Lección", "Lesson"), min_value=1, step=1),
                       "lesson_title": say("Título de la lección", "Lesson title"),
                       "content_type": st.column_config.SelectboxColumn(say("Tipo", "Type"), options=KINDS),
                       "origin": st.column_config.NumberColumn(say("Origen", "Origin"), disabled=True)})
    notes = st.text_input(say("Notas (opcional)", "Notes (optional)"), key=f"snotes-{job_id}")
    a, e, r = st.columns(3)
    if a.button(say("✅ Aprobar", "✅ Approve"), type="primary", key="s_approve"):
        act(service.review_structure, job_id, "approve", notes=notes or None)
    if e.button(say("✏️ Aplicar cambios y generar", "✏️ Apply edits and generate"), key="s_edit"):
        edited = service.outline_from_rows(rows.where(pd.notna(rows), None).to_dict("records"),
                                           {**outline, "title": title})
        act(service.review_structure, job_id, "edit", outline=edited, notes=notes or None)
    if r.button(say("⛔ Rechazar", "⛔ Reject"), key="s_reject"):
        act(service.review_structure, job_id, "reject", notes=notes or None)

# ------------------------------------------------------------------------------ checkpoint 2: final
if view.checkpoint == "final":
    state = view.state
    report = state.get("review_report") or {}
    st.subheader(say("Revisión final", "Final review"))
    cols = st.columns(3)
    cols[0].metric(say("Puntuación de calidad", "Quality score"), f"{report.get('overall_score', 0):.2f}")
    cols[1].metric(say("Ciclos de corrección", "Refinement cycles"), state.get("refinement_count", 0))
    cols[2].metric(say("Revisor", "Reviewer"), report.get("engine", "—"))
    issues = pd.DataFrame(report.get("issues") or [], columns=["severity", "module_index", "description", "suggestion"])
    if len(issues):
        issues["severity"] = pd.Categorical(issues["severity"], ["critical", "major", "minor"], ordered=True)
        st.dataframe(issues.sort_values("severity"), hide_index=True, width="stretch")
    else:
        st.success(say("El revisor no encontró problemas.", "The reviewer found no issues."))
    scores = report.get("module_scores") or []
    modules = state.get("generated_modules") or []
    for index, module in enumerate(modules):
        score = f" · {scores[index]:.2f}" if index < len(scores) else ""
        with st.expander(f"{index + 1}. {module['module_spec']['title']}{score} · {module.get('engine', '')}"):
            for li, lesson in enumerate(module["lessons"]):
                text = st.text_area(f"{lesson['title']} ({lesson['content_type']})", lesson["content"],
                                    height=180, key=f"l-{job_id}-{index}-{li}")
                if text != lesson["content"] and st.button(say("Guardar lección", "Save lesson"),
                                                           key=f"ls-{job_id}-{index}-{li}"):
                    act(service.edit_content, job_id, f"module.{index}.lesson.{li}", "content", text)
            for ei, exercise in enumerate(module["exercises"]):
                st.markdown(f"**{exercise['type']}** · {exercise['bloom_level']} · {safe_markdown(exercise['prompt'])}")
                raw = st.text_area(say("Contenido (JSON)", "Content (JSON)"),
                                   json.dumps(exercise["content"], ensure_ascii=False, indent=1), height=140,
                                   key=f"e-{job_id}-{index}-{ei}")
                if st.button(say("Guardar ejercicio", "Save exercise"), key=f"es-{job_id}-{index}-{ei}"):
                    try:
                        value = json.loads(raw)
                    except ValueError:
                        st.error(say("El JSON no es válido.", "That JSON is not valid."))
                    else:
                        act(service.edit_content, job_id, f"module.{index}.exercise.{ei}", "content", value)
            instructions = st.text_input(say("Instrucciones para regenerar", "Instructions to regenerate"),
                                         key=f"ri-{job_id}-{index}")
            if st.button(say("🔄 Regenerar este módulo", "🔄 Regenerate this module"), key=f"rg-{job_id}-{index}"):
                act(service.regenerate_module, job_id, index, instructions or None)
    manual = state.get("generated_manual")
    if manual:
        with st.expander(say("📘 Manual", "📘 Manual")):
            st.markdown(safe_markdown(manual["content_md"]))
    notes = st.text_input(say("Notas para la corrección", "Notes for refinement"), key=f"fnotes-{job_id}")
    a, f, r = st.columns(3)
    if a.button(say("🚀 Aprobar y publicar", "🚀 Approve and publish"), type="primary", key="f_approve"):
        act(service.review_final, job_id, "approve")
    if f.button(say("🛠️ Corregir de nuevo", "🛠️ Refine again"), key="f_refine"):
        act(service.review_final, job_id, "refine", notes=notes or None)
    if r.button(say("⛔ Rechazar", "⛔ Reject"), key="f_reject"):
        act(service.review_final, job_id, "reject", notes=notes or None)
