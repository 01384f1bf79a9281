"""A PDF page's text without what a reader cannot see, as DOCX hidden runs are dropped at parsing.

Invisible text is where attacks hide in PDFs ("white text in a résumé"): a text-showing operator is
dropped when its text is painted in render mode 3 or 7 (no fill, no stroke), fully transparent, at
1.5 pt or less, starting outside the page, or white where nothing non-white was painted beneath it.
The page's content stream is rewritten without those operators before pypdf extracts the text, so the
visible text keeps pypdf's own layout. Text inside form XObjects is left as pypdf reads it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

TINY_POINTS = 1.5  # as for DOCX runs: at 1.5 pt or less no one reads it
WHITE = 0.95  # a fill this close to white is white
_SHOW = {b"Tj", b"TJ", b"'", b'"'}
_FILLS = {b"f", b"F", b"f*", b"B", b"B*", b"b", b"b*"}
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


def _transparent(page, name) -> bool:
    try:
        state = page["/Resources"]["/ExtGState"][name]
        return float(state.get("/ca", 1)) == 0
    except (KeyError, TypeError, ValueError):
        return False


def _invisible(state: _State, line: tuple, box: tuple, painted: list) -> bool:
    matrix = _times(line, state.ctm)
    x, y = _point(matrix, 0, 0)
    size = state.font_size * math.sqrt(abs(matrix[0] * matrix[3] - matrix[1] * matrix[2]))
    left, bottom, right, top = box
    outside = not (left - 1 <= x <= right + 1 and bottom - 1 <= y <= top + 1)
    on_colour = any(x0 <= x <= x1 and y0 <= y <= y1 for x0, y0, x1, y1 in painted)
    return (
        state.render_mode in (3, 7)
        or state.transparent
        or size <= TINY_POINTS
        or outside
        or (state.white and not on_colour)
    )


def drop_invisible_text(page, reader) -> int:
    """Rewrites ``page``'s content without its invisible text; returns how many text operators went."""
    from pypdf.generic import ContentStream, NameObject

    content = ContentStream(page.get_contents(), reader)
    box = tuple(float(v) for v in page.cropbox)
    state, stack, painted, kept, dropped = _State(), [], [], [], 0
    line = _IDENTITY
    rectangles: list[tuple] = []
    for operands, operator in content.operations:
        try:
            state, line, rectangles = _step(page, operator, operands, state, stack, line, rectangles, painted)
        except (TypeError, ValueError, IndexError):  # a malformed operator: pypdf reads past it too
            pass
        if operator in _SHOW and _invisible(state, line, box, painted):
            dropped += 1
            continue
        kept.append((operands, operator))
    if dropped:
        content.operations = kept
        # in memory only, for extract_text: pypdf 7 keeps replace_contents for pages of a writer
        page[NameObject("/Contents")] = content
    return dropped


def _step(page, operator, operands, state, stack, line, rectangles, painted):
    """The graphics and text state after one operator (``stack`` and ``painted`` are updated in place)."""
    if operator == b"q":
        stack.append(state)
    elif operator == b"Q" and stack:
        state = stack.pop()
    elif operator == b"cm":
        state = replace(state, ctm=_times(tuple(float(v) for v in operands), state.ctm))
    elif operator in (b"rg", b"g", b"k", b"sc", b"scn"):
        state = replace(state, white=_white(operands))
    elif operator == b"gs" and operands:
        state = replace(state, transparent=_transparent(page, operands[0]))
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
        rectangles.append((*map(min, zip(*corners)), *map(max, zip(*corners))))
    elif operator in _FILLS:
        if not state.white:  # a non-white box: white text on it is the readable kind
            painted.extend(rectangles)
        rectangles = []
    elif operator == b"n":
        rectangles = []
    return state, line, rectangles
