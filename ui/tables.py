"""A table every page can show the same way: a dataframe with its CSV download beside it."""
from __future__ import annotations

import pandas as pd
import streamlit as st


def table_with_csv(frame: pd.DataFrame, name: str, *, key: str | None = None, height: int | None = None,
                   empty: str = "Nothing to show. / Nada que mostrar.") -> None:
    """Render ``frame`` and a "Download CSV" button (file ``<name>.csv``); a note when it's empty."""
    if frame is None or frame.empty:
        st.caption(empty)
        return
    st.dataframe(frame, hide_index=True, **({"height": height} if height else {}))
    st.download_button("⬇ CSV", frame.to_csv(index=False).encode("utf-8"), file_name=f"{name}.csv",
                       mime="text/csv", key=key or f"csv_{name}")
