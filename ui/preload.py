"""The code of the elements the home pages show, fetched by the browser while the sign-in form is on screen.

Streamlit's browser app loads an element's code the first time a page shows that element (a metric, a progress
bar, a table) and draws a grey skeleton until it has arrived: after a first sign-in on a busy server the homes
stayed grey for 1-4 s, while each element's code and then the code it needs came one after another. The
sign-in page imports them meanwhile; the browser keeps them for the pages that follow."""

from __future__ import annotations

import json
from pathlib import Path

import streamlit as st

# the homes' elements, by the name of their code's file in Streamlit's build (static/js/<Name>.<hash>.js)
HOME_ELEMENTS = ("Metric", "Progress", "ProgressBar", "DataFrame", "PageLink", "DownloadButton")
_BUILD = Path(st.__file__).parent / "static"


def home_element_code() -> list[str]:
    """The paths of those files in the installed Streamlit (none if a new build names them otherwise)."""
    return sorted(
        path.relative_to(_BUILD).as_posix()
        for name in HOME_ELEMENTS
        for path in (_BUILD / "static" / "js").glob(f"{name}.*.js")
    )


def preload_home_elements() -> None:
    base = str(st.get_option("server.baseUrlPath") or "").strip("/")
    addresses = [f"/{base}/{path}" if base else f"/{path}" for path in home_element_code()]
    if addresses:  # a failed fetch only means the home loads that code itself, as before
        st.html(
            f"<script>{json.dumps(addresses)}.forEach((a) => import(a).catch(() => {{}}));</script>",
            unsafe_allow_javascript=True,
        )
