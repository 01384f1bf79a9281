"""Audit log (admins): who changed what and when, with the state before and after; filters and CSV.
Below it, right to delete: a preview of a person's chat and helpdesk data, erased only on confirm."""

import pandas as pd
import streamlit as st

from agents.helpdesk import erasure
from agents.helpdesk.turns import HelpdeskError
from agents.i18n import code_label, format_datetime, format_number, t
from agents.insights import operations
from ui.deps import app_deps
from ui.session import require_admin
from ui.tables import csv_bytes, fitted_table

user = require_admin()
deps = app_deps()
LANG = user.language
PREVIEW = "erase_preview"
SHOWN = ["when", "who", "action", "entity", "entity_name", "before", "after"]
# the CSV: the same, and each entry's id and states as recorded, for whoever audits the audit log
EXPORTED = [
    "when",
    "who",
    "action",
    "entity",
    "entity_name",
    "entity_id",
    "before",
    "after",
    "before_json",
    "after_json",
]

st.title(t("ops.audit_title", LANG))
every = operations.audit_entries(deps, user)
by_person, by_action, by_text = st.columns([1, 1, 1])
people = by_person.multiselect(
    t("ops.col_who", LANG),
    sorted({e["who"] for e in every if e["who"]}),
    key="audit_people",
    placeholder=t("helpdesk.choose_options", LANG),
)
actions = by_action.multiselect(
    t("ops.col_action", LANG),
    sorted({e["action"] for e in every}),
    key="audit_actions",
    placeholder=t("helpdesk.choose_options", LANG),
    format_func=lambda code: code_label("audit_action", code, LANG),
)
text = by_text.text_input(t("ops.audit_search", LANG), key="audit_text")
rows = operations.matching_entries(every, actions=actions, people=people, text=text)  # one read per run
if not rows:
    st.info(t("ops.audit_empty", LANG))
else:
    frame = pd.DataFrame(rows)
    headers = {c: t(f"ops.col_{c}", LANG) for c in EXPORTED}
    shown = frame[SHOWN].assign(
        when=frame["when"].map(lambda v: format_datetime(v, LANG)),
        action=frame["action"].map(lambda c: code_label("audit_action", c, LANG)),
        entity=frame["entity"].map(lambda c: code_label("entity", c, LANG)),
    )
    # "After" reads each change as "old → new": the table leaves out the state before and the kind of thing
    # (a picked row and the CSV have them), so the name and the change get the room; a whole ticket note in
    # "After" gives way first, with "…"
    visible = ["when", "who", "action", "entity_name", "after"]
    fitted_table(shown, headers, "audit_rows", LANG, columns=visible, cut_first=("after", "entity_name"))
    # csv_bytes: before/after hold people's text (ticket notes), which must not open as a spreadsheet formula
    st.download_button(
        f"⬇ {t('common.download_csv', LANG)}",
        csv_bytes(frame[EXPORTED], headers),
        file_name="audit_log.csv",
        mime="text/csv",
        key="csv_audit_log",
    )

st.divider()
st.subheader(t("ops.erase_title", LANG))
st.caption(t("ops.erase_caption", LANG))
with st.form("erase_preview_form"):
    email = st.text_input(t("ops.erase_email", LANG))
    if st.form_submit_button(t("ops.erase_preview", LANG)):
        try:
            st.session_state[PREVIEW] = erasure.preview(deps, user, email)
        except HelpdeskError as exc:
            st.session_state.pop(PREVIEW, None)
            st.error(str(exc))
seen = st.session_state.get(PREVIEW)
if seen:
    st.warning(t("ops.erase_will", LANG, name=seen["name"], email=seen["email"]))
    st.markdown(
        "\n".join(f"- {t('ops.erase_count_' + k, LANG)}: {format_number(v, LANG)}" for k, v in seen["counts"].items())
    )
    go, cancel = st.columns(2)
    if go.button(t("ops.erase_confirm", LANG), type="primary", key="erase_confirm"):
        try:
            erasure.erase(deps, user, seen["email"], seen["token"])
            st.session_state.pop(PREVIEW)
            st.success(t("ops.erase_done", LANG, email=seen["email"]))
        except HelpdeskError as exc:
            st.error(str(exc))
    if cancel.button(t("helpdesk.cancel", LANG), key="erase_cancel"):
        st.session_state.pop(PREVIEW)
        st.rerun()
