"""A retrieval eval report as the retrieval lab shows it: the headline figures, recall by language pair
and the questions it missed, every header in the reader's language."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from agents.i18n import code_label, t


def language_pair(pair: str, lang: str) -> str:
    """The report's "es->en" as the reader says it: "español → inglés" ("?" stays: a document not found)."""
    return " → ".join(code_label("language", code, lang) for code in pair.split("->"))


def eval_report(report: dict, lang: str) -> None:
    columns = st.columns(5)
    columns[0].metric(t("admin.lab.questions", lang), report["n"])
    columns[1].metric("recall@1", report["recall_at_1"])
    columns[2].metric(f"recall@{report['k']}", report["recall_at_k"])
    columns[3].metric("MRR", report["mrr"])
    columns[4].metric("p95 ms", report["p95_ms"])
    st.dataframe(
        pd.DataFrame([{"pair": language_pair(pair, lang), **figures} for pair, figures in report["by_pair"].items()]),
        hide_index=True,
        column_config={"pair": t("admin.lab.col_pair", lang), "n": t("admin.lab.questions", lang)},
    )
    st.subheader(t("admin.lab.misses", lang, n=len(report["misses"])))
    if report["misses"]:
        st.dataframe(
            pd.DataFrame(report["misses"]),
            hide_index=True,
            column_config={
                "question": t("admin.lab.question", lang),
                "expected": t("admin.lab.col_expected", lang),
                "got": t("admin.lab.col_got", lang),
            },
        )
