"""Dates, numbers, percentages and chart separators as each language writes them (Babel)."""

from datetime import UTC, date, datetime

from agents.i18n import format_date, format_datetime, format_number, format_percent, number_separators, plotly_config


def test_spanish_and_english_write_dates_numbers_and_percentages_their_own_way():
    assert (format_date(date(2026, 1, 19), "es"), format_date("2026-01-19", "en")) == ("19 ene 2026", "19 Jan 2026")
    assert format_datetime(datetime(2026, 8, 17, 7, 5, tzinfo=UTC), "es") == "17 ago 2026, 07:05"
    assert (format_percent(1 / 3, "es"), format_percent(0.55, "en")) == ("33 %", "55%")
    assert (format_number(1234.5, "es", decimals=1), format_number(1234.5, "en", decimals=1)) == ("1.234,5", "1,234.5")
    assert format_date(None, "es") == format_percent(None, "es") == format_number(None, "en") == ""


def test_charts_take_the_languages_decimal_and_thousands_symbols():
    assert (number_separators("es"), number_separators("en"), number_separators("es-MX")) == (",.", ".,", ",.")


def test_plotly_box_hovers_get_the_readers_words():
    spanish = plotly_config("es-ES")
    assert spanish["locale"] == "es" and spanish["locales"]["es"]["dictionary"]["median:"] == "mediana:"
    assert set(spanish["locales"]["es"]["dictionary"]) == set(plotly_config("en")["locales"]["en"]["dictionary"])
