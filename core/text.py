"""The text toolkit every agent shares: accent folding, words, stopwords, stems and overlap, and the
words facts are made of (months, units of time, number words).

One definition of each, so "Lucía" matches "lucia" the same way in the tutor, the admin assistant,
the helpdesk and the content pipeline. (storage/skills.py keeps its SQL mirror of ``fold``: storage
cannot import agents.)
"""

from __future__ import annotations

import functools
import re
import unicodedata

_WORD = re.compile(r"[^\W_]+")

# Function words of Spanish and English (accent-folded): never evidence that two texts share a topic.
STOPWORDS = frozenset(
    """
a al algo algun alguna algunas alguno algunos ante antes aqui asi aun aunque cada como con contra cual
cuales cuando de del desde donde dos durante e el ella ellas ellos en entre era es esa esas ese eso esos
esta estas este esto estos esta estan fue ha han hasta hay la las le les lo los mas me mi mis mientras muy
nada ni no nos o otra otras otro otros para pero poco por porque puede pueden puedo que quien se sea segun
ser si sin sobre solo son su sus tambien tan te tengo tiene tienen todo todos tras tu un una uno unos unas
usted y ya debe deben sera seran hacer hace siempre nunca mismo misma
the a an and or of to in on at by for from with without is are was were be been being it its this that
these those as not no into than then there their they them you your we our can cannot could should must
may will would shall each every any all some more most other such only also if when while which who whom
what where how why do does did done has have had having per via about after before over under up out i
my me he she his her him just so but get got
""".split()
)


@functools.lru_cache(maxsize=65536)
def fold(text: str) -> str:
    """Lower case (casefold), accents removed: 'Lucía' and 'LUCIA' fold to 'lucia'."""
    decomposed = unicodedata.normalize("NFKD", text or "").casefold()
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def words(text: str) -> list[str]:
    """The folded words of ``text``, in order (letters and digits; punctuation and '_' split)."""
    return _WORD.findall(fold(text))


def content_words(text: str, *, min_length: int = 3) -> list[str]:
    """Folded words that carry meaning: not stopwords, at least ``min_length`` characters."""
    return [w for w in words(text) if len(w) >= min_length and w not in STOPWORDS]


def stems(text: str, *, length: int = 5, min_length: int = 2) -> set[str]:
    """Content words cut to a prefix stem (vacaciones ~ vacación, policy ~ policies)."""
    return {w[:length] for w in content_words(text, min_length=min_length)}


def overlap(text: str, reference: str, *, length: int = 5) -> float:
    """Share of ``reference``'s stems that ``text`` also has (0 when the reference has none)."""
    wanted = stems(reference, length=length)
    return len(wanted & stems(text, length=length)) / len(wanted) if wanted else 0.0


def shortened(text: str, limit: int) -> str:
    """``text`` on one line, at most ``limit`` characters: cut at the last word that fits, with "…"."""
    line = " ".join(text.split())
    if len(line) <= limit:
        return line
    cut = line[:limit].rsplit(" ", 1)[0] if " " in line[:limit] else line[: limit - 1]
    return cut.rstrip(" ,;:-–—(") + "…"


# The words facts are made of, shared by the content pipeline's fact finder (agents/content/facts.py, on the
# text as written) and the tutor's answer check (agents/tutor/fact_kinds.py, on folded text); each adds its own.
MONTHS_EN = "January February March April May June July August September October November December"
MONTHS_ES = "enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre"
TIME_UNITS = (
    r"days? weeks? months? years? hours? minutes? seconds? días? semanas? mes(?:es)? años? horas? minutos? segundos?"
)
# number words and their values in English and Spanish ("un"/"una" are as often articles: each caller decides)
NUMBER_VALUES = {
    word: value
    for value, names in (
        (1, "one uno una un"),
        (2, "two dos"),
        (3, "three tres"),
        (4, "four cuatro"),
        (5, "five cinco"),
        (6, "six seis"),
        (7, "seven siete"),
        (8, "eight ocho"),
        (9, "nine nueve"),
        (10, "ten diez"),
        (12, "twelve doce"),
        (14, "fourteen catorce"),
        (15, "fifteen quince"),
        (20, "twenty veinte"),
        (30, "thirty treinta"),
    )
    for word in names.split()
}
# the number words a figure is written with in running text, one to twelve (Spanish from two: "un"/"una" are articles)
NUMBER_WORDS = " ".join(
    word for word, value in NUMBER_VALUES.items() if value <= 12 and word not in ("uno", "una", "un")
)


def alternation(words: str | list[str], *, folded: bool = False) -> str:
    """``words`` (a list, or one string of them split on spaces) as a regex alternation in the given order,
    accent-folded and in lower case when ``folded``."""
    listed = words.split() if isinstance(words, str) else words
    return "|".join(fold(w) if folded else w for w in listed)


# the instruction filter's sentence cut (core/instructions.py), shared with its corpus and model. A numbered
# heading quoted or named in a path ("«7. Probation period»", "Guide › 7. Probation period") is not a sentence end:
# cut there, its tail read alone as an order and was taken out of the tutor's own words
_NUMBERED_HEADING = r"(?:(?<=[«“\"‘]\d)|(?<=[«“\"‘]\d\d)|(?<=› \d)|(?<=› \d\d))\."
# nor is a full stop inside a quote the product names on one line: the tutor's hint names the exercise ("The exercise
# “A customer calls about a late order. Choose your replies.” is about…"), and its tail, "Choose your replies.” is
# about…", read alone, was taken for an order
_QUOTED = r"«[^«»\n]{1,300}»|“[^“”\n]{1,300}”"
_SENTENCE = re.compile(rf"(?:{_QUOTED}|[^.!?\n]|{_NUMBERED_HEADING}|[.!?](?![\s]|$))*+(?:[.!?]+|\n|$)")


def sentences(text: str) -> list[str]:
    """``text`` cut into sentences as the filter reads it (each keeps its trailing newline, if any)."""
    return [m.group(0) for m in _SENTENCE.finditer(text or "") if m.group(0)]
