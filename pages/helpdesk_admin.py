"""Admin page: the helpdesk tickets staff work — filters, the list with CSV, and one ticket's detail
(description, snapshot, facts and steps, linked reports, history) with status, assignee and notes."""

import re

import pandas as pd
import streamlit as st

from agents.helpdesk import following, staff
from agents.helpdesk.state import CATEGORIES
from agents.helpdesk.turns import HelpdeskError
from agents.i18n import code_label, format_date, format_datetime, t
from core.markup import safe_markdown
from storage.tickets import SEVERITIES, STATUSES
from ui.deps import app_deps
from ui.session import require_admin
from ui.tables import ROOM, SELECTION, csv_bytes, fitted

user = require_admin()
deps = app_deps()
LANG = user.language
SELECTED = "hd_admin_ticket"
CONFIRMED = "hd_admin_confirmed"
COLUMNS = [
    "number",
    "title",
    "reporter",
    "department",
    "created_at",
    "status",
    "severity",
    "category",
    "affected",
    "assignee",
]
# what the list shows, within the page: the reporter's department, the people affected and the hour are in
# the ticket below and in the CSV
SHOWN = ["number", "title", "reporter", "created_at", "status", "severity", "category", "assignee"]


def label(kind: str):
    return lambda code: code_label(kind, code, LANG)


def run_write(write) -> None:
    """One staff write; its confirmation survives the rerun that shows the new state."""
    try:
        change = write()
    except HelpdeskError as exc:
        st.error(str(exc))
        return
    st.session_state[CONFIRMED] = change.message
    st.rerun()


st.title(t("helpdesk.admin_title", LANG))
if st.session_state.get(CONFIRMED):
    st.success(st.session_state.pop(CONFIRMED))

for note in following.notifications(deps, user):
    st.info(f"🔔 {note['text']} · {format_datetime(note['at'], LANG)}")

with st.expander(t("helpdesk.filters", LANG), expanded=True):
    left, middle, right = st.columns(3)
    statuses = left.multiselect(
        t("helpdesk.col_status", LANG),
        STATUSES,
        default=["open", "in_progress"],
        format_func=label("status"),
        key="hd_f_status",
        placeholder=t("helpdesk.choose_options", LANG),
    )
    severities = middle.multiselect(
        t("helpdesk.col_severity", LANG),
        SEVERITIES,
        format_func=label("severity"),
        key="hd_f_severity",
        placeholder=t("helpdesk.choose_options", LANG),
    )
    categories = right.multiselect(
        t("helpdesk.col_category", LANG),
        CATEGORIES,
        format_func=label("category"),
        key="hd_f_category",
        placeholder=t("helpdesk.choose_options", LANG),
    )
    left, right = st.columns([1, 2])
    assignee = left.selectbox(
        t("helpdesk.col_assignee", LANG),
        ["all", "me", "nobody"],
        format_func=lambda v: t(f"helpdesk.assignee_filter_{v}", LANG),
        key="hd_f_assignee",
    )
    text = right.text_input(t("helpdesk.filter_text", LANG), key="hd_f_text")

rows = staff.staff_tickets(
    deps,
    user,
    statuses=statuses,
    severities=severities,
    categories=categories,
    assignee=None if assignee == "all" else assignee,
    text=text,
)
if not rows:
    st.info(t("helpdesk.no_tickets", LANG))
    st.stop()

frame = pd.DataFrame(rows)[COLUMNS + ["id"]]
headers = {c: t(f"helpdesk.col_{c}", LANG) for c in COLUMNS}
shown = frame[SHOWN].assign(
    created_at=frame["created_at"].map(lambda v: format_date(v, LANG)),
    status=frame["status"].map(label("status")),
    severity=frame["severity"].map(label("severity")),
    category=frame["category"].map(label("category")),
)
fit = fitted(shown, headers, room=ROOM - SELECTION)
picked = st.dataframe(
    fit.frame,
    hide_index=True,
    width="stretch",
    on_select="rerun",
    selection_mode="single-row",
    key="hd_table",
    column_config=fit.config,
)
st.download_button(
    f"⬇ {t('common.download_csv', LANG)}",
    csv_bytes(frame.drop(columns=["id"]), headers),
    file_name="helpdesk_tickets.csv",
    mime="text/csv",
    key="csv_helpdesk_tickets",
)

chosen_rows = picked.selection.rows if picked and picked.selection else []
if chosen_rows:
    st.session_state[SELECTED] = frame.iloc[chosen_rows[0]]["id"]
numbers = dict(zip(frame["id"], frame["number"]))
current = st.session_state.get(SELECTED)
ticket_id = st.selectbox(
    t("helpdesk.open_ticket", LANG),
    list(numbers),
    index=list(numbers).index(current) if current in numbers else 0,
    format_func=lambda i: f"#{numbers[i]} · {frame.set_index('id').loc[i, 'title']}",
    key="hd_pick",
)
try:
    ticket = staff.ticket_detail(deps, user, ticket_id)
except HelpdeskError as exc:
    st.error(str(exc))
    st.stop()

