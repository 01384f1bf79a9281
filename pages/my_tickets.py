"""My tickets (everyone): the tickets you reported or linked your report to, their status, the last
change and the notes staff wrote for you."""

import re

import streamlit as st

from agents.helpdesk import following
from agents.i18n import code_label, format_datetime, t
from core.markup import safe_markdown
from ui.deps import app_deps
from ui.links import page_link
from ui.session import require_user

user = require_user()
deps = app_deps()
LANG = user.language

st.title(t("helpdesk.my_tickets_title", LANG))
notes = following.notifications(deps, user)
for note in notes:
    st.info(f"🔔 {note['text']} · {format_datetime(note['at'], LANG)}")
if notes and st.button(t("helpdesk.mark_read", LANG), key="hd_mark_read"):
    following.mark_notifications_read(deps, user)
    st.rerun()

mine = following.my_tickets(deps, user)
if not mine:
    st.info(t("helpdesk.my_tickets_empty", LANG))
    page_link("pages/helpdesk.py", t("helpdesk.ask_for_help", LANG), "🛟", {})
    st.stop()

opened = st.query_params.get("ticket")  # a notification or a link names the ticket it is about
for ticket in mine:
    with st.container(border=True):
        with st.expander(
            f"#{ticket['number']} · {safe_markdown(ticket['title'])}", expanded=opened == str(ticket["number"])
        ):
            st.markdown(safe_markdown(re.sub(r"^#{1,6}\s*(.+)$", r"**\1**", ticket["description"], flags=re.MULTILINE)))
        how = t("helpdesk.reported_by_me" if ticket["reported_by_me"] else "helpdesk.linked_by_me", LANG)
        st.caption(
            " · ".join(
                [
                    f"**{code_label('status', ticket['status'], LANG)}**",
                    t("helpdesk.last_change", LANG, when=format_datetime(ticket["last_change_at"], LANG)),
                    how,
                    t("helpdesk.affected_count", LANG, count=ticket["affected"]),
                ]
            )
        )
        for note in ticket["notes"]:
            status = f" → {code_label('status', note['status'], LANG)}" if note["status"] else ""
            st.markdown(
                f"- {format_datetime(note['at'], LANG)}{status}" + (f": {note['note']}" if note["note"] else "")
            )
