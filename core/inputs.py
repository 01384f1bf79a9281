"""Text from people and files, checked before anything else touches it.

``checked_text`` is the first call at every CLI and service entry point: the length cap comes
first (so no later step sees a megabyte), then NUL bytes (PostgreSQL refuses them in text) and
invalid UTF-8 (bytes that do not decode; command-line arguments that did not decode arrive as
lone surrogates). A refusal is an ``InputRefused`` with a code the caller turns into one line in
the reader's language (``safety.<code>`` in the catalogue).
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Iterable
from typing import NoReturn
from uuid import UUID

_ENGLISH = {
    "too_long": "the text is too long (the limit is {limit} characters)",
    "nul_byte": "the text contains a NUL byte (\\0), which is not allowed",
    "bad_encoding": "the text is not valid UTF-8",
}


class Refusal(ValueError):
    """Something storage will not do, said in one English line; ``code`` (with ``params``) names it so
    agents word it in the reader's language from the catalogue."""

    def __init__(self, message: str, code: str | None = None, **params: object):
        super().__init__(message)
        self.code = code
        self.params = params


class InputRefused(Refusal):
    """Input refused before any processing; ``code`` is too_long | nul_byte | bad_encoding
    (``safety.<code>``)."""

    code: str  # always one of those three

    def __init__(self, code: str, **params: object):
        super().__init__(_ENGLISH[code].format(**params), code, **params)


def checked_text(value: str | bytes | None, *, limit: int | None = None) -> str:
    """``value`` as str when it fits ``limit`` characters and holds no NUL or undecodable bytes."""
    if value is None:
        return ""
    if limit is not None and len(value) > limit:
        raise InputRefused("too_long", limit=limit)
    if isinstance(value, bytes):
        try:
            value = value.decode("utf-8")
        except UnicodeDecodeError:
            raise InputRefused("bad_encoding") from None
    if "\x00" in value:
        raise InputRefused("nul_byte")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise InputRefused("bad_encoding") from None
    return value


def strip_nul(text: str) -> str:
    """Document text with NUL bytes and undecodable surrogates removed (parsers emit both)."""
    if "\x00" in text:
        text = text.replace("\x00", "")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = text.encode("utf-8", "ignore").decode("utf-8")
    return text


# Characters that draw nothing and hide words from a reader while a model still reads them: zero-width
# spaces and joiners, word joiners and invisible operators, soft hyphens, byte-order marks, bidirectional
# overrides and isolates, and the Unicode tag block (which spells out whole hidden ASCII sentences).
# Joiners (U+200C/U+200D) stay between non-Latin letters and in emoji, where they shape the text.
_INVISIBLE = re.compile(
    "[\u200b\u2060-\u2064\ufeff\u00ad\u180e\u202a-\u202e\u2066-\u2069\U000e0000-\U000e007f]"
    "|(?<=[A-Za-z\u00c0-\u024f])[\u200c\u200d]+|[\u200c\u200d]+(?=[A-Za-z\u00c0-\u024f])"
)


def strip_invisible(text: str) -> str:
    """``text`` without characters that draw nothing (what a reader cannot see, no model reads either)."""
    return _INVISIBLE.sub("", text) if text else text


class OneLineParser(argparse.ArgumentParser):
    """argparse as every CLI uses it: a refused command line is one line on stderr and exit 2 (argparse
    prints its whole usage first otherwise). Subcommands' parsers are of this class too."""

    def error(self, message: str) -> NoReturn:
        print(f"error: {message}", file=sys.stderr)
        sys.exit(2)


def refused_arguments(argv: list[str]) -> InputRefused | None:
    """Why a command line is refused before it runs (a NUL byte or undecodable bytes in an argument), or None."""
    for argument in argv:
        try:
            checked_text(argument)
        except InputRefused as exc:
            return exc
    return None


def distinct_uuids(values: Iterable[object] | None) -> list[UUID]:
    """The distinct ids of ``values`` in order, as UUIDs; ValueError on one that is not an id (ids the
    product wrote itself — a pipeline's chunk ids, a picker's documents — where a bad one is a fault to
    surface, not input to drop as ``parse_uuid`` does)."""
    return [UUID(str(value)) for value in dict.fromkeys(map(str, values or []))]


def parse_uuid(value: object) -> UUID | None:
    """``value`` as a UUID, or None when it is empty or not one (an id from a URL, a CLI or a model)."""
    try:
        return UUID(str(value)) if value else None
    except ValueError:
        return None