st.divider()
st.subheader(f"#{ticket['number']} · {ticket['title']}")
st.caption(
    " · ".join(
        [
            code_label("status", ticket["status"], LANG),
            code_label("severity", ticket["severity"], LANG),
            code_label("category", ticket["category"], LANG),
            t(
                "helpdesk.reported_by" if ticket["department"] else "helpdesk.reported_by_no_department",
                LANG,
                name=ticket["reporter"] or "—",
                department=ticket["department"],
                when=format_datetime(ticket["created_at"], LANG),
            ),
            t("helpdesk.affected_count", LANG, count=ticket["affected"]),
        ]
    )
)
if ticket["url"]:
    st.markdown(f"[{t('helpdesk.external_issue', LANG)}]({ticket['url']})")

details, snapshot, linked, history = st.tabs(
    [
        t("helpdesk.tab_description", LANG),
        t("helpdesk.tab_snapshot", LANG),
        t("helpdesk.tab_linked", LANG, count=len(ticket["linked"])),
        t("helpdesk.tab_history", LANG),
    ]
)
with details:  # the draft's section headings read as bold lines, not page-sized titles
    st.markdown(safe_markdown(re.sub(r"^#{1,6}\s*(.+)$", r"**\1**", ticket["description"], flags=re.M)))
    if ticket["drafted_by_agent"]:
        st.caption(t("helpdesk.drafted_by_agent", LANG, tab=t("helpdesk.tab_snapshot", LANG)))
    if ticket["facts"]:
        st.markdown(f"**{t('helpdesk.facts', LANG)}**")
        for fact, value in ticket["facts"].items():
            st.markdown(f"- {code_label('fact', fact, LANG)}: {value}")
    if ticket["steps"]:
        st.markdown(f"**{t('helpdesk.agent_steps', LANG)}**")
        st.markdown(
            "\n".join(
                f"{i}. {code_label('step', s['node'], LANG)} · {code_label('outcome', s['outcome'], LANG)}"
                for i, s in enumerate(ticket["steps"], start=1)
            )
        )
with snapshot:
    if not ticket["snapshot"]:
        st.caption(t("helpdesk.no_snapshot", LANG))
    for turn in ticket["snapshot"]:
        with st.chat_message(turn["role"]):
            st.markdown(safe_markdown(turn["content"]))
with linked:
    if not ticket["linked"]:
        st.caption(t("helpdesk.no_linked", LANG))
    for report in ticket["linked"]:
        with st.expander(f"{report['name']} · {report['department'] or '—'} · {format_datetime(report['at'], LANG)}"):
            for turn in report["snapshot"]:
                st.markdown(f"**{code_label('role', turn['role'], LANG)}:** {safe_markdown(turn['content'])}")
with history:
    if not ticket["history"]:
        st.caption(t("helpdesk.no_history", LANG))
    for event in ticket["history"]:
        what = t(
            f"helpdesk.event_{event['kind']}",
            LANG,
            old=code_label("status", event["old"], LANG),
            new=code_label("status", event["new"], LANG) if event["kind"] == "status" else (event["new"] or "—"),
        )
        seen = t(f"helpdesk.visibility_{event['visibility']}", LANG)
        st.markdown(
            f"- {format_datetime(event['at'], LANG)} · {event['actor'] or '—'} · {what} · _{seen}_"
            + (f"  \n  {event['note']}" if event["note"] else "")
        )

status_col, assign_col = st.columns(2)
with status_col.form("hd_status_form", clear_on_submit=True):
    st.markdown(f"**{t('helpdesk.change_status', LANG)}**")
    new_status = st.selectbox(
        t("helpdesk.new_status", LANG), STATUSES, index=STATUSES.index(ticket["status"]), format_func=label("status")
    )
    status_note = st.text_area(t("helpdesk.status_note", LANG), max_chars=staff.NOTE_MAX_CHARS, height=90)
    if st.form_submit_button(t("helpdesk.save_status", LANG), type="primary"):
        run_write(lambda: staff.change_status(deps, user, ticket_id, new_status, status_note))
with assign_col.form("hd_assign_form"):
    st.markdown(f"**{t('helpdesk.col_assignee', LANG)}**")
    admins = {"": t("helpdesk.nobody", LANG), **{a["id"]: a["name"] for a in staff.assignable_admins(deps, user)}}
    chosen = st.selectbox(
        t("helpdesk.assign_to", LANG),
        list(admins),
        format_func=admins.get,
        index=list(admins).index(ticket["assignee_id"]) if ticket["assignee_id"] in admins else 0,
    )
    if st.form_submit_button(t("helpdesk.save_assignee", LANG)):
        run_write(lambda: staff.assign(deps, user, ticket_id, chosen or None))
with st.form("hd_note_form", clear_on_submit=True):
    st.markdown(f"**{t('helpdesk.add_note', LANG)}**")
    note = st.text_area(t("helpdesk.note", LANG), max_chars=staff.NOTE_MAX_CHARS, height=90)
    for_reporter = st.toggle(t("helpdesk.note_for_reporter", LANG), value=False)
    if st.form_submit_button(t("helpdesk.save_note", LANG)):
        run_write(lambda: staff.add_note(deps, user, ticket_id, note, for_reporter=for_reporter))
