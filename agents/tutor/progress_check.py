"""A model's reply to a progress turn ("How am I doing?", "What's my next step?", "¿Qué me toca repasar hoy?") is
untrusted output like any other answer (session 23): SmolLM2 and its like state figures, courses and deadlines that
are not the learner's. The reply may only state what the record the model was given holds (retrieve.py builds it:
the one step, the due list or the report); the output gate (gate.py) holds it to that, and when it fails the
deterministic answer (next_step_text, due_today_text, answers.progress_text) replaces it, the turn recording why
(``fallback``):

``length`` past the kind's budget (also the server's max_tokens) · ``language`` not the learner's (titles aside: a
course may be in another language) · ``source_claim`` a citation or a claim that a document says something ·
``instructions`` the system prompt's words or an instruction-like sentence · ``date`` a calendar date, or a weekday,
that is none of the record's (a relative date the record cannot settle, "tomorrow", "next week", is let pass) ·
``figure`` a percentage or a count that is not the record's · ``not_in_record`` a course or lesson the record does
not hold (a quoted title, a capitalised name mid-sentence, "the course on X") · ``unanswered`` the reply leaves out
what was asked: the step's lesson or review count, today's review count, or (how am I doing?) any of the courses.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Callable, Mapping, Sequence
from datetime import date, datetime
from typing import Any

from babel.dates import get_day_names, get_month_names
from dateparser import parse
from dateparser.search import search_dates

from agents.i18n import format_date, format_weekday
from agents.i18n.catalog import MESSAGES
from agents.retrieval.passages import CITATION_MARKER
from agents.tutor.gate import without_titles, wrong_language
from agents.tutor.redirect_check import REDIRECT_LANGUAGE_WORDS, leaks_instructions
from core.text import NUMBER_VALUES, STOPWORDS, fold, sentences, words

# The twin's answers for every demo learner in either language run up to 58 tokens (next step), 108 (today's
# reviews) and 156 (the report: three courses, six skills); a model writes more freely, so about one and a half
# times that. The server's max_tokens too.
PROGRESS_TOKENS = {"next_step": 100, "due_today": 170, "report": 260}
PERCENT_SLACK = 1  # "62 %" for a record's 62.5 %
WEEK_DAYS = 7  # a weekday names a date within a week of today, either way

# the twin's own words (its templates and the labels of statuses and levels): a reply may use them in titles' places
_TWIN_KEYS = re.compile(
    r"^(tutor\.(progress|next|due|reviews|no_reviews|deadline|score|skills|failures|suggest)|code\.(status|level))"
)
_QUOTED = re.compile(r"«([^«»\n]{2,200})»|“([^“”\n]{2,200})”|\"([^\"\n]{2,200})\"|\*\*([^*\n]{2,200})\*\*")
_PERCENT = re.compile(r"(\d+(?:[.,]\d+)?)\s*(?:%|por ?ciento\b|percent\b|per cent\b)", re.IGNORECASE)
_NUMBER = re.compile(r"(?<![\w.,])\d+(?:[.,]\d+)?(?!\w)")
_LIST_MARKER = re.compile(r"(?m)^\s*\d+[.)]\s")
_ISO = re.compile(r"\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}/\d{1,2}(/\d{2,4})?\b")
_YEAR = re.compile(r"\b\d{4}\b")
_CAPITALISED = re.compile(r"\b[A-ZÁÉÍÓÚÑ][\w'’-]*")
# what a word opening a sentence, a line, a bullet or a list item follows
_SENTENCE_START = re.compile(r"(^|[.!?\n]|^\s*([-*•]|\d+[.)]))[\s¡¿(*]*$")
# on folded text: what a course or lesson is said to be about
_ABOUT = re.compile(
    r"\b(?:course|curso|lesson|leccion|module|modulo)s? (?:on|about|in|de|del|sobre) ((?:\w+ ){0,2}\w+)"
)
# on folded text: a document claimed (a progress reply reads the learner's record, never a document)
_DOCUMENT_CLAIM = re.compile(
    r"\b(according to|as (stated|said|described|set out) in|segun|de acuerdo con|tal como (indica|dice)) (the |el |la |"
    r"los |las |our |nuestr[oa]s? |company |empresa )*(handbook|polic(y|ies)|manual|guides?|documents?|material|"
    r"documentos?|politicas?|guias?|normativa|sources?|fuentes?)\b"
    r"|\b(handbook|policy|manual|document|material|politica|guia|documento|normativa) "
    r"(says|states|explains|requires|dice|indica|establece|explica|exige)\b"
)


@dataclasses.dataclass(frozen=True)
class ProgressRecord:
    """What a progress reply may state: the record the model was given, as figures, dates and words."""

    kind: str  # "next_step" | "due_today" | "report"
    today: date
    titles: tuple[str, ...]  # the courses, lessons, skills and exercises it names
    counts: frozenset[float]  # every count a reply may give (and the ones it implies: days to a deadline)
    percents: frozenset[float]
    dates: frozenset[date]
    vocabulary: frozenset[str]  # folded words a reply may name things with
    answer_titles: tuple[str, ...] = ()  # the reply names one of these (the step asked, the learner's courses)
    answer_count: int | None = None  # or gives this count (the reviews due)


def _percent(value: float | None) -> list[float]:
    return [] if value is None else [round(value * 100, 1)]


def _days(deadline: date, today: date) -> list[float]:
    return [abs((deadline - today).days), abs((deadline - today).days) // WEEK_DAYS]


def record_of(state: Mapping[str, Any], today: date, names: Sequence[str] = ()) -> ProgressRecord:
    """The record behind a progress turn's context (retrieve.retrieve_progress): its one step, what is due today,
    or the whole report. ``names``: the learner's and the organisation's, which a reply may use."""
    titles: list[str] = []
    counts: set[float] = set()
    percents: set[float] = set()
    dates: set[date] = set()
    if step := state.get("next_step"):
        kind = "next_step"
        titles += [step[key] for key in ("lesson", "course") if step.get(key)]
        counts.add(step.get("reviews") or 0)
        percents.update(_percent(step.get("progress")))
        if step.get("progress") is not None:
            counts.add(step["progress"])  # the context gives it as a fraction
        if step.get("deadline"):
            dates.add(date.fromisoformat(step["deadline"]))
        answer_titles = (step.get("lesson") or step.get("course"),) if step["kind"] == "lesson" else ()
        answer_count = step.get("reviews") if step["kind"] == "reviews" else None
    elif (due := state.get("due_today")) is not None:
        kind = "due_today"
        lessons = due.get("lessons") or []
        titles += [item[key] for item in lessons for key in ("lesson", "course")]
        counts.update([due["reviews"], len(lessons), len({item["course"] for item in lessons})])
        counts.update(item["count"] for item in lessons)
        counts.add(max(len(lessons) - 3, 0))  # "and 1 more lesson", as the twin lists them
        dates.add(today)
        answer_titles, answer_count = (), due["reviews"] or None
    else:
        kind = "report"
        progress = state.get("progress") or {}
        enrollments = progress.get("enrollments") or []
        titles += [e["course"] for e in enrollments]
        titles += [s["skill"] for s in progress.get("skills") or []]
        titles += [f["exercise"] for f in progress.get("recent_failures") or []]
        counts.update([progress.get("reviews_due") or 0, len(enrollments), len(progress.get("skills") or [])])
        counts.update(sum(e["status"] == status for e in enrollments) for status in {e["status"] for e in enrollments})
        counts.add(len({f["exercise"] for f in progress.get("recent_failures") or []}))
        for e in enrollments:
            percents.update(_percent(e.get("progress")) + _percent(e.get("score")))
            if e.get("deadline"):
                dates.add(date.fromisoformat(e["deadline"]))
        answer_titles, answer_count = tuple(e["course"] for e in enrollments), None
    for deadline in dates:
        counts.update(_days(deadline, today) + [deadline.day, deadline.year])
    for title in titles:
        counts.update(float(n.replace(",", ".")) for n in _NUMBER.findall(title))
    vocabulary = set(words(" ".join(titles + list(names) + [state.get("context") or ""]))) | _twin_words()
    return ProgressRecord(
        kind=kind,
        today=today,
        titles=tuple(dict.fromkeys(titles)),
        counts=frozenset(counts),
        percents=frozenset(percents),
        dates=frozenset(dates),
        vocabulary=frozenset(vocabulary),
        answer_titles=tuple(t for t in answer_titles if t),
        answer_count=answer_count,
    )


@functools.cache
def _twin_words() -> frozenset[str]:
    said = " ".join(text for key, entry in MESSAGES.items() if _TWIN_KEYS.match(key) for text in entry.values())
    return frozenset(words(re.sub(r"\{[^{}]*\}|#", " ", re.sub(r"\{n, plural,", " ", said))))


@functools.cache
def _calendar_words(language: str) -> tuple[frozenset[str], frozenset[str]]:
    """The month and weekday names of ``language``, folded: Babel's, wide and abbreviated, and the product's own
    ("Sept" in a British date)."""
    months = {n for width in ("wide", "abbreviated") for n in get_month_names(width, locale=language).values()}
    months |= {w for m in range(1, 13) for w in words(format_date(date(2000, m, 1), language)) if not w.isdigit()}
    days = {n for width in ("wide", "abbreviated") for n in get_day_names(width, locale=language).values()}
    days |= {format_weekday(date(2000, 1, d), language) for d in range(3, 10)}
    return frozenset(fold(m).rstrip(".") for m in months), frozenset(fold(d).rstrip(".") for d in days)


def said_dates(reply: str, language: str, today: date) -> list[tuple[str, date | None, str]]:
    """The dates a reply states, each as (its words, the date read, how: "calendar" | "weekday" | "relative").
    dateparser finds and reads them; Babel's month and weekday names tell a date from a figure it misread
    ("un 12" is no date)."""
    months, weekdays = _calendar_words(language)
    settings = {"RELATIVE_BASE": _midday(today), "PREFER_DATES_FROM": "future"}
    found = search_dates(reply, languages=[language], settings=settings) or []
    said = []
    for span, when in found:
        folded = set(words(span))
        if folded & months or _ISO.search(span):
            said.append((span, when.date(), "calendar"))
        elif folded & weekdays:
            said.append((span, when.date(), "weekday"))
        elif not re.search(r"\d|%", span) or re.search(r"\b(days?|dias?|weeks?|semanas?)\b", fold(span)):
            said.append((span, None, "relative"))
    for iso in _ISO.finditer(reply):  # a list of bare ISO dates is one search_dates misses
        if not any(iso.group(0) in span for span, _, _ in said) and (when := parse(iso.group(0), settings=settings)):
            said.append((iso.group(0), when.date(), "calendar"))
    return said


def _midday(today: date) -> datetime:
    return datetime(today.year, today.month, today.day, 12)


def _date_fault(reply: str, language: str, record: ProgressRecord) -> tuple[str | None, str]:
    """("date" or None, the reply without its dates): a calendar date must be one of the record's (day and month,
    and the year when one is said); a weekday must fall on one of them within a week of today."""
    rest = reply
    for span, when, how in said_dates(reply, language, record.today):
        if how != "relative":  # "in 45 days" keeps its figure for the figure check
            rest = re.sub(rf"(?<!\w){re.escape(span)}(?!\w)", " ", rest, count=1)
        if how == "calendar" and when is not None:
            said_year = bool(_YEAR.search(span))
            if not any(
                (d.month, d.day) == (when.month, when.day) and (not said_year or d.year == when.year)
                for d in record.dates
            ):
                return "date", rest
        elif how == "weekday" and when is not None:
            near = [d for d in record.dates | {record.today} if abs((d - record.today).days) <= WEEK_DAYS]
            if not any(d.weekday() == when.weekday() for d in near):
                return "date", rest
    return None, rest


def _figure_fault(text: str, record: ProgressRecord) -> bool:
    """A percentage, a count in digits or a number word (two and up: "one" is as often a pronoun) the record lacks."""
    for value in _PERCENT.findall(text):
        if not any(abs(float(value.replace(",", ".")) - p) <= PERCENT_SLACK for p in record.percents):
            return True
    rest = _LIST_MARKER.sub(" ", _PERCENT.sub(" ", text))
    said = [float(n.replace(",", ".")) for n in _NUMBER.findall(rest)]
    said += [NUMBER_VALUES[w] for w in words(rest) if w in NUMBER_VALUES and NUMBER_VALUES[w] > 1]
    return any(value not in record.counts for value in said)


def _names_outside(reply: str, record: ProgressRecord, language: str) -> bool:
    """A course or lesson the record does not hold: a quoted title, a capitalised word mid-sentence, or what "the
    course on …" names, with a word that is none of the record's, the learner's or the twin's own."""
    months, weekdays = _calendar_words(language)
    known = record.vocabulary | months | weekdays

    def unknown(text: str) -> bool:
        return any(w not in known and w not in STOPWORDS and not w.isdigit() for w in words(text))

    quoted = [next(g for g in match.groups() if g) for match in _QUOTED.finditer(reply)]
    if any(unknown(span) for span in quoted):
        return True
    for sentence in sentences(reply):
        for match in _CAPITALISED.finditer(sentence):
            if not _SENTENCE_START.search(sentence[: match.start()]) and unknown(match.group(0)):
                return True
    return any(unknown(about) for about in _ABOUT.findall(" ".join(words(reply))))


