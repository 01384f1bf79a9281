"""Sentences of a document's text: es/en-aware splitting, table rows read as statements, and which
sentences can be an answer (not headings, footers, title blocks or source lines)."""

from __future__ import annotations

import re
from collections.abc import Iterator

WORD = re.compile(r"[^\W\d_]+", re.UNICODE)  # letters only: a word of a sentence, not its figures

_ABBREVIATIONS = {
    "sr",
    "sra",
    "srta",
    "dr",
    "dra",
    "ud",
    "uds",
    "etc",
    "ej",
    "p",
    "pág",
    "págs",
    "núm",
    "art",
    "arts",
    "aprox",
    "cap",
    "dto",
    "tel",
    "vs",
    "mr",
    "mrs",
    "ms",
    "prof",
    "st",
    "no",
    "nº",
    "fig",
    "approx",
    "inc",
    "ltd",
    "co",
    "corp",
    "dept",
    "e.g",
    "i.e",
    "cf",
    "al",
    "vol",
    "ed",
    "jr",
    "sa",
    "s.a",
    "av",
}
_LIST_MARKER = re.compile(r"^\s*(?:[-*•·‣▪]|\(?\d{1,3}[.)]|\(?[a-zA-Z][.)])\s+")
_HEADING = re.compile(r"^\s*#{1,6}\s+")
# a bullet inside a line: a PDF's list reaches the text as one line ("…son obligatorios: • Calzado… • Chaleco…")
_INLINE_BULLET = re.compile(r"(?<=\S)[ \t]+(?=•\s)")
_BOUNDARY = re.compile(r"(?<=[.!?…])[\"'”’»)\]]*\s+(?=[¿¡\"'“‘«(\[]?[A-ZÁÉÍÓÚÑÜÀÈÌÒÙÂÊÎÔÛÇĐ0-9])")


def _blocks(text: str) -> Iterator[str]:
    """Paragraphs, list items, headings and table rows as separate blocks; wrapped lines joined back.

    A Markdown table row becomes one statement that names its columns ("País: España, Máximo: 120 EUR.").
    """
    current: list[str] = []
    header: list[str] | None = None
    for line in _items_on_lines(text).splitlines():
        is_row = line.strip().startswith("|")
        if not line.strip() or is_row or _LIST_MARKER.match(line) or _HEADING.match(line):
            if current:
                yield " ".join(current)
            current = []
        if not is_row:
            header = None
        if is_row:
            cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
            if not any(cell.strip("-: ") for cell in cells):
                continue  # the |---| rule under the header
            if header is None:
                header = cells
            elif len(header) == len(cells):
                yield ", ".join(f"{name}: {cell}" if name else cell for name, cell in zip(header, cells)) + "."
            else:
                yield ", ".join(cells) + "."
        elif _HEADING.match(line):  # a heading never runs into the next line
            yield _HEADING.sub("", line).strip()
        elif line.strip():
            current.append(_LIST_MARKER.sub("", line).strip())
    if current:
        yield " ".join(current)


def _items_on_lines(text: str) -> str:
    """``text`` with each bullet inside a line starting a line of its own, as a list item does, and a bullet list's
    end marked by a blank line (_item_end)."""
    lines = []
    for line in text.splitlines():
        pieces = _INLINE_BULLET.split(line)
        items = [k for k, piece in enumerate(pieces) if piece.startswith("•")]
        if items:
            others = [len(_BOUNDARY.split(pieces[k])) for k in items[:-1]]
            pieces[items[-1]] = _item_end(pieces[items[-1]], min(others, default=1) if len(pieces) > 1 else 0)
        lines.extend(pieces)
    return "\n".join(lines)


def _item_end(item: str, most: int) -> str:
    """A PDF's bullet item with a blank line where it ends: the PDF's text runs its last item into the paragraph
    after the list and the page footer ("• Guantes … cuchillas. Además, según la tarea, se exige casco…",
    "…authority. All employees must… Acme Retail · POL-SEC-001 · Page 1/8"). The item ends before a footer, and the
    last item of a list inside a line after ``most`` sentences, as many as its shortest other item has (the
    traffic-light list's "Rojo: daño grave. El módulo se descarga…" keeps its two, as "Verde" and "Ámbar" have);
    0: a bullet that starts its line (a list that went on from the page before) ends at a footer only."""
    sentences = _BOUNDARY.split(item)
    footer = next((k for k, sentence in enumerate(sentences) if _TITLE_BLOCK.search(sentence)), len(sentences))
    end = min(footer, most or footer)
    if end >= len(sentences):
        return item
    return " ".join(sentences[:end]) + "\n\n" + " ".join(sentences[end:])


