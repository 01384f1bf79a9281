"""Helpdesk (employees and admins): describe a problem; the agent searches, asks, proposes a fix, and
drafts a ticket that is filed only when you press "File it". ``?q=...`` prefills the question."""

import uuid

import streamlit as st

from agents.helpdesk import service
from agents.helpdesk.service import AgentTurn, HelpdeskError
from agents.helpdesk.state import CATEGORIES
from agents.i18n import code_label, t
from core.markup import safe_markdown
from core.turns import Turn
from ui.deps import app_deps
from ui.links import page_link
from ui.session import require_user
from ui.turn_view import draw_turn

user = require_user()
deps = app_deps()
LANG = user.language
SESSION, STEPS, IDEM = "helpdesk_session", "helpdesk_steps", "helpdesk_idem"
DRAFT_SEEN, MODAL = "helpdesk_draft_seen", "helpdesk_modal_open"
SEVERITIES = ["low", "medium", "high", "critical"]


def act(step: Turn[AgentTurn]) -> None:
    """Run one agent step with its progress shown live, then re-render the new turn."""
    with st.status(t("helpdesk.working", LANG), expanded=True) as status:
        try:
            turn, steps = draw_turn(step, steps=status)
        except HelpdeskError as exc:
            status.update(label=t("helpdesk.stopped", LANG), state="error")
            service.track(deps, user, "agent.error_shown", st.session_state.get(SESSION), kind=exc.code)
            st.error(str(exc))
            return
    st.session_state[SESSION], st.session_state[STEPS] = turn.session_id, steps
    st.session_state.pop(IDEM, None)
    st.rerun()


def rate_turn(turn) -> None:
    """Spec 001's "did this solve it?": asked on a finished session with a fix or a ticket; changeable."""
    if turn.helpful is not None:
        st.caption(t("helpdesk.helpful_thanks_yes" if turn.helpful else "helpdesk.helpful_thanks_no", LANG))
    else:
        st.write(t("helpdesk.helpful_question", LANG))
    yes, no, _ = st.columns([1, 1, 4])
    for column, helpful, label in ((yes, True, "helpdesk.helpful_yes"), (no, False, "helpdesk.helpful_no")):
        if column.button(t(label, LANG), key=f"hd_helpful_{helpful}", disabled=turn.helpful is helpful):
            try:
                service.rate(deps, user, turn.session_id, helpful)
            except HelpdeskError as exc:
                st.error(str(exc))
                return
            st.rerun()


def close_modal() -> None:
    st.session_state.pop(MODAL, None)


@st.dialog(t("helpdesk.review_title", LANG), width="large", on_dismiss=close_modal)
def review_draft(turn) -> None:
    draft = turn.draft or {}
    title = st.text_input(t("helpdesk.field_title", LANG), value=draft.get("title", ""), max_chars=120)
    preview, edit = st.tabs([t("helpdesk.description_preview", LANG), t("helpdesk.description_edit", LANG)])
    with edit:  # the Markdown source, for whoever wants to change it; the preview tab shows it read as text
        body = st.text_area(
            t("helpdesk.field_description", LANG), value=draft.get("body", "")[:8000], height=320, max_chars=8000
        )
    with preview, st.container(border=True, height=320):
        st.markdown(safe_markdown(body))
    left, right = st.columns(2)
    severity = left.selectbox(
        t("helpdesk.col_severity", LANG),
        SEVERITIES,
        index=SEVERITIES.index(draft.get("severity", "medium")),
        format_func=lambda code: code_label("severity", code, LANG),
    )
    category = right.selectbox(
        t("helpdesk.col_category", LANG),
        CATEGORIES,
        index=CATEGORIES.index(draft.get("category", "other")),
        format_func=lambda code: code_label("category", code, LANG),
    )
    file_it, cancel = st.columns(2)
    if file_it.button(t("helpdesk.file_it", LANG), type="primary", key="hd_file", width="stretch"):
        service.track(deps, user, "agent.modal_submitted", turn.session_id)
        close_modal()
        edited = {"title": title, "body": body, "severity": severity, "category": category}
        act(service.resume_turn(deps, user, turn.session_id, question_id=turn.question_id, action="file", draft=edited))
    if cancel.button(t("helpdesk.cancel", LANG), key="hd_cancel_modal", width="stretch"):
        service.track(deps, user, "agent.modal_cancelled", turn.session_id)
        close_modal()
        st.rerun()


st.title(t("helpdesk.page_title", LANG))
st.caption(t("helpdesk.page_caption", LANG, engine=code_label("engine", service.engine(deps), LANG)))

turn = None
if st.session_state.get(SESSION):
    try:
        turn = service.get_turn(deps, user, st.session_state[SESSION])
    except HelpdeskError as exc:
        st.error(str(exc))
        st.session_state.pop(SESSION, None)

