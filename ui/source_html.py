"""The source viewer as HTML (shared by the Streamlit source page and the tutor chat's panel): the
document in reading order, the cited passage marked and in view at the top of the box.

No script: the document's text is untrusted, and the viewer runs none. What comes before the cited
passage is folded (a ``<details>`` the reader opens), so the passage shows first with no scrolling.
"""

from __future__ import annotations

import html

from agents.i18n import t
from agents.tutor.sources import SourceView
from core.markup import markdown_html

CSS = """
.sv-doc {max-height:560px;overflow-y:auto;border:1px solid #e2e8f0;border-radius:8px;padding:8px 14px;
         background:#fff;color:#0f172a;font-size:0.92em;line-height:1.45}
.sv-block {margin:8px 0;padding:6px 8px;border-radius:6px}
.sv-block p, .sv-block ul, .sv-block ol, .sv-block table {margin:4px 0}
.sv-block h1, .sv-block h2, .sv-block h3, .sv-block h4 {font-size:1em;margin:6px 0 2px}
.sv-block td, .sv-block th {border:1px solid #e2e8f0;padding:2px 6px}
.sv-block.cited {background:#fef9c3;border-left:4px solid #2563eb}
.sv-block.cited.sv-sentences {background:none}
.sv-block mark.sv-quote {background:#fde047;color:inherit;padding:0 2px;border-radius:3px}
.sv-where {font-size:0.8em;color:#475569;margin-bottom:2px}
.sv-earlier > summary {cursor:pointer;color:#475569;font-size:0.85em;margin:6px 0}
"""


def source_summary(view: SourceView, lang: str) -> str:
    """One line: the document, the cited section and its page."""
    parts = [view.title]
    if view.heading:
        parts.append(view.heading)
    line = " › ".join(parts)
    if view.page:
        line += " · " + t("tutor.source.page", lang, page=view.page, pages=view.page_count)
    return line


# Private-use characters stand for the marks around a cited sentence while the Markdown is rendered and
# cleaned, then become <mark>: the marks are ours, added after nh3, never the document's own HTML.
_OPEN, _CLOSE = "\ue000", "\ue001"


def passage_html(text: str, marks: tuple[tuple[int, int], ...] = ()) -> str:
    """A passage's Markdown as safe HTML (its formatting drawn, nothing that runs or reaches outside),
    the sentences at ``marks`` (offsets in ``text``) marked."""
    text = text.replace(_OPEN, "").replace(_CLOSE, "") if marks else text
    for start, end in sorted(marks, reverse=True):
        text = text[:start] + _OPEN + text[start:end] + _CLOSE + text[end:]
    cleaned = markdown_html(text.strip())  # passages are Markdown (headings, bold, lists, tables)
    return cleaned.replace(_OPEN, '<mark class="sv-quote">').replace(_CLOSE, "</mark>")


# Fold what precedes the cited passage from this many passages on (one or two read as context).
FOLD_FROM = 2


def source_html(view: SourceView, lang: str) -> str:
    blocks: list[str] = []
    for block in view.blocks:
        where = " · ".join(
            part
            for part in (
                html.escape(block.heading) if block.heading else "",
                t("tutor.source.page_short", lang, page=block.page) if block.page else "",
            )
            if part
        )
        label = f'<div class="sv-where">{where}</div>' if where else ""
        css = "sv-block cited" + (" sv-sentences" if block.marks else "") if block.cited else "sv-block"
        ident = ' id="sv-cited"' if block.cited and 'id="sv-cited"' not in "".join(blocks) else ""
        body = passage_html(block.text, block.marks if block.cited else ())
        blocks.append(f'<div class="{css}"{ident} data-anchor="{block.anchor}">{label}{body}</div>')
    first_cited = next((i for i, block in enumerate(view.blocks) if block.cited), 0)
    if first_cited >= FOLD_FROM:
        summary = html.escape(t("tutor.source.earlier", lang, count=first_cited))
        earlier = "".join(blocks[:first_cited])
        blocks[:first_cited] = [f'<details class="sv-earlier"><summary>{summary}</summary>{earlier}</details>']
    return f'<style>{CSS}</style><div class="sv-doc">{"".join(blocks)}</div>'
