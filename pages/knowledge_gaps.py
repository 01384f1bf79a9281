"""Knowledge gaps: what employees ask that no document answers; draft a lesson or note a missing document."""

import pandas as pd
import streamlit as st

from agents.content import gap_lessons
from agents.i18n import code_label, format_datetime, format_number, t
from agents.insights import gaps
from ui.deps import app_deps
from ui.session import require_admin
from ui.tables import table_with_csv

user = require_admin()
deps = app_deps()
lang = user.language
PERIODS = (7, 30, 90)

st.title(t("insights.gaps.title", lang))
st.caption(t("insights.gaps.caption", lang))
st.info(t("insights.gaps.privacy", lang, n=gaps.MIN_ASKERS))
days = st.selectbox(
    t("insights.gaps.days", lang),
    PERIODS,
    index=1,
    key="gaps_days",
    format_func=lambda n: t("insights.gaps.days_option", lang, n=n),
)


@st.cache_data(ttl=60, show_spinner=False)
def clusters_for(org_id: str, period: int, reader_lang: str, _deps, _admin) -> list[gaps.GapCluster]:
    """Cached per organisation, period and language (Streamlit does not hash the arguments named with "_")."""
    return gaps.find_gaps(_deps, _admin, days=period)


clusters = clusters_for(str(user.org_id), days, lang, deps, user)
if not clusters:
    st.success(t("insights.gaps.none", lang))
for cluster in clusters:
    with st.container(border=True):
        st.subheader(cluster.topic or t("insights.gaps.small_group", lang, n=cluster.questions))
        row = st.columns(2)
        row[0].metric(t("insights.gaps.questions", lang), cluster.questions)
        row[1].metric(t("insights.gaps.askers", lang), cluster.askers)
        # a line, not a metric: a metric cuts "English 2 · Spanish 2" to "English 2 · Spani…"
        st.markdown(
            f"**{t('insights.gaps.languages', lang)}:** "
            + " · ".join(f"{code_label('language', code, lang)} {n}" for code, n in cluster.languages.items())
        )
        if not cluster.visible:
            st.caption(t("insights.gaps.hidden", lang, n=gaps.MIN_ASKERS))
            continue
        st.markdown(
            f"**{t('insights.gaps.departments', lang)}:** "
            + " · ".join(f"{name} ({n})" for name, n in cluster.departments.items())
        )
        st.markdown(f"**{t('insights.gaps.examples', lang)}**\n" + "\n".join(f"- {q}" for q in cluster.examples))
        st.markdown(
            f"**{t('insights.gaps.closest', lang)}:** "
            + " · ".join(
                t(
                    "insights.gaps.similarity",
                    lang,
                    title=d["title"],
                    value=format_number(d["similarity"], lang, decimals=2),
                )
                for d in cluster.documents
            )
        )
        draft_col, note_col = st.columns(2)
        if draft_col.button(
            t("insights.gaps.draft", lang),
            key=f"draft_{cluster.key}",
            type="primary",
            help=t("insights.gaps.draft_help", lang),
        ):
            try:
                gap_lessons.draft_lesson(deps, user, cluster)
            except (gaps.GapActionError, ValueError) as exc:
                st.error(str(exc).splitlines()[0])
            else:
                st.success(t("insights.gaps.draft_started", lang))
        with note_col.popover(t("insights.gaps.missing", lang)):
            note = st.text_area(t("insights.gaps.missing_note", lang), key=f"note_{cluster.key}", max_chars=1000)
            if st.button(t("insights.gaps.missing", lang), key=f"missing_{cluster.key}"):
                gaps.note_missing_document(deps, user, cluster, note)
                st.success(t("insights.gaps.missing_saved", lang))

st.subheader(t("insights.gaps.notes", lang))
notes = gaps.missing_document_notes(deps, user)
table_with_csv(
    pd.DataFrame(
        [
            {
                t("insights.gaps.col_topic", lang): n.topic,
                t("insights.gaps.questions", lang): n.questions,
                t("insights.gaps.col_note", lang): n.note,
                t("insights.gaps.col_by", lang): n.created_by,
                t("insights.gaps.col_when", lang): format_datetime(n.created_at, lang),
            }
            for n in notes
        ]
    ),
    "missing_documents",
    empty=t("insights.gaps.no_notes", lang),
)
