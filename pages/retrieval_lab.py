"""Retrieval lab (admins): try a query under each strategy and scope; score an eval file."""

import pandas as pd
import streamlit as st

from agents.i18n import code_label, format_number, t
from agents.ingestion import uploads as ingestion
from agents.retrieval import lab
from core.markup import safe_markdown
from ui.deps import app_deps
from ui.eval_report import eval_report
from ui.ingestion_progress import ingestion_progress
from ui.session import require_admin
from ui.tables import table_with_csv
from ui.uploads import file_uploader

user = require_admin()
deps = app_deps()
lang = user.language
STRATEGIES = {
    code: t(f"admin.lab.strategy_{code.replace('-', '_')}", lang)
    for code in ("hybrid", "vector", "fulltext", "course-tree")
}

st.title(t("admin.lab.title", lang))
courses, documents = lab.scope_options(deps, user)
search_tab, eval_tab, flagged_tab, documents_tab = st.tabs(
    [
        t("admin.lab.tab_query", lang),
        t("admin.lab.tab_eval", lang),
        t("safety.flagged_heading", lang),
        t("ingestion.tab", lang),
    ]
)

with search_tab:
    with st.form("lab_query"):
        query = st.text_input(t("admin.lab.question", lang), key="lab_q")
        left, middle, right = st.columns([2, 3, 1])
        strategy = left.selectbox(
            t("admin.lab.strategy", lang), list(STRATEGIES), format_func=STRATEGIES.get, key="lab_strategy"
        )
        course = middle.selectbox(
            t("admin.lab.course_optional", lang),
            list(courses),
            index=None,
            key="lab_course",
            placeholder=t("admin.lab.any_course", lang),
        )
        k = right.number_input("k", min_value=1, max_value=50, value=8, key="lab_k")
        picked = st.multiselect(
            t("admin.lab.documents_optional", lang),
            list(documents),
            key="lab_docs",
            placeholder=t("admin.lab.any_document", lang),
        )
        submitted = st.form_submit_button(t("admin.lab.search", lang), type="primary")
    if submitted:
        result = lab.run_query(
            deps,
            user,
            query,
            strategy=strategy,
            k=int(k),
            course_id=courses.get(course),
            document_ids=[documents[title] for title in picked],
        )
        if result.error:
            st.error(result.error)
        else:
            st.caption(
                t("admin.lab.results", lang, n=len(result.rows), ms=format_number(result.latency_ms, lang, decimals=1))
            )
            if not result.rows:
                st.info(t("admin.lab.no_results", lang))
            for row in result.rows:
                page = f" · p. {row.page}" if row.page else ""
                with st.expander(
                    f"{row.rank}. [{format_number(row.score, lang, decimals=3)}] {row.document}{page} — {row.section}",
                    expanded=row.rank <= 3,
                ):
                    st.caption(
                        " · ".join(
                            f"{name} {format_number(value, lang, decimals=4)}" for name, value in row.scores.items()
                        )
                    )
                    st.markdown(safe_markdown(row.snippet_md))

with eval_tab:
    st.caption(t("admin.lab.eval_format", lang, title=t("admin.lab.document_title", lang)))
    upload = file_uploader(t("admin.lab.eval_file", lang), lang, type=["jsonl", "json"], key="lab_eval_file")
    eval_k = st.number_input("k", min_value=1, max_value=20, value=5, key="lab_eval_k")
    eval_strategy = st.selectbox(
        t("admin.lab.strategy", lang),
        ["hybrid", "vector", "fulltext"],
        format_func=STRATEGIES.get,
        key="lab_eval_strategy",
    )
    if upload is not None and st.button(t("admin.lab.evaluate", lang), key="lab_eval_run", type="primary"):
        report = lab.run_eval(deps, user, upload.getvalue(), k=int(eval_k), strategy=eval_strategy)
        if "error" in report:
            st.error(report["error"])
        else:
            eval_report(report, lang)

with flagged_tab:
    st.caption(t("safety.flagged_caption", user.language))
    flagged = lab.flagged_by_document(deps, user)
    if not flagged:
        st.info(t("safety.flagged_none", user.language))
    for title, passages in flagged.items():
        with st.expander(f"{safe_markdown(title)} · {len(passages)}"):
            for passage in passages:
                where = " · ".join(
                    part for part in (passage.heading, f"p. {passage.page}" if passage.page else "") if part
                )
                st.markdown(
                    f"**{code_label('attack', passage.family, user.language)}**" + (f" · {where}" if where else "")
                )
                st.code(passage.text, language=None, wrap_lines=True)

with documents_tab:
    files = file_uploader(
        t("ingestion.upload", lang),
        lang,
        accept_multiple_files=True,
        key="lab_uploads",
        type=["pdf", "docx", "md", "txt", "html"],
        max_upload_size=ingestion.max_upload_mb(),
    )
    if files and st.button(t("ingestion.start", lang), key="lab_ingest", type="primary"):
        try:
            queued = ingestion.queue_uploads(user, [(f.name, f.getvalue()) for f in files])
        except ingestion.UploadRefused as exc:
            st.error(str(exc))
        else:
            st.toast(t("ingestion.queued_toast", lang, count=len(queued)))
    searchable = lab.searchable_documents(deps, user)  # drawn again when an upload finishes (the panel below)
    st.markdown(f"**{t('admin.lab.documents_heading', lang, n=len(searchable))}**")
    table_with_csv(
        pd.DataFrame(searchable), "documents", key="lab_documents_csv", empty=t("admin.lab.no_documents", lang)
    )
    ingestion_progress(user)  # last on the page (ui/live.py)
