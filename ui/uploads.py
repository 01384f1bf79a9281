"""File uploaders whose own words read in the page's language.

Streamlit's uploader (1.67) writes "Upload", "50MB per file • PDF, DOCX" and, while a file is dragged
over it, "Drag and drop files here" in English, and has no locale setting. Those three spots are
marked in its markup (the button's label and the instructions by data-testid, the drag message as
the drop zone's one plain div), so a style sheet scoped to this uploader's key hides Streamlit's
text (font-size 0) and shows the catalogue's in its place (::after). Picking, dropping and the size
check stay Streamlit's own.

What Streamlit refuses in the browser it explains in English only: "… files are not allowed." and "File
is too large…" are literals in its FileUploader bundle, shown in a hover tooltip it draws in a layer outside
the uploader that no style of ours can tell apart. So the file types are checked here, not by Streamlit:
the widget takes any file, and one a page does not accept is left out with one line in the reader's
language. The size stays Streamlit's check, made before the bytes leave the browser (checking it here would
hold files up to the server-wide limit in memory first): its refused chip gets the catalogue's reason beside
the file's name, and only its tooltip stays English. tests/test_i18n_uploads_browser.py fails if an upgrade
moves them.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import PurePath

import streamlit as st
from streamlit.runtime.uploaded_file_manager import UploadedFile

from agents.i18n import format_number, t
from core.markup import safe_markdown

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
    return {
        "button": t("uploads.button", lang),
        "limit": limit,
        "drag": t("uploads.drag_many" if multiple else "uploads.drag_one", lang),
        "refused": t("uploads.rejected_size", lang, size=size),
    }  # the one refusal left to Streamlit


def uploader_css(key: str, texts: dict[str, str]) -> str:
    rules = []
    for spot, selector in _SPOTS.items():
        scoped = f".st-key-{key} {selector}"
        rules.append(f"{scoped} {{font-size: 0}}")
        rules.append(f"{scoped}::after {{content: {_css_string(texts[spot])}; font-size: 0.875rem}}")
    rules.append(f".st-key-{key} {_REFUSED}::after {{content: {_css_string(' · ' + texts['refused'])}}}")
    return "<style>\n" + "\n".join(rules) + "\n</style>"


def file_uploader(
    label: str,
    lang: str,
    *,
    key: str,
    max_upload_size: int | None = None,
    type: Sequence[str] | None = None,
    accept_multiple_files: bool = False,
    **kwargs,
):
    """``st.file_uploader`` with its button, size limit and drag message in ``lang``; a file whose type is not
    in ``type`` is left out, with one line in ``lang`` saying why."""
    max_mb = max_upload_size or st.get_option("server.maxUploadSize")
    st.html(uploader_css(key, uploader_texts(lang, max_mb, type, accept_multiple_files)))
    picked = st.file_uploader(
        label, key=key, max_upload_size=max_upload_size, accept_multiple_files=accept_multiple_files, **kwargs
    )
    if not type or not picked:
        return picked
    files: list[UploadedFile] = picked if isinstance(picked, list) else [picked]
    kept = []
    allowed = {"." + kind.lower().lstrip(".") for kind in type}
    for file in files:
        if PurePath(file.name).suffix.lower() in allowed:
            kept.append(file)
        else:
            st.error(
                t(
                    "uploads.refused_type",
                    lang,
                    name=safe_markdown(file.name),
                    types=", ".join(kind.upper() for kind in type),
                )
            )
    return kept if accept_multiple_files else (kept[0] if kept else None)
