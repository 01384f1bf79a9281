"""The language catalogue: every string a person reads, by message id, in English and Spanish
(Vietnamese where the tutor speaks it), and locale formatting of dates, numbers and percentages.

    t("tutor.empty_message", user.language)                  -> the text in the reader's language
    t("tutor.rate_limited", "es", seconds=12)                -> placeholders filled with str.format
    t("learning.unanswered", "es", n=1)                      -> a plural block picks its form by count:
        "{n, plural, one {# ejercicio} other {# ejercicios}}" (ICU's syntax; forms per Babel's CLDR rules)
    code_label("status", "in_progress", "es")                -> "en curso" (enum codes shown to people)

Messages live in ``agents/i18n/messages/<area>.py`` (one dict per area, ids prefixed with the area);
``tests/test_i18n_catalogue.py`` checks every entry has es and en with the same placeholders, and
fails on bilingual pairs written inline anywhere else. A missing id raises KeyError, so a page that
asks for one fails its AppTest instead of showing a raw id.
"""

from __future__ import annotations

import re
import string
from datetime import date, datetime

from babel import Locale
from babel.dates import format_date as _babel_date
from babel.dates import format_datetime as _babel_datetime
from babel.numbers import format_decimal as _babel_decimal
from babel.numbers import format_percent as _babel_percent
from babel.numbers import get_decimal_symbol, get_group_symbol

from agents.i18n.catalog import MESSAGES

LANGUAGES = ("en", "es", "vi")
DEFAULT_LANGUAGE = "en"
_LOCALES = {"en": "en_GB", "es": "es_ES", "vi": "vi_VN"}


def language(lang: str | None) -> str:
    """A supported language code for ``lang`` ('es-MX' -> 'es'); English for anything else."""
    code = (lang or "").split("-")[0].split("_")[0].lower()
    return code if code in LANGUAGES else DEFAULT_LANGUAGE


# "{count, plural, one {# módulo} other {# módulos}}": a form's text holds no braces; '#' is the count
_PLURAL_BLOCK = re.compile(r"\{(\w+), plural,((?:\s*(?:zero|one|two|few|many|other)\s*\{[^{}]*\})+)\s*\}")
_PLURAL_FORM = re.compile(r"(\w+)\s*\{([^{}]*)\}")


def t(key: str, lang: str | None, /, **params: object) -> str:
    """The message ``key`` in ``lang`` (English when that language has no text), plural blocks resolved
    by their count, placeholders filled."""
    code = language(lang)
    entry = MESSAGES[key]
    text = entry.get(code) or entry[DEFAULT_LANGUAGE]

    def plural(block: re.Match) -> str:
        forms = dict(_PLURAL_FORM.findall(block.group(2)))
        count = params[block.group(1)]
        assert isinstance(count, int | float), f"{key}: the count {block.group(1)} is not a number"
        form = Locale.parse(_locale(code)).plural_form(abs(count))
        return (forms.get(form) or forms["other"]).replace("#", "{" + block.group(1) + "}")

    text = _PLURAL_BLOCK.sub(plural, text)
    return text.format(**params) if params else text


def placeholders(text: str) -> set[str]:
    """The parameters a message text takes (its plural blocks' counts and every form's placeholders).
    Raises ValueError for a plural block without an ``other`` form."""
    fields = set()
    for block in _PLURAL_BLOCK.finditer(text):
        forms = dict(_PLURAL_FORM.findall(block.group(2)))
        if "other" not in forms:
            raise ValueError(f"plural block without 'other': {block.group(0)}")
        fields.add(block.group(1))
        fields |= {f for form in forms.values() for _, f, _, _ in string.Formatter().parse(form) if f}
    flat = _PLURAL_BLOCK.sub("", text)
    return fields | {f for _, f, _, _ in string.Formatter().parse(flat) if f}


def has(key: str) -> bool:
    return key in MESSAGES


