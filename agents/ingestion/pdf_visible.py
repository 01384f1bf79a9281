"""A PDF page's text without what a reader cannot see, as DOCX hidden runs are dropped at parsing.

Invisible text is where attacks hide in PDFs ("white text in a résumé"): a text-showing operator is
dropped when its text is painted in render mode 3 or 7 (no fill, no stroke), fully transparent, at
1.5 pt or less, starting outside the page or outside its clipping path, or white where nothing
non-white (a box or an image) was painted beneath it. Form XObjects (content reused by reference,
which pypdf's extraction follows) are read the same way, in the state where they are drawn.
The content streams are rewritten in memory without those operators before pypdf extracts the text,
so the visible text keeps pypdf's own layout. Clipping paths are taken as their bounding boxes, so
text clipped by a curve but inside its box is kept; an image counts as non-white whatever its pixels.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

TINY_POINTS = 1.5  # as for DOCX runs: at 1.5 pt or less no one reads it
WHITE = 0.95  # a fill this close to white is white
_SHOW = {b"Tj", b"TJ", b"'", b'"'}
_FILLS = {b"f", b"F", b"f*", b"B", b"B*", b"b", b"b*"}
_PAINTS = _FILLS | {b"S", b"s", b"n"}  # every operator that ends a path (and applies a pending clip)
_PATH = {b"m", b"l", b"c", b"v", b"y"}
FORM_DEPTH = 8  # forms drawing forms: deeper nesting is read as pypdf reads it
_IDENTITY = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def _times(m: tuple, n: tuple) -> tuple:
    """The matrix product m × n (PDF's row-vector convention: m applies first)."""
    a, b, c, d, e, f = m
    p, q, r, s, t, u = n
    return (a * p + b * r, a * q + b * s, c * p + d * r, c * q + d * s, e * p + f * r + t, e * q + f * s + u)


def _point(m: tuple, x: float, y: float) -> tuple[float, float]:
    return (m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5])


def _white(values: list) -> bool:
    numbers = [float(v) for v in values if isinstance(v, int | float)]
    if len(numbers) == 4:  # CMYK: no ink
        return all(v <= 1 - WHITE for v in numbers)
    return bool(numbers) and len(numbers) in (1, 3) and all(v >= WHITE for v in numbers)


@dataclass(frozen=True)
class _State:
    ctm: tuple = _IDENTITY
    white: bool = False
    transparent: bool = False
    render_mode: int = 0
    font_size: float = 12.0
    leading: float = 0.0
    clip: tuple | None = None  # the clipping path's bounding box on the page, None: the whole page


def _transparent(resources, name) -> bool:
    try:
        state = resources["/ExtGState"][name]
        return float(state.get("/ca", 1)) == 0
    except (KeyError, TypeError, ValueError):
        return False


def _invisible(state: _State, line: tuple, box: tuple, painted: list) -> bool:
    matrix = _times(line, state.ctm)
    x, y = _point(matrix, 0, 0)
    size = state.font_size * math.sqrt(abs(matrix[0] * matrix[3] - matrix[1] * matrix[2]))
    left, bottom, right, top = box
    outside = not (left - 1 <= x <= right + 1 and bottom - 1 <= y <= top + 1)
    if state.clip is not None:  # a glyph's origin may sit just outside while its body shows
        x0, y0, x1, y1 = state.clip
        outside = outside or not (x0 - size <= x <= x1 + size and y0 - size <= y <= y1 + size)
    on_colour = any(x0 <= x <= x1 and y0 <= y <= y1 for x0, y0, x1, y1 in painted)
    return (
        state.render_mode in (3, 7)
        or state.transparent
        or size <= TINY_POINTS
        or outside
        or (state.white and not on_colour)
    )


def drop_invisible_text(page, reader) -> int:
    """Rewrites ``page``'s content (and its forms') without invisible text; returns how many text operators
    went."""
    from pypdf.generic import NameObject

    box = tuple(float(v) for v in page.cropbox)
    resources = page["/Resources"] if "/Resources" in page else {}
    content, dropped = _walk(page.get_contents(), reader, resources, _State(), box, [], 0)
    if dropped:
        # in memory only, for extract_text: pypdf 7 keeps replace_contents for pages of a writer
        page[NameObject("/Contents")] = content
    return dropped


