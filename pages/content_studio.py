"""Content studio (HR admins): documents -> course + manual, with structure and final reviews."""

import pandas as pd
import streamlit as st

from agents.content import decisions, service
from agents.content.events import event_line
from agents.content.sources import other_language_documents
from agents.i18n import format_datetime, format_number, language_name, t
from agents.ingestion.uploads import recent as recent_uploads
from agents.ingestion.uploads import uploads_in_flight
from ui.course_health import studio_health_panel
from ui.deps import app_deps
from ui.draft_courses import draft_courses
from ui.ingestion_progress import draw_ingestions, in_flight, ingestion_progress
from ui.live import live_panel
from ui.session import require_admin
from ui.stale import stale_panel
from ui.studio_published import published_panel
from ui.studio_reviews import act, final_review, structure_review
from ui.uploads import file_uploader

user = require_admin()
lang = user.language
deps = app_deps()


def status_label(status: str) -> str:
    return t(f"content.status.{status}", lang)


st.title(t("content.studio.title", lang))
st.caption(t("content.studio.caption", lang))

# ---------------------------------------------------------------------------------------- new job
# the form's widgets are keyed by a round: a started job gets an empty form (its files are saved already),
# so a second "Generate" can't start the same job again
form_round = st.session_state.setdefault("new_job_round", 0)
with st.expander(t("content.studio.new", lang), expanded=not service.list_jobs(deps, user)):
    uploads = file_uploader(
        t("content.studio.upload", lang),
        lang,
        accept_multiple_files=True,
        key=f"uploads-{form_round}",
        max_upload_size=service.max_upload_mb(),
    )
    documents = {f"{d.title} ({d.page_count} p.)": d for d in service.list_documents(deps, user)}
    known = {label: d.id for label, d in documents.items()}
    picked = st.multiselect(
        t("content.studio.pick", lang),
        list(known),
        key=f"picked-{form_round}",
        placeholder=t("content.studio.pick_placeholder", lang),
        select_all=False,  # Streamlit's own "Select all" is English whatever the reader's language
    )
    course_language, others = other_language_documents([documents[p] for p in picked])
    if others:  # said before generating: a course has one language, and these documents are in another
        st.warning(
            t(
                "content.studio.mixed_languages",
                lang,
                course=language_name(course_language, lang),
                count=len(others),
                titles=", ".join(f"«{d.title}»" for d in others),
            )
        )
    manual_only = st.checkbox(t("content.studio.manual_only", lang), key=f"manual_only-{form_round}")
    if st.button(t("content.studio.generate", lang), type="primary", key="start"):
        # set before anything else: a rerun that cuts this run short after the job exists still finds it
        st.session_state["started_after"] = deps.now()
        try:
            job_id = service.start_job_with_uploads(
                deps,
                user,
                [(f.name, f.getvalue()) for f in uploads or []],
                [known[p] for p in picked],
                "manual_only" if manual_only else "course_and_manual",
            )
        except service.ContentServiceError as exc:
            st.error(str(exc))
        else:
            # the picker below keeps its own value across reruns: point it at the new job
            st.session_state["job_id"] = st.session_state["job_pick"] = str(job_id)
            st.session_state["new_job_round"] = form_round + 1
            st.rerun()

with st.container():  # lessons whose source passages changed since they were written; one slot (ui/live.py)
    stale_panel(deps, user)
with st.container():  # what learners' answers say about each published course's exercises (one slot)
    studio_health_panel(deps, user)

# ---------------------------------------------------------------------------------------- draft courses
with st.container():  # one slot whatever it holds, so the job panel below keeps its place (ui/live.py)
    draft_courses(deps, user)

# ---------------------------------------------------------------------------------------- job list
jobs = service.list_jobs(deps, user)
if not jobs:
    st.info(t("content.studio.no_jobs", lang))
    ingestion_progress(user)  # uploads started elsewhere (the retrieval lab); a live panel goes last
    st.stop()
uploading = uploads_in_flight(user, pool=deps.pool)


def documents_cell(job) -> str:
    """Its documents, and the uploads it waits for (a job started from uploads has none until they settle)."""
    count = format_number(len(job.source_document_ids), lang)
    waiting = [i for i in (job.options or {}).get("ingestions", []) if i in uploading]
    return t("ingestion.job_documents", lang, n=count, uploads=len(waiting)) if waiting else count


