"""Content studio (HR admins): documents -> course + manual, with structure and final reviews."""

import hashlib
import json

import pandas as pd
import streamlit as st

from agents.admin import assign
from agents.content import decisions, service
from agents.content import service as content_service
from agents.content.events import event_line
from agents.i18n import (
    code_label,
    format_datetime,
    format_number,
    format_percent,
    t,
)
from agents.ingestion.uploads import recent as recent_uploads
from agents.ingestion.uploads import uploads_in_flight
from core.markup import safe_markdown
from ui.course_health import studio_health_panel
from ui.deps import app_deps
from ui.draft_courses import draft_courses
from ui.exercise_forms import exercise_form, exercise_summary
from ui.ingestion_progress import draw_ingestions, in_flight, ingestion_progress
from ui.links import page_link
from ui.live import live_panel
from ui.scorm import scorm_download
from ui.session import require_admin
from ui.stale import stale_panel
from ui.tutor_mode import tutor_mode_setting
from ui.uploads import file_uploader

user = require_admin()
lang = user.language
deps = app_deps()
KINDS = ["theory", "example", "exercise", "summary"]


def act(action, *args, **kwargs) -> bool:
    """Run a service call; a refusal is shown as one line and changes nothing."""
    try:
        action(deps, user, *args, **kwargs)
    except service.ContentServiceError as exc:
        st.error(str(exc))
        return False
    st.toast(t("content.studio.queued", lang))
    st.rerun()


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
    known = {f"{d.title} ({d.page_count} p.)": d.id for d in service.list_documents(deps, user)}
    picked = st.multiselect(
        t("content.studio.pick", lang),
        list(known),
        key=f"picked-{form_round}",
        placeholder=t("content.studio.pick_placeholder", lang),
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
    job = seen[0].job
    return job.status == "pending" or job.status in service.RUNNING or job.command is not None


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


# ------------------------------------------------------------------------------ after publishing
def after_publish(job) -> None:
    st.success(t("content.studio.published", lang))
    if job.result_course_id:
        course_id = str(job.result_course_id)
        page_link("pages/course_player.py", t("content.studio.open_course", lang), "▶️", {"course": course_id})
        if job.result_manual_id:
            page_link(
                "pages/manuals.py", t("content.studio.open_manual", lang), "📘", {"manual": str(job.result_manual_id)}
            )
        scorm_download(deps, user, job.result_course_id)
        tutor_mode_setting(deps, user, course_id)  # how the tutor answers the learners taking it (issue 29)
        # keyed: its open state lives in the session, so a rerun that redraws the panel above keeps it open
        with st.expander(t("content.studio.assign", lang), key=f"assign-{job_id}", on_change="rerun"):
            people = assign.employees(deps, user)
            chosen = st.multiselect(
                t("content.studio.assign_who", lang),
                list(people),
                format_func=people.get,
                key=f"assign-who-{job_id}",
                placeholder=t("content.studio.assign_pick", lang),
            )
            deadline = st.date_input(t("content.studio.assign_deadline", lang), value=None, key=f"assign-dl-{job_id}")
            if st.button(t("content.studio.assign_preview", lang), key=f"assign-prev-{job_id}", disabled=not chosen):
                try:
                    st.session_state[f"assign-plan-{job_id}"] = assign.preview(
                        deps, user, course_id, chosen, deadline.isoformat() if deadline else None
                    )
                except assign.AssignError as exc:
                    st.error(str(exc))
            if done := st.session_state.pop(f"assign-done-{job_id}", None):
                st.success(done)
            plan = st.session_state.get(f"assign-plan-{job_id}")
            if plan:
                st.markdown(plan["preview"])
                if st.button(t("content.studio.assign_confirm", lang), type="primary", key=f"assign-ok-{job_id}"):
                    try:  # the preview goes once it has run: drawn again, its Confirm would invite a second run
                        st.session_state[f"assign-done-{job_id}"] = assign.confirm(deps, user, plan["arguments"])
                        st.session_state.pop(f"assign-plan-{job_id}", None)
                        st.rerun()
                    except assign.AssignError as exc:
                        st.error(str(exc))


# ------------------------------------------------------------------------------ checkpoint 1: structure
def structure_review(view) -> None:
    outline = view.state["course_outline"]
    # a redesign brings a new outline: fresh widgets for it, not the edits typed over the previous one
    rev = f"{job_id}-{hashlib.sha1(json.dumps(outline, sort_keys=True).encode()).hexdigest()[:8]}"
    st.subheader(t("content.studio.structure_review", lang))
    title = st.text_input(t("content.studio.course_title", lang), outline["title"], key=f"title-{rev}")
    description = st.text_area(t("content.studio.description", lang), outline.get("description", ""), key=f"desc-{rev}")
    outcome = st.text_area(t("content.studio.outcome", lang), outline.get("outcome", ""), key=f"outcome-{rev}")
    st.caption(t("content.studio.outline_help", lang))
    kind_column = st.column_config.SelectboxColumn(
        t("content.studio.kind", lang), options=KINDS, format_func=lambda kind: t(f"content.kind.{kind}", lang)
    )
    rows = st.data_editor(
        pd.DataFrame(service.outline_rows(outline)),
        num_rows="dynamic",
        width="stretch",
        key=f"outline-{rev}",
        hide_index=True,
        column_config={
            "module": st.column_config.NumberColumn(t("content.studio.module", lang), min_value=1, step=1),
            "module_title": t("content.studio.module_title", lang),
            "lesson": st.column_config.NumberColumn(t("content.studio.lesson", lang), min_value=1, step=1),
            "lesson_title": t("content.studio.lesson_title", lang),
            "content_type": kind_column,
            "origin": st.column_config.NumberColumn(t("content.studio.origin", lang), disabled=True),
        },
    )
    notes = st.text_area(
        t("content.studio.redesign_notes", lang), key=f"snotes-{rev}", help=t("content.studio.redesign_help", lang)
    )

    def edited_outline() -> dict:  # the notes are not applied here: the design pass reads them
        return service.outline_from_rows(
            rows.where(pd.notna(rows), None).to_dict("records"),
            {**outline, "title": title, "description": description, "outcome": outcome},
        )

    a, e, d, r = st.columns(4)
    if a.button(t("content.studio.approve", lang), type="primary", key="s_approve"):
        act(decisions.review_structure, job_id, "approve", notes=notes or None)
    if e.button(t("content.studio.apply_edits", lang), key="s_edit"):
        act(decisions.review_structure, job_id, "edit", outline=edited_outline(), notes=notes or None)
    if d.button(t("content.studio.redesign", lang), key="s_redesign", disabled=not notes):
        act(decisions.review_structure, job_id, "redesign", outline=edited_outline(), notes=notes)
    if r.button(t("content.studio.reject", lang), key="s_reject"):
        act(decisions.review_structure, job_id, "reject", notes=notes or None)


# ------------------------------------------------------------------------------ checkpoint 2: final
def final_review(view) -> None:
    state = view.state
    report = state.get("review_report") or {}
    checks = report.get("checks") or {}
    issues = report.get("issues") or []
    count = {severity: sum(i["severity"] == severity for i in issues) for severity in ("critical", "major", "minor")}
    st.subheader(t("content.studio.final_review", lang))
    last = view.events[-1] if view.events else None
    if last and last.event_type == "exercise_regenerated" and not last.data.get("replaced"):
        st.info(
            t("content.studio.no_other_exercise", lang, n=last.data["exercise"] + 1, module=last.data["module"] + 1)
        )
    # what a trainer weighs: the score, the findings by weight, how much of the source's facts the course teaches
    cols = st.columns(5)
    cols[0].metric(t("content.studio.quality_score", lang), f"{report.get('overall_score', 0):.2f}")
    for col, severity in zip(cols[1:4], ("critical", "major", "minor")):
        col.metric(t(f"content.studio.count_{severity}", lang), count[severity])
    cols[4].metric(t("content.studio.fact_coverage", lang), format_percent(checks.get("fact_coverage"), lang))
    st.caption(t("content.studio.reviewed_by", lang, engine=report.get("engine", "—")))
    if issues:
        table = pd.DataFrame(
            [
                {
                    t("content.studio.severity", lang): t("content.severity." + i["severity"], lang),
                    t("content.studio.module", lang): "" if i.get("module_index") is None else i["module_index"] + 1,
                    t("content.studio.issue", lang): i["description"],
                    t("content.studio.suggestion", lang): i["suggestion"],
                }
                for i in sorted(issues, key=lambda i: ("critical", "major", "minor").index(i["severity"]))
            ]
        )
        st.dataframe(table, hide_index=True, width="stretch")
    else:
        st.success(t("content.studio.no_issues", lang))
    written = content_service.template_modules(state)  # issue 13: say which modules the model did not write
    replaced = [m for m in written if m["fallback"]]
    if written and len(written) == len(state.get("generated_modules") or []) and not replaced:
        st.info(t("content.studio.template_offline", lang))
    elif written:
        st.warning(
            "\n".join(
                [t("content.studio.template_banner", lang, count=len(written))]
                + [
                    "- "
                    + (
                        t(
                            "content.studio.template_why",
                            lang,
                            title=safe_markdown(m["title"]),
                            reason=code_label("fallback", m["fallback"], lang),
                        )
                        if m["fallback"]
                        else safe_markdown(m["title"])
                    )
                    for m in written
                ]
            )
        )

    with st.expander(t("content.studio.metadata", lang)):
        outline = state["course_outline"]
        with st.form(f"meta-{job_id}"):
            values = {
                name: st.text_area(
                    t("content.studio." + label, lang), outline.get(name, ""), key=f"meta-{job_id}-{name}"
                )
                for name, label in (("title", "course_title"), ("description", "description"), ("outcome", "outcome"))
            }
            if st.form_submit_button(t("content.form.save", lang)):
                changed = {k: v for k, v in values.items() if v != outline.get(k, "")}
                if changed:
                    act(decisions.edit_content, job_id, "course", fields=changed)
    scores = report.get("module_scores") or []
    modules = state.get("generated_modules") or []
    for index, module in enumerate(modules):
        score = f" · {scores[index]:.2f}" if index < len(scores) else ""
        with st.expander(f"{index + 1}. {module['module_spec']['title']}{score} · {module.get('engine', '')}"):
            for li, lesson in enumerate(module["lessons"]):
                kind = t("content.kind." + lesson["content_type"], lang)
                text = st.text_area(
                    f"{lesson['title']} ({kind})", lesson["content"], height=180, key=f"l-{job_id}-{index}-{li}"
                )
                if text != lesson["content"] and st.button(
                    t("content.studio.save_lesson", lang), key=f"ls-{job_id}-{index}-{li}"
                ):
                    act(decisions.edit_content, job_id, f"module.{index}.lesson.{li}", "content", text)
            for ei, exercise in enumerate(module["exercises"]):
                found = [i for i in issues if i.get("module_index") == index and i.get("exercise_index") == ei]
                kind = t("content.exercise_type." + exercise["type"], lang)
                bloom = t("content.bloom." + exercise["bloom_level"], lang)
                st.markdown(f"**{ei + 1}. {kind}** · {bloom} · {safe_markdown(exercise['prompt'])}")
                st.markdown(exercise_summary(exercise, lang))
                for issue in found:
                    st.warning(t("content.severity." + issue["severity"], lang) + ": " + issue["description"])
                edit, again = st.columns([1, 1])
                with edit.popover(t("content.studio.edit_exercise", lang)):
                    fields = exercise_form(exercise, lang, f"ef-{job_id}-{index}-{ei}")
                    if fields:
                        act(decisions.edit_content, job_id, f"module.{index}.exercise.{ei}", fields=fields)
                if again.button(t("content.studio.regenerate_exercise", lang), key=f"rx-{job_id}-{index}-{ei}"):
                    act(decisions.regenerate_exercise, job_id, index, ei)
            instructions = st.text_input(t("content.studio.regenerate_notes", lang), key=f"ri-{job_id}-{index}")
            if st.button(t("content.studio.regenerate", lang), key=f"rg-{job_id}-{index}"):
                act(decisions.regenerate_module, job_id, index, instructions or None)
    manual = state.get("generated_manual")
    if manual:
        with st.expander(t("content.studio.manual", lang)):
            st.markdown(safe_markdown(manual["content_md"]))
    notes = st.text_input(t("content.studio.refine_notes", lang), key=f"fnotes-{job_id}")
    waiver = st.text_input(t("content.studio.waiver", lang), key=f"waive-{job_id}") if count["critical"] else None
    accept = st.checkbox(t("content.studio.template_accept", lang), key=f"tpl-{job_id}") if replaced else False
    a, f, r = st.columns(3)
    if a.button(t("content.studio.publish", lang), type="primary", key="f_approve"):
        act(decisions.review_final, job_id, "approve", waive_reason=waiver or None, accept_template_modules=accept)
    if f.button(t("content.studio.refine", lang), key="f_refine"):
        act(decisions.review_final, job_id, "refine", notes=notes or None)
    if r.button(t("content.studio.reject", lang), key="f_reject"):
        act(decisions.review_final, job_id, "reject", notes=notes or None)


# ------------------------------------------------------------------------------ the job, last on the page
def job_area(seen) -> None:
    """The job's progress; once the worker is done with it, what the admin decides next."""
    progress(seen)
    if working(seen):
        return
    view = service.job_view(deps, user, job_id)
    if view.job.status == "failed" and st.button(t("content.studio.retry", lang), key="retry"):
        act(decisions.retry_job, job_id)
    if view.job.status == "published":
        after_publish(view.job)
    if view.checkpoint == "structure":
        structure_review(view)
    if view.checkpoint == "final":
        final_review(view)


# one fragment, refreshing itself only while the worker has the job (ui/live.py): drawn last, so whatever a
# run cut short by its timer leaves behind lies inside it and is cleared by its next run
live_panel("studio-live", observe, job_area, stage=stage, busy=working)