def code_label(kind: str, code: str | None, lang: str | None) -> str:
    """How an enum code (status, severity, level, exercise type…) reads to a person; '' for None."""
    if code is None or code == "":
        return ""
    key = f"code.{kind}.{code}"
    return t(key, lang) if key in MESSAGES else str(code)


def _locale(lang: str | None) -> str:
    return _LOCALES[language(lang)]


def language_name(lang: str | None, in_lang: str = "en") -> str:
    """The language ``lang`` named in ``in_lang`` by Babel (prompts name it in English: "Spanish")."""
    return Locale.parse(in_lang).languages.get(lang or "", "the learner's language")


def format_date(value: date | datetime | str | None, lang: str | None) -> str:
    """A date as a person reads it in ``lang`` ('1 dic 2026'); '' for None."""
    if value is None or value == "":
        return ""
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    if isinstance(value, datetime):
        value = value.date()
    return _babel_date(value, format="medium", locale=_locale(lang))


def format_weekday(value: date, lang: str | None) -> str:
    """The day of the week in ``lang`` ('jueves', 'Thursday'): a deadline said as "next Friday" shows which one."""
    return _babel_date(value, format="EEEE", locale=_locale(lang))


def format_datetime(value: datetime | str | None, lang: str | None) -> str:
    """A moment as a person reads it in ``lang`` (date and minutes, no seconds or offset); '' for None."""
    if value is None or value == "":
        return ""
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    return _babel_datetime(value, format="d MMM y, HH:mm", locale=_locale(lang))


def format_percent(ratio: float | None, lang: str | None) -> str:
    """A 0–1 ratio as a whole percentage in ``lang`` ('55 %' in Spanish, '55%' in English); '' for None."""
    if ratio is None:
        return ""
    return _babel_percent(ratio, format="#,##0 %" if language(lang) == "es" else "#,##0%", locale=_locale(lang))


def number_separators(lang: str | None) -> str:
    """The locale's decimal then thousands symbol, as plotly's ``layout.separators`` takes them
    (',.' in Spanish), so chart ticks and hovers read 0,5 and not 0.5."""
    locale = _locale(lang)
    return get_decimal_symbol(locale) + get_group_symbol(locale)


# The English words plotly.js asks its locale dictionary for (box-plot hovers, toolbar tooltips), and
# our message for each.
_PLOTLY_WORDS = {
    "median:": "chart.median",
    "q1:": "chart.q1",
    "q3:": "chart.q3",
    "min:": "chart.min",
    "max:": "chart.max",
    "mean:": "chart.mean",
    "lower fence:": "chart.lower_fence",
    "upper fence:": "chart.upper_fence",
    "Download plot as a PNG": "chart.download_png",
    "Zoom": "chart.zoom",
    "Pan": "chart.pan",
    "Zoom in": "chart.zoom_in",
    "Zoom out": "chart.zoom_out",
    "Autoscale": "chart.autoscale",
    "Reset axes": "chart.reset_axes",
    "Box Select": "chart.box_select",
    "Lasso Select": "chart.lasso_select",
}


def plotly_config(lang: str | None) -> dict:
    """``st.plotly_chart``'s ``config``: plotly.js's own words (box hovers' 'median:', 'q1:'…, the
    toolbar's tooltips) in ``lang``, as a locale dictionary handed over with the chart (Streamlit
    registers no plotly.js locale)."""
    code = language(lang)
    return {
        "locale": code,
        "locales": {code: {"dictionary": {word: t(key, code) for word, key in _PLOTLY_WORDS.items()}}},
    }


def format_number(value: float | None, lang: str | None, *, decimals: int = 0) -> str:
    """A number with the locale's separators; '' for None."""
    if value is None:
        return ""
    pattern = "#,##0" + ("." + "0" * decimals if decimals else "")
    return _babel_decimal(value, format=pattern, locale=_locale(lang))