def _leaves_out(reply: str, record: ProgressRecord) -> bool:
    """The reply names none of the titles it must (the step's lesson, the learner's courses), or not the count."""
    plain = f" {' '.join(words(reply))} "
    if record.answer_titles and not any(f" {' '.join(words(t))} " in plain for t in record.answer_titles):
        return True
    if record.answer_count is not None:
        said = {float(n) for n in re.findall(r"\d+", reply)} | {
            NUMBER_VALUES[w] for w in plain.split() if w in NUMBER_VALUES
        }
        return record.answer_count not in said
    return False


def progress_fault(reply: str, *, record: ProgressRecord, language: str, instructions: str) -> str | None:
    """Why ``reply`` is not a usable answer to a progress turn (a ``fallback`` code), or None. Its length is the
    gate's to judge."""
    if not words(reply):
        return None  # the gate's "empty"
    untitled = without_titles(reply, record.titles)  # titles may be in another language
    if wrong_language(_QUOTED.sub(" ", untitled), language, min_words=REDIRECT_LANGUAGE_WORDS):
        return "language"
    if CITATION_MARKER.search(reply) or _DOCUMENT_CLAIM.search(" ".join(words(reply))):
        return "source_claim"
    if leaks_instructions(_QUOTED.sub(" ", reply), _QUOTED.sub(" ", instructions)):
        return "instructions"
    fault, undated = _date_fault(untitled, language, record)
    if fault:
        return fault
    if _figure_fault(undated, record):
        return "figure"
    if _names_outside(undated, record, language):
        return "not_in_record"
    if _leaves_out(reply, record):
        return "unanswered"
    return None


def progress_check(record: ProgressRecord, language: str, instructions: str) -> Callable[[str], str | None]:
    """The check the output gate runs on a finished progress reply."""
    return lambda reply: progress_fault(reply, record=record, language=language, instructions=instructions)
