"""Citation validation (003): every [n] must name a retrieved source; anything else is removed.

``validate`` cleans a finished text; ``CitationStream`` does the same on tokens as they stream, holding
back only a possible half-written marker, so an invented [7] never reaches the screen. Both number
the sources in order of first appearance (the first source the answer cites is [1], whatever its rank
in retrieval), recording the passage numbers in that order in ``order``. ``pinpoint`` points each kept
[n] at the chunk that supports the sentence it ends; ``name_manual_sections`` names a published manual's
section instead when the learner's manual was written from that chunk.
"""

from __future__ import annotations

import re
from dataclasses import replace

from agents.retrieval.chunk_sections import heading_at, support
from agents.retrieval.passages import CITATION_MARKER, Passage
from storage import manuals, sources

_OPEN_TAIL = re.compile(r"(\s*\[[\d,\s]{0,12}|\s+)$")


def validate(text: str, valid: set[int], order: list[int] | None = None) -> tuple[str, list[int], list[int]]:
    """(clean text, cited passage numbers in order of first use, removed numbers).

    With ``order`` (the passage numbers in order of first appearance, filled in here; pass the same
    list for the pieces of one answer), passage ``order[i]`` is shown as [i + 1]."""
    used: list[int] = []
    removed: list[int] = []

    def shown(n: int) -> int:
        if order is None:
            return n
        if n not in order:
            order.append(n)
        return order.index(n) + 1

    def replace(match: re.Match) -> str:
        numbers = [int(n) for n in re.findall(r"\d+", match.group(2))]
        keep = list(dict.fromkeys(n for n in numbers if n in valid))
        removed.extend(n for n in numbers if n not in valid)
        used.extend(n for n in keep if n not in used)
        return match.group(1) + "".join(f"[{shown(n)}]" for n in keep) if keep else ""

    return CITATION_MARKER.sub(replace, text), used, removed


def renumbered(passages: dict[int, Passage], order: list[int]) -> dict[int, Passage]:
    """The passages under their shown numbers (``validate``'s order); uncited ones follow."""
    numbers = list(order) + [number for number in sorted(passages) if number not in order]
    return {shown: passages[number].numbered(shown) for shown, number in enumerate(numbers, 1)}


class CitationStream:
    def __init__(self, valid: set[int]):
        self.valid = valid
        self.removed: list[int] = []
        self.order: list[int] = []
        self._pending = ""

    def _clean(self, text: str) -> str:
        clean, _, removed = validate(text, self.valid, self.order)
        self.removed.extend(removed)
        return clean

    def feed(self, token: str) -> str:
        self._pending += token
        if "[" not in self._pending:  # no marker can start: only the trailing space waits (most tokens)
            ready = self._pending.rstrip()
            self._pending = self._pending[len(ready) :]
            return ready
        tail = _OPEN_TAIL.search(self._pending)
        cut = tail.start() if tail else len(self._pending)
        ready, self._pending = self._pending[:cut], self._pending[cut:]
        return self._clean(ready)

    def flush(self) -> str:
        rest, self._pending = self._pending, ""
        return self._clean(rest)


QUOTE_CHARS = 500  # of a citation's claim carried to the viewer (in its address)
_LINE_END = re.compile(r"\n+")
_CLAIM_END = re.compile(r"(?<=[.!?…:])\s+")
_EMPHASIS = re.compile(r"\*{1,3}|(?<!\w)_{1,3}|_{1,3}(?!\w)")  # Markdown marks cut words ("**A**coger")


def supported_text(response: str) -> dict[int, str]:
    """For each cited [n], the text its markers end (what the source must support): what the line says
    since the previous marker, so the two sentences an answer quotes before one [1] are both its claim."""
    claims: dict[int, list[str]] = {}
    last = 0
    for match in CITATION_MARKER.finditer(response):
        before = response[last : match.start()]
        sentence = _EMPHASIS.sub("", _LINE_END.split(before.strip())[-1]) if before.strip() else ""
        for number in re.findall(r"\d+", match.group(2)):
            claims.setdefault(int(number), []).append(sentence)
        last = match.end()
    return {n: " ".join(parts) for n, parts in claims.items()}


