"""The deadline an admin's request gives, read by ``dateparser`` in Spanish and English.

The calendar is dateparser's: this module only finds where the deadline is said (after "by", "para",
"antes del", "deadline", …) and rewrites the few idioms its language data lacks into words it knows
("dentro de dos semanas" → "dentro de 2 semanas", "la semana que viene" → "en 1 semana"). "The end of"
(or "the last day of") a month is that month's last day; "Friday week" is the Friday after the coming
one. A deadline said after a firm cue that dateparser cannot read ("before Christmas") comes back as the
words said, so the tool refuses it by name instead of the preview showing no deadline.
"""

from __future__ import annotations

import calendar
import re
from datetime import date, datetime, timedelta

import dateparser

from agents.admin.names import typo_of
from core.names import fold

# where a deadline starts; the firm ones can only introduce a date
_FIRM = (
    r"by|before|due date(?: to| is| of)?|due(?: by| on)?|until|till|no later than|deadline(?: of| is| to)?|"
    r"finish by|antes de(?:l| la| el)?|a(?= (?:final|finales|fin) de)|"
    r"hasta(?: el)?|plazo(?: hasta)?|fecha(?: limite)?|con fecha|para(?= (?:el )?(?:final|finales|fin) )|"
    r"para cuando|for when|by the time|after|despues de|tras|once"  # "para cuando vuelva": said, not dropped
)
# "para" alone is soft: "para Lucía" names a person as often as "para el 30" names a day
_CUE = re.compile(
    rf"\b(?:(?P<firm>{_FIRM})|(?P<soft>in|within|en|dentro de|on|el|del|al|para))\b[:\s]+"
    r"|(?=\b(?:tomorrow|mañana|next|this|este|esta|a week on|eow|eom|eod)\b)",
    re.IGNORECASE,
)
_RELATIVE_CUES = {"in": "in", "within": "in", "en": "en", "dentro de": "en"}
_ARTICLES = {"el", "la", "los", "las", "the", "de", "del", "a", "al"}
_CLAUSE_END = re.compile(r"[,;.!?¿¡]|\b(?:and|y|then|luego|please|por favor|thanks|gracias)\b")
_END_OF = re.compile(
    r"^(?:the |a |al |el |la |las )?(?:end|ends|close|final|finales|fin|last day|ultimo dia)(?: of| de| del)?"
    r"\s+(?P<period>.+)$"
)
_WEEKDAYS = "monday|tuesday|wednesday|thursday|friday|saturday|sunday"
# British "Friday week" / "a week on Friday": the Friday after the coming one (dateparser reads only "Friday")
_WEEK_ON = re.compile(rf"^(?:(?P<day>{_WEEKDAYS}) week|(?:a )?week on (?P<on>{_WEEKDAYS}))$")
_THIS_MONTH = {"month", "the month", "this month", "mes", "este mes", "el mes"}
_THIS_WEEK = {"week", "the week", "this week", "semana", "la semana", "esta semana"}  # its Friday
_SHORTHAND = {"eow": "end of the week", "eom": "end of the month", "eod": "today"}  # "pls add Chloe to infosec, EOW"
# "en 1 mes": "(finales del) mes que viene" as _spanish_idioms rewrites it
_NEXT_MONTH = {"next month", "mes que viene", "el mes que viene", "proximo mes", "el proximo mes", "en 1 mes"}
# Spanish words dateparser's Spanish data doesn't count with (it reads "2 semanas", not "dos semanas")
_NUMBERS_ES = {
    "un": 1,
    "una": 1,
    "uno": 1,
    "dos": 2,
    "tres": 3,
    "cuatro": 4,
    "cinco": 5,
    "seis": 6,
    "siete": 7,
    "ocho": 8,
    "nueve": 9,
    "diez": 10,
    "quince": 15,
    "veinte": 20,
    "treinta": 30,
}
_NEXT_UNIT_ES = re.compile(r"\b(?:(?:la|el) )?(semana|mes) que viene\b|\b(?:el |la )?proxim[oa] (semana|mes)\b")
_NEXT_WEEKDAY_ES = re.compile(
    r"\b(?:el )?proximo (lunes|martes|miercoles|jueves|viernes|sabado|domingo)\b"
    r"|\b(?:el )?(lunes|martes|miercoles|jueves|viernes|sabado|domingo) que viene\b"
)
# urgency with no date ("asap", "cuanto antes"): said, so it reaches the tool as said (which asks for a date) instead
# of a preview with no deadline the admin never asked for
_URGENT = re.compile(r"\b(?:asap|as soon as possible|cuanto antes|lo antes posible|lo mas pronto posible)\b")
_NO_DEADLINE = re.compile(r"\b(?:no|without|sin)\s+(?:a\s+|any\s+)?(?:deadline|due date|fecha|plazo)\b")
_SETTINGS = {"PREFER_DATES_FROM": "future", "DATE_ORDER": "DMY", "RETURN_AS_TIMEZONE_AWARE": False}
_MAX_WORDS = 6