if turn is None or turn.finished:
    if turn is not None:
        show = {"filed": st.success, "resolved": st.success, "linked": st.info}.get(turn.kind, st.warning)
        show(turn.message)
        if turn.ticket:
            status = code_label("status", turn.ticket.get("status") or turn.ticket.get("state"), LANG)
            st.markdown(
                f"**#{turn.ticket['number']}** · {safe_markdown(turn.ticket['title'])} · {status}"
                + (f" · [{t('helpdesk.open_link', LANG)}]({turn.ticket['url']})" if turn.ticket.get("url") else "")
            )
            page_link("pages/my_tickets.py", t("helpdesk.see_my_tickets", LANG), "🎟️", {})
        if turn.rateable:
            rate_turn(turn)
        if st.button(t("helpdesk.new_request", LANG), key="hd_new"):
            st.session_state.pop(SESSION, None)
            st.rerun()
        st.stop()
    prefill = st.query_params.get("q", "")[:4000]
    with st.form("hd_start"):
        question = st.text_area(
            t("helpdesk.question_label", LANG),
            value=prefill,
            max_chars=4000,
            placeholder=t("helpdesk.question_placeholder", LANG),
        )
        started = st.form_submit_button(t("helpdesk.get_help", LANG), type="primary")
    if started:
        key = st.session_state.setdefault(IDEM, uuid.uuid4().hex)  # a double click replays, never duplicates
        act(service.start_turn(deps, user, question, idempotency_key=key, trigger="tutor" if prefill else "chip"))
    st.stop()

if st.session_state.get(STEPS):
    with st.expander(t("helpdesk.what_i_did", LANG), expanded=False):
        for label in st.session_state[STEPS]:
            st.write(f"✓ {label}")

for said in service.thread(deps, user, turn.session_id):  # the person's own words stay on screen
    with st.chat_message(said["role"]):
        st.markdown(safe_markdown(said["content"]))

with st.chat_message("assistant"):
    if turn.kind == "working":
        st.write(t("helpdesk.still_working", LANG))
    else:
        st.markdown(safe_markdown(turn.message))
    if turn.kind == "duplicate" and turn.ticket:
        st.caption(f"#{turn.ticket['number']} · {code_label('status', turn.ticket.get('state'), LANG)}")

sid, qid = turn.session_id, turn.question_id
if turn.kind == "question":
    columns = st.columns(max(1, len(turn.choices)))
    for position, (column, choice) in enumerate(zip(columns, turn.choices), start=1):
        if column.button(choice, key=f"hd_chip_{position}", width="stretch"):
            service.track(deps, user, "agent.chip_clicked", sid, position=position)
            act(service.resume_turn(deps, user, sid, question_id=qid, text=choice))
    with st.form("hd_reply", clear_on_submit=True):
        reply = st.text_input(t("helpdesk.type_answer", LANG))
        if st.form_submit_button(t("helpdesk.send", LANG)) and reply.strip():
            service.track(deps, user, "agent.resumed_via", sid, via="free_text")
            act(service.resume_turn(deps, user, sid, question_id=qid, text=reply))
elif turn.kind == "solution":
    solved, not_solved = st.columns(2)
    if solved.button(t("helpdesk.solved_button", LANG), key="hd_solved", width="stretch"):
        act(service.resume_turn(deps, user, sid, question_id=qid, action="solved"))
    if not_solved.button(t("helpdesk.not_solved_button", LANG), key="hd_not_solved", width="stretch"):
        act(service.resume_turn(deps, user, sid, question_id=qid, action="not_solved"))
elif turn.kind == "duplicate":
    link, other = st.columns(2)
    if link.button(t("helpdesk.link_button", LANG), key="hd_link", type="primary", width="stretch"):
        act(service.resume_turn(deps, user, sid, question_id=qid, action="link"))
    if other.button(t("helpdesk.choice_not_same", LANG), key="hd_not_same", width="stretch"):
        act(service.resume_turn(deps, user, sid, question_id=qid, action="not_same"))
elif turn.kind == "draft_ready":
    if turn.error:
        st.warning(t("helpdesk.filing_failed", LANG))
    st.markdown(
        f"**{safe_markdown(turn.draft['title'])}** · {code_label('severity', turn.draft['severity'], LANG)} · "
        f"{code_label('category', turn.draft['category'], LANG)}"
    )
    if st.session_state.get(DRAFT_SEEN) != qid:  # a new draft opens the modal by itself, once
        st.session_state[DRAFT_SEEN], st.session_state[MODAL] = qid, True
        service.track(deps, user, "agent.modal_opened", sid, trigger="auto")
    if st.button(t("helpdesk.review_button", LANG), key="hd_review", type="primary"):
        st.session_state[MODAL] = True
        service.track(deps, user, "agent.modal_opened", sid, trigger="button")
    if st.session_state.get(MODAL):
        review_draft(turn)

if turn.kind != "working" and st.button(t("helpdesk.cancel_session", LANG), key="hd_abort"):
    service.track(deps, user, "agent.cancel_clicked", sid, from_state=turn.kind)
    act(service.abort_turn(deps, user, sid))