st.subheader(t("content.studio.jobs", lang))
st.dataframe(
    pd.DataFrame(
        [
            {
                "#": row,
                t("content.studio.created", lang): format_datetime(j.created_at, lang),
                t("content.studio.status", lang): status_label(j.status),
                t("content.studio.documents", lang): documents_cell(j),
                t("content.studio.score", lang): format_number(
                    (j.review_report or {}).get("overall_score"), lang, decimals=2
                ),
                t("content.studio.error", lang): j.error or "",
            }
            for row, j in enumerate(jobs, 1)
        ]
    ),
    hide_index=True,
    width="stretch",
)
ids = [str(j.id) for j in jobs]
started_after = st.session_state.pop("started_after", None)
just_started = [j for j in jobs if started_after and j.triggered_by == user.id and j.created_at >= started_after]
if just_started:  # the job this admin just started is the one shown, even if its run was cut short
    st.session_state["job_id"] = st.session_state["job_pick"] = str(just_started[0].id)
current = st.session_state.get("job_id") if st.session_state.get("job_id") in ids else ids[0]
created = {str(j.id): format_datetime(j.created_at, lang) for j in jobs}
row_of = {job_id: row for row, job_id in enumerate(ids, 1)}  # the "#" of the table above, not a raw id
# the label holds nothing that changes while the job runs: a selectbox keeps showing its first label
job_id = st.selectbox(
    t("content.studio.job", lang),
    ids,
    index=ids.index(current),
    key="job_pick",
    format_func=lambda i: f"#{row_of[i]} · {created[i]}",
)
st.session_state["job_id"] = job_id


def observe() -> tuple[service.JobView, list]:
    return service.job_view(deps, user, job_id, with_state=False), recent_uploads(user, limit=8, pool=deps.pool)


def working(seen) -> bool:
    """The worker has something to do for the job (uploads to wait for, a stage to run, a queued change).
    Only then does the panel refresh itself: never while a review or a form is on screen (ui/live.py)."""
    return seen[0].working


def stage(seen) -> tuple:
    """A new status, the worker done with a queued change, an upload done: the review panels change."""
    job = seen[0].job
    return str(job.id), job.status, job.command is None, in_flight(seen[1])


def progress(seen) -> None:
    """Uploads being ingested, then the job: its status, module i of n, and its events."""
    view, uploads = seen
    draw_ingestions(uploads, lang)
    job = view.job
    cols = st.columns([2, 3])
    cols[0].metric(t("content.studio.status", lang), status_label(job.status))
    total, done = job.progress.get("total") or 0, len(job.progress.get("done") or [])
    if total and job.status in ("generating", "reviewing", "awaiting_final_review", "publishing", "published"):
        current_module = job.progress.get("current") if job.progress.get("current") and done < total else ""
        cols[1].progress(
            done / total,
            text=t("content.studio.module_of", lang, done=done, total=total)
            + (f" · {current_module}" if current_module else ""),
        )
    if job.status == "pending" and job.options.get("ingestions"):
        st.caption(t("ingestion.waiting_job", lang))
    if job.error:
        st.error(job.error)
    with st.expander(t("content.studio.events", lang)):
        for event in view.events[-30:]:
            st.caption(f"{format_datetime(event.created_at, lang)} · {event_line(event, lang)}")


# ------------------------------------------------------------------------------ the job, last on the page
def job_area(seen) -> None:
    """The job's progress; once the worker is done with it, what the admin decides next."""
    progress(seen)
    if working(seen):
        return
    view = service.job_view(deps, user, job_id)
    if view.job.status == "failed" and st.button(t("content.studio.retry", lang), key="retry"):
        act(deps, user, decisions.retry_job, job_id)
    if view.job.status == "published":
        published_panel(deps, user, job_id, view.job)
    if view.checkpoint == "structure":
        structure_review(deps, user, job_id, view)
    if view.checkpoint == "final":
        final_review(deps, user, job_id, view)


# one fragment, refreshing itself only while the worker has the job (ui/live.py): drawn last, so whatever a
# run cut short by its timer leaves behind lies inside it and is cleared by its next run
live_panel("studio-live", observe, job_area, stage=stage, busy=working)