def _spelled(text: str) -> str:
    """The calendar's words typed with a slip written right ("Jauary", "tomrorow", "finlaes", "manana"):
    dateparser reads only words it knows, and a misread month is a wrong deadline, not a missing one."""

    def right(match: re.Match) -> str:
        typed = match[0]
        if typed in _CALENDAR_WORDS:
            return typed
        return next((known for known in _CALENDAR_WORDS if typo_of(typed, known)), typed)

    return re.sub(r"[^\W\d_]{5,}", right, text)


# "pasado mañana", "en un plazo de 10 días", "de aquí a 15 días": said as dateparser's "en N días"
_IDIOMS_ES = (
    (re.compile(r"\bpasado mañana\b"), "en 2 dias"),
    (re.compile(r"\b(?:en|dentro de|con) (?:un|el) plazo(?: maximo)? de\b"), "en"),
    (re.compile(r"\bde aqui a\b"), "en"),
    (re.compile(r"\bdia (\d{1,2})\b"), r"\1"),  # "para el día 20": the 20th
    (
        re.compile(r"\bwith (\w+ (?:days?|weeks?|months?)) to (?:do|finish|complete)\b"),
        r"in \1",
    ),  # "with a month to do it"
)


def _spanish_idioms(text: str) -> str:
    for idiom, said in _IDIOMS_ES:
        text = idiom.sub(said, text)
    text = _NEXT_UNIT_ES.sub(lambda m: f"en 1 {m[1] or m[2]}", text)
    text = _NEXT_WEEKDAY_ES.sub(lambda m: m[1] or m[2], text)
    return re.sub(
        r"\b(" + "|".join(_NUMBERS_ES) + r")\b(?= (?:dia|dias|semana|semanas|mes|meses)\b)",
        lambda m: str(_NUMBERS_ES[m[1]]),
        text,
    )


def _parse(phrase: str, today: date) -> date | None:
    settings = {**_SETTINGS, "RELATIVE_BASE": datetime.combine(today, datetime.min.time())}
    phrase = _SHORTHAND.get(phrase, phrase)
    if end := _END_OF.match(phrase):
        period = end["period"].strip()
        if period in _THIS_WEEK:
            return today + timedelta(days=(calendar.FRIDAY - today.weekday()) % 7)
        if period in _THIS_MONTH:
            month: date | datetime | None = today
        elif period in _NEXT_MONTH:
            month = dateparser.parse("in 1 month", languages=["en"], settings=settings)
        elif period in _MONTH_NAMES:
            month = dateparser.parse(period, languages=["en", "es"], settings=settings)
        else:
            return None  # "end of the quarter", "fin de año": no one day dateparser can name
        return date(month.year, month.month, calendar.monthrange(month.year, month.month)[1]) if month else None
    if week_on := _WEEK_ON.match(phrase):
        weekday = _parse(week_on["day"] or week_on["on"], today)
        return weekday + timedelta(days=7) if weekday else None
    try:
        found = dateparser.parse(phrase, languages=["en", "es"], settings=settings)
    except (ValueError, OverflowError):
        return None
    if found and found.date() < today and re.fullmatch(r"(?:the )?\d{1,2}(?:st|nd|rd|th)?", phrase):
        # "by the 20th" on the 30th: next month's 20th, not a day gone
        next_month = dateparser.parse("in 1 month", languages=["en"], settings=settings)
        days = calendar.monthrange(next_month.year, next_month.month)[1] if next_month else 0
        found = next_month.replace(day=found.day) if next_month and found.day <= days else None
    return found.date() if found else None


_MONTH_NAMES = {calendar.month_name[i].lower() for i in range(1, 13)} | {
    "enero",
    "febrero",
    "marzo",
    "abril",
    "mayo",
    "junio",
    "julio",
    "agosto",
    "septiembre",
    "octubre",
    "noviembre",
    "diciembre",
}


_CALENDAR_WORDS = (
    _MONTH_NAMES
    | {calendar.day_name[i].lower() for i in range(7)}
    | {"lunes", "martes", "miercoles", "jueves", "viernes", "sabado", "domingo"}
    | {"tomorrow", "mañana", "pasado", "fortnight", "weeks", "month", "months", "semana", "semanas", "meses"}
    | {"finales", "final", "quarter", "trimestre"}
)


def _plain(text: str) -> str:
    """Lower case without accents, but with its ñ: "mañana" folded to "manana" is no word dateparser knows."""
    return fold(text.replace("ñ", "\0").replace("Ñ", "\0")).replace("\0", "ñ")


def _tails(text: str):
    """(firm?, the words after each cue up to the clause's end), the cue kept for relative ones ("in 2 weeks")."""
    for cue in _CUE.finditer(text):
        rest = text[cue.end() :]
        rest = rest[: m.start()] if (m := _CLAUSE_END.search(rest)) else rest
        words = rest.split()
        while words and words[0] in _ARTICLES and len(words) > 1 and not _END_OF.match(" ".join(words)):
            words = words[1:]
        words = words[:_MAX_WORDS]
        if cue["soft"] in _RELATIVE_CUES:  # "within 10 days" is dateparser's "in 10 days"
            words = [_RELATIVE_CUES[cue["soft"]], *rest.split()][: _MAX_WORDS + 1]
        if words:
            yield bool(cue["firm"]), words