def split_sentences(text: str) -> list[str]:
    """Sentences in order; aware of es/en abbreviations, decimals, initials and list items."""
    sentences: list[str] = []
    for block in _blocks(text or ""):
        pieces = _BOUNDARY.split(re.sub(r"\s+", " ", block))
        merged: list[str] = []
        for piece in pieces:
            previous = merged[-1] if merged else ""
            last_word = previous.rstrip(".").rsplit(" ", 1)[-1].lower().lstrip("(¿¡\"'")
            if (
                merged
                and previous.endswith(".")
                and (last_word in _ABBREVIATIONS or len(last_word) == 1 and last_word.isalpha())
            ):
                merged[-1] = f"{previous} {piece}"
            else:
                merged.append(piece)
        sentences.extend(sentence.strip() for sentence in merged if sentence.strip())
    return sentences


_STATEMENT_WORDS = 6  # an unpunctuated line with fewer words is a heading or a page footer, not an answer


_TITLE_BLOCK = re.compile(r"·.*·")  # "Document code: HR-ONB-001 · Version 2.0 · Owner: People & Culture · …"
# a line in italics, whichever sentence of it: "*Source: Contributor Covenant 2.1. Licence CC BY 4.0.*"
_SOURCE_LINE = re.compile(r"^\s*\*[^*\s]|[^*\s]\*\s*$")


def answer_candidates(passages: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """(number, sentence) in document order, statements only: headings, page footers
    ("Acme Retail · POL-SEC-001 · Page 3/8"), a document's title block and its source line are not answers."""

    def statement(sentence: str) -> bool:
        if _TITLE_BLOCK.search(sentence) or _SOURCE_LINE.search(sentence):
            return False
        if sentence[-1:] in ".!?;":
            return len(sentence.split()) >= 3
        return len(sentence) >= 25 and len(WORD.findall(sentence)) >= _STATEMENT_WORDS

    return [
        (number, sentence) for number, text in passages for sentence in split_sentences(text) if statement(sentence)
    ]


def _lists(text: str) -> list[tuple[str, list[str]]]:
    """Each list of ``text``: (the paragraph before it, its items as written, a wrapped item's lines joined)."""
    lists: list[tuple[str, list[str]]] = []
    paragraph, in_item, wrapped = "", False, False
    items: list[str] | None = None
    for line in _items_on_lines(text).splitlines():
        if _LIST_MARKER.match(line):
            if items is None:
                items = []
                lists.append((paragraph, items))
            items.append(line.strip())
            in_item, wrapped = True, False
        elif not line.strip():
            in_item, wrapped = False, False
        elif in_item and items:
            items[-1] += " " + line.strip()
        else:  # a paragraph's line (a wrapped one goes on)
            paragraph, items = (f"{paragraph} {line.strip()}" if wrapped else line.strip()), None
            wrapped = True
    return [(_lead_in(before), listed) for before, listed in lists]


def _lead_in(paragraph: str) -> str:
    """The paragraph's last sentence when it ends with ":" and so introduces the list after it; else ""."""
    return re.split(r"(?<=[.!?])\s+", paragraph)[-1] if paragraph.endswith(":") else ""


def enclosing_list(sentence: str, text: str) -> tuple[str, list[str]]:
    """(the lead-in sentence that introduces it, or "", its items as written, a wrapped item's lines joined) of
    the list ``sentence`` is an item of in ``text`` (items may be a blank line apart); ("", []) when it is no item.
    "…seguimos el método ACRE:" and the four steps."""
    return next(
        ((lead_in, listed) for lead_in, listed in _lists(text) if any(sentence[:30] in item for item in listed)),
        ("", []),
    )


def item_lead_ins(text: str) -> dict[str, str]:
    """The first sentence of each item of a list introduced by a lead-in, with that lead-in: "A minimum length of
    14 characters." -> "The Password Standard POL-SEC-004 requires:" (what the item is, said once before it)."""
    return {
        first: lead_in
        for lead_in, listed in _lists(text)
        if lead_in
        for item in listed
        for first in split_sentences(item)[:1]
    }


def without_list_marker(item: str) -> str:
    return _LIST_MARKER.sub("", item).strip()