def section_path(heading: str | None, document: str | None) -> str:
    """A heading path without the document's own title (the citation names the document already):
    "Returns and Refunds Policy > 3. Refunds" under that policy reads "3. Refunds"."""
    return " > ".join(
        part.strip()
        for part in (heading or "").split(" > ")
        if part.strip() and part.strip() != (document or "").strip()
    )


def citation_where(citation: dict) -> str:
    """ "Document › section path" for a citation or a lesson source, the document named once (a lesson's
    stored section may still start with it)."""
    document = citation.get("document") or ""
    return " › ".join(p for p in (document, section_path(citation.get("section"), document)) if p)


def pinpoint(conn, org_id, response: str, passages: list[Passage]) -> list[Passage]:
    """The cited passages, each on the chunk that supports its sentence (heading, page, id and text) and
    holding that sentence as its ``quote``.

    A passage may be a chunk expanded with its neighbours (or a whole document): the [n] then points
    at the neighbour the sentence actually comes from, not at the chunk the search happened to hit.
    """
    claims = supported_text(response)
    citations = []
    for passage in passages:
        claim = claims.get(passage.index, "")
        candidates = []
        if passage.source_type == "document_chunk":
            candidates = sources.nearby_chunks(conn, org_id, passage.source_id)
        elif passage.source_type == "document":
            candidates = sources.document_chunks_by_document(conn, org_id, passage.source_id)
        if claim and passage.section and re.search(re.escape(passage.section.split(" > ")[-1]) + "[»”]", claim):
            pass  # the sentence names the section it points to (a hint's "reread the section …"): kept
        elif claim and candidates:
            last = _CLAIM_END.split(claim.strip())[-1]  # the sentence the marker ends decides the chunk
            best = max(
                candidates,
                key=lambda chunk: (
                    support(last, chunk.content),
                    support(claim, chunk.content),
                    str(chunk.id) == passage.source_id,
                ),
            )
            if support(claim, best.content) > 0:
                heading, page = heading_at(best, claim)
                passage = replace(
                    passage,
                    section=section_path(heading, best.document_title),
                    page=page,
                    source_type="document_chunk",
                    source_id=str(best.id),
                    text=best.content,
                )
        citations.append(replace(passage, quote=claim[:QUOTE_CHARS]))
    return citations


def name_manual_sections(conn, org_id, citations: list[Passage], language: str, course_id=None) -> list[Passage]:
    """Citations of chunks a published manual in the answer's language was written from, renamed to that
    manual's section (``source_type: manual``, ``source_id`` the manual, ``anchor`` its section, ``chunk_id``
    the original passage): the learner opens the section they can read in the Manuals page, highlighted.

    The course in view's manual comes first, then the newest; a manual in another language is not cited
    (the original document is, as before)."""
    chunk_ids = [c.source_id for c in citations if c.source_type == "document_chunk" and c.source_id]
    found: dict[str, manuals.ManualSectionSource] = {}
    for section in sorted(
        manuals.sections_from_chunks(conn, org_id, chunk_ids), key=lambda s: str(s.course_id) != str(course_id or "")
    ):  # stable: newest next
        if section.language == language:
            found.setdefault(section.chunk_id, section)
    named = []
    for citation in citations:
        manual_section = found.get(citation.source_id) if citation.source_type == "document_chunk" else None
        if manual_section is None:
            named.append(citation)
            continue
        named.append(
            replace(
                citation,
                document=manual_section.manual_title,
                section=manual_section.heading,
                page=None,
                source_type="manual",
                source_id=str(manual_section.manual_id),
                anchor=manual_section.anchor or str(manual_section.position),
                chunk_id=manual_section.chunk_id,
            )
        )
    return named
