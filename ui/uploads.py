"""File uploaders whose own words read in the page's language.

Streamlit's uploader (1.67) writes "Upload", "50MB per file • PDF, DOCX" and, while a file is dragged
over it, "Drag and drop files here" in English, and has no locale setting. Those three spots are
marked in its markup (the button's label and the instructions by data-testid, the drag message as
the drop zone's one plain div), so a style sheet scoped to this uploader's key hides Streamlit's
text (font-size 0) and shows the catalogue's in its place (::after). Picking, dropping and the size
check stay Streamlit's own. A file Streamlit refuses in the browser (type, size) is a chip marked
aria-invalid: the catalogue's reason is written beside its name; Streamlit's English one stays only in
the hover tooltip, which it draws in a layer outside the uploader that no style of ours can tell apart.
tests/test_i18n_uploads_browser.py fails if an upgrade moves them.
"""
from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from agents.i18n import format_number, t

_ZONE = "[data-testid=stFileUploaderDropzone]"
_SPOTS = {  # where Streamlit writes each text, under one uploader's element
    "button": f"{_ZONE} [data-testid=stBaseButton-secondary] [data-testid=stMarkdownContainer] p",
    "limit": f"{_ZONE} [data-testid=stFileUploaderDropzoneInstructions] span",
    "drag": f"{_ZONE} > div:not([data-testid]) > span",
}
_REFUSED = "[data-testid=stFileChip][aria-invalid=true] [data-testid=stFileChipName]"


def _css_string(text: str) -> str:
    """``text`` as a CSS string literal: quotes, backslashes, line breaks and "<" (no "</style>") escaped."""
    return '"' + "".join(f"\\{ord(ch):x} " if ch in '"\\\n<' else ch for ch in text) + '"'


def uploader_texts(lang: str, max_mb: int, types: Sequence[str] | None, multiple: bool) -> dict[str, str]:
    size, kinds = format_number(max_mb, lang), ", ".join(kind.upper() for kind in types or ())
    limit = t("uploads.limit", lang, size=size) + (f" · {kinds}" if kinds else "")
    refused = (t("uploads.rejected_types", lang, types=kinds, size=size) if kinds
               else t("uploads.rejected_size", lang, size=size))
    return {"button": t("uploads.button", lang), "limit": limit,
            "drag": t("uploads.drag_many" if multiple else "uploads.drag_one", lang), "refused": refused}


def uploader_css(key: str, texts: dict[str, str]) -> str:
    rules = []
    for spot, selector in _SPOTS.items():
        scoped = f".st-key-{key} {selector}"
        rules.append(f"{scoped} {{font-size: 0}}")
        rules.append(f"{scoped}::after {{content: {_css_string(texts[spot])}; font-size: 0.875rem}}")
    rules.append(f".st-key-{key} {_REFUSED}::after {{content: {_css_string(' · ' + texts['refused'])}}}")
    return "<style>\n" + "\n".join(rules) + "\n</style>"


def file_uploader(label: str, lang: str, *, key: str, max_upload_size: int | None = None,
                  type: Sequence[str] | None = None, accept_multiple_files: bool = False, **kwargs):
    """``st.file_uploader`` with its button, size limit and drag message in ``lang``."""
    max_mb = max_upload_size or st.get_option("server.maxUploadSize")
    st.html(uploader_css(key, uploader_texts(lang, max_mb, type, accept_multiple_files)))
    return st.file_uploader(label, key=key, type=type, max_upload_size=max_upload_size,
                            accept_multiple_files=accept_multiple_files, **kwargs)