def deadline_in(message: str, today: date) -> date | str | None:
    """The deadline the message gives: a date, the words said when they are no date dateparser reads
    (after a firm cue: "before Christmas" → "Christmas"), or None when it gives none."""
    text = _spanish_idioms(_spelled(_plain(message)))
    if _NO_DEADLINE.search(text):  # "No deadline needed.", "sin fecha": none given, on purpose
        return None
    unreadable = None
    for firm, words in _tails(text):
        for size in range(len(words), 0, -1):
            if found := _parse(" ".join(words[:size]), today):
                return found
        if firm and unreadable is None:
            unreadable = _as_typed(message, " ".join(words))
    if unreadable is None and (urgent := _URGENT.search(text)):
        return _as_typed(message, urgent[0])
    return unreadable


_ANY_DAY = date(2024, 1, 1)  # which day a deadline falls on doesn't decide whether one was said


def gives_deadline(message: str) -> bool:
    """Whether the message says a deadline at all ("…, due next friday", "para el viernes")."""
    return deadline_in(message, _ANY_DAY) is not None


def _as_typed(message: str, phrase: str) -> str:
    """``phrase`` (lower case, accents gone) as the admin typed it: the refusal quotes their words."""
    plain = _plain(message)
    at = plain.find(phrase)
    return message[at : at + len(phrase)] if at >= 0 and len(plain) == len(message) else phrase


def extract_date(message: str, today: date) -> date | None:
    """A date the message gives, however said (with or without a cue); None when none is readable."""
    found = deadline_in(message, today)
    if isinstance(found, date):
        return found
    return _parse(_spanish_idioms(_spelled(_plain(message))), today) if len(message.split()) <= _MAX_WORDS else None


# A deadline moved later by an amount: "one more week", "an extra week", "dos semanas más", "10 días más",
# "extend Raúl's deadline by 5 days", "amplía una semana el plazo", "another week", "otra semana", "un mes más".
_AMOUNTS = {"a": 1, "an": 1, "one": 1, "another": 1, "un": 1, "una": 1, "uno": 1, "otra": 1, "otro": 1}
_AMOUNTS |= {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "ten": 10, "couple": 2} | _NUMBERS_ES
_UNIT_DAYS = {"day": 1, "dia": 1, "week": 7, "semana": 7, "fortnight": 14, "quincena": 14}
_MONTHS = ("month", "mes")  # "un mes más", "two more months": whole months
_AMOUNT = r"(?P<n>\d{1,3}|" + "|".join(sorted(_AMOUNTS, key=len, reverse=True)) + r")(?: of)?"
_UNIT = r"(?P<unit>days?|dias?|weeks?|semanas?|fortnights?|quincenas?|months?|mes(?:es)?)"
_EXTENSIONS = (
    re.compile(rf"\b{_AMOUNT} (?:more|extra|additional) {_UNIT}\b"),  # one more week, an extra week
    re.compile(rf"\b(?:extra|additional|another) {_AMOUNT} {_UNIT}\b"),  # an extra 5 days
    re.compile(rf"\b{_AMOUNT} {_UNIT} (?:more|extra|longer|later|mas|adicionales?)\b"),  # dos semanas más
    re.compile(rf"\b(?:another|otra|otro) {_UNIT}\b"),
    re.compile(  # extend … by 5 days, push … back two weeks, amplía una semana el plazo
        r"\b(?:extend|push|move|delay|bump|amplia|alarga|prorroga|extiende|retrasa|aplaza|estira)\w*\b"
        rf"(?:\s+\S+){{0,7}}?\s+(?:by |back |en )?{_AMOUNT} {_UNIT}\b"
    ),
)
# said to give more time, with no amount read: the tool is handed the words, and says it can't read them
_MORE_TIME = re.compile(r"\b(?:more time|extra time|an extension|mas tiempo|una prorroga|ampliar el plazo)\b")


def extension_in(message: str) -> dict[str, int] | str | None:
    """How much later the message moves a deadline ("Give Harry one more week": {"extend_days": 7}, "un mes
    más": {"extend_months": 1}); the words said when it asks for more time without an amount ("more time");
    None when it moves nothing."""
    text = _plain(message).replace("ñ", "n")
    for pattern in _EXTENSIONS:
        if found := pattern.search(text):
            amount = found["n"] if "n" in pattern.groupindex else "1"
            count = int(amount) if amount.isdigit() else _AMOUNTS[amount]
            if found["unit"].startswith(_MONTHS):
                return {"extend_months": count}
            return {"extend_days": count * _UNIT_DAYS[found["unit"].rstrip("s")]}
    more = _MORE_TIME.search(text)
    return _as_typed(message, more[0]) if more else None
