"""Markdown escapes that mean nothing where they stand, dropped at ingestion: the passage keeps the character, so the
texts made from it (lessons, exercise options, quoted answers) read as the source reads rendered."""

from __future__ import annotations

import re

from core.markup import markdown_html

# A backslash escape of punctuation that means nothing where it stands ("recovered \\- please", "182 \\+ 154 \\= 336",
# "**\\*Note:**"): Markdown shows the character alone, and so does every text made from the passage (a lesson, an
# exercise's option, a quoted answer). "$", ":", "~", "|", "<", ">", "&", brackets, backticks and backslashes keep
# theirs (maths, emoji codes, tables, links, code: read by one renderer or another).
_ESCAPE = re.compile(r"\\([!\"#%'()*+,\-./;=?@^_{}])")


def _unescaped(block: str) -> str:
    """The block with every escape dropped whose character, unescaped, renders the same (CommonMark)."""
    if "\\" not in block:
        return block
    rendered = markdown_html(block)
    whole = _ESCAPE.sub(r"\1", block)
    if markdown_html(whole) == rendered:
        return whole
    for match in reversed(list(_ESCAPE.finditer(block))):  # one at a time, from the end (offsets stay valid)
        candidate = block[: match.start()] + block[match.start() + 1 :]
        if markdown_html(candidate) == rendered:
            block = candidate
    return block


_FENCE = re.compile(r"^\s{0,3}(?:```|~~~)")


def prose_unescaped(text: str) -> str:
    """The text with ``_unescaped`` prose blocks (lines between blank lines, outside fenced code); line for line."""
    out: list[str] = []
    block: list[str] = []
    fenced = False

    def flush() -> None:
        out.extend(_unescaped("\n".join(block)).split("\n") if block else [])
        block.clear()

    for line in text.split("\n"):
        if _FENCE.match(line) or fenced or not line.strip():
            flush()
            fenced = fenced != bool(_FENCE.match(line))
            out.append(line)
        else:
            block.append(line)
    flush()
    return "\n".join(out)