def _walk(stream, reader, resources, state: _State, box: tuple, painted: list, depth: int):
    """One content stream, from ``state``: the stream without its invisible text operators, and how many."""
    from pypdf.generic import ContentStream

    content = ContentStream(stream, reader)
    stack: list[_State] = []
    kept, dropped = [], 0
    line = _IDENTITY
    path: list[tuple] = []
    for operands, operator in content.operations:
        try:
            if operator == b"Do" and operands:
                dropped += _draw(resources, operands[0], reader, state, box, painted, depth)
            state, line, path = _step(resources, operator, operands, state, stack, line, path, painted)
        except (TypeError, ValueError, IndexError, KeyError, AttributeError):  # malformed: pypdf reads past it too
            pass
        if operator in _SHOW and _invisible(state, line, box, painted):
            dropped += 1
            continue
        kept.append((operands, operator))
    if dropped:
        content.operations = kept
    return content, dropped


def _draw(resources, name, reader, state: _State, box: tuple, painted: list, depth: int) -> int:
    """An XObject drawn: an image is paint beneath later text; a form is read as content in place."""
    xobject = resources["/XObject"][name].get_object()
    if xobject.get("/Subtype") == "/Image":
        corners = [_point(state.ctm, x, y) for x in (0, 1) for y in (0, 1)]
        painted.append((*map(min, zip(*corners)), *map(max, zip(*corners))))
        return 0
    if xobject.get("/Subtype") != "/Form" or depth >= FORM_DEPTH:
        return 0
    matrix = tuple(float(v) for v in (xobject["/Matrix"] if "/Matrix" in xobject else _IDENTITY))
    inner = replace(state, ctm=_times(matrix, state.ctm))
    own = xobject["/Resources"] if "/Resources" in xobject else resources  # a form without its own uses the page's
    content, dropped = _walk(xobject, reader, own, inner, box, painted, depth + 1)
    if dropped:
        xobject.set_data(content.get_data())  # in memory, as for the page
    return dropped


def _step(resources, operator, operands, state, stack, line, path, painted):
    """The graphics and text state after one operator (``stack`` and ``painted`` are updated in place).
    ``path`` is the path under construction: its rectangles and points on the page, and a pending clip."""
    if operator == b"q":
        stack.append(state)
    elif operator == b"Q" and stack:
        state = stack.pop()
    elif operator == b"cm":
        state = replace(state, ctm=_times(tuple(float(v) for v in operands), state.ctm))
    elif operator in (b"rg", b"g", b"k", b"sc", b"scn"):
        state = replace(state, white=_white(operands))
    elif operator == b"gs" and operands:
        state = replace(state, transparent=_transparent(resources, operands[0]))
    elif operator == b"Tr":
        state = replace(state, render_mode=int(operands[0]))
    elif operator == b"Tf":
        state = replace(state, font_size=float(operands[1]))
    elif operator == b"TL":
        state = replace(state, leading=float(operands[0]))
    elif operator == b"BT":
        line = _IDENTITY
    elif operator == b"Tm":
        line = tuple(float(v) for v in operands)
    elif operator in (b"Td", b"TD"):
        if operator == b"TD":
            state = replace(state, leading=-float(operands[1]))
        line = _times((1, 0, 0, 1, float(operands[0]), float(operands[1])), line)
    elif operator in (b"T*", b"'", b'"'):
        line = _times((1, 0, 0, 1, 0, -state.leading), line)
    elif operator == b"re":
        x, y, w, h = (float(v) for v in operands)
        corners = [_point(state.ctm, x, y), _point(state.ctm, x + w, y + h)]
        path = [*path, ("box", (*map(min, zip(*corners)), *map(max, zip(*corners))))]
    elif operator in _PATH:
        numbers = [float(v) for v in operands]
        path = [*path, *(("point", _point(state.ctm, *numbers[i : i + 2])) for i in range(0, len(numbers) - 1, 2))]
    elif operator in (b"W", b"W*"):
        path = [*path, ("clip", None)]
    elif operator in _PAINTS:
        if operator in _FILLS and not state.white:  # a non-white box: white text on it is the readable kind
            painted.extend(shape for kind, shape in path if kind == "box")
        if ("clip", None) in path:
            state = replace(state, clip=_clipped(state.clip, path))
        path = []
    return state, line, path


def _clipped(clip: tuple | None, path: list) -> tuple:
    """The clipping box once ``path`` (by its bounding box) clips it."""
    xs = [v for kind, shape in path if kind != "clip" for v in (shape[0::2] if kind == "box" else shape[:1])]
    ys = [v for kind, shape in path if kind != "clip" for v in (shape[1::2] if kind == "box" else shape[1:])]
    if not xs:
        return clip or (0.0, 0.0, 0.0, 0.0)
    box = (min(xs), min(ys), max(xs), max(ys))
    if clip is None:
        return box
    return (max(box[0], clip[0]), max(box[1], clip[1]), min(box[2], clip[2]), min(box[3], clip[3]))
