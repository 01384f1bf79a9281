"""The offline engine's toolkit: language, sentences, extractive answers, exemplars, streaming."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agents.offline import (
    detect_language,
    extractive_answer,
    localized,
    match_exemplars,
    message_language,
    split_sentences,
    stream_words,
)
from agents.runtime.deps import process_embedder
from agents.runtime.observability import count_tokens

EMBEDDER = process_embedder()


@pytest.mark.parametrize(
    "text, expected",
    [
        ("hola", "es"),
        ("hi", "en"),
        ("Hello there", "en"),
        ("gracias", "es"),
        ("thanks!", "en"),
        ("¿Cuántos días de vacaciones me quedan este año?", "es"),
        ("How many vacation days do I have left this year?", "en"),
        ("Necesito restablecer mi contraseña del portal de formación", "es"),
        ("I need to reset my password for the training portal", "en"),
        ("Tôi muốn học khóa an toàn lao động", "vi"),
        ("restablecer contraseña", "es"),
        ("reset password", "en"),
        ("nómina", "es"),
        ("sales training", "en"),
    ],
)
def test_detect_language(text, expected):
    assert detect_language(text) == expected


def test_detect_language_defaults_when_unsure():
    assert detect_language("", default="en") == "en"
    assert detect_language("42 ???", default="es") == "es"
    for ambiguous in ("ok", "PRL", "payroll"):
        assert detect_language(ambiguous, default="en") == "en" and detect_language(ambiguous, default="es") == "es"


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Give me a practical example of “4. Alojamiento”", "en"),  # the tutor's own chip, a Spanish heading
        ("Is there a course on «Gastos de viaje»?", "en"),
        ("Dame un ejemplo práctico de «4.1 Password standard (POL-SEC-004)»", "es"),
        ('¿Qué dice "Returns and Refunds Policy" sobre los portátiles?', "es"),
        ("«Política de Gastos y Viajes»", "es"),  # only a quotation: judged whole
    ],
)
def test_a_quoted_title_does_not_decide_the_language_of_a_message(text, expected):
    assert message_language(text, default="en" if expected == "es" else "es") == expected


def test_chats_arriving_together_at_a_fresh_process_load_the_language_model_once(monkeypatch):
    import threading

    import py3langid.langid

    from agents.ingestion import pipeline as ingest

    loads, real_load = [], py3langid.langid._load_identifier
    monkeypatch.setattr(py3langid.langid, "_load_identifier", lambda **kwargs: loads.append(1) or real_load(**kwargs))
    ingest.language_identifier.cache_clear()
    try:
        gate = threading.Barrier(8)
        threads = [
            threading.Thread(target=lambda: (gate.wait(), detect_language("How many days do I have to return it?")))
            for _ in range(8)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        ingest.language_identifier.cache_clear()  # the next caller loads the real one again
    assert len(loads) == 1


def test_split_sentences_handles_abbreviations_decimals_and_lists():
    text = (
        "# Política de viajes\n"
        "El Sr. García aprobó un tope de 3.5 millones, p. ej. para ferias. ¿Y los hoteles?\n"
        "Se reservan en el portal.\n\n"
        "- Billetes en clase turista\n- Taxis con recibo. Sin excepciones.\n"
        "1. Pide aprobación\n2. Adjunta las facturas\n"
        "Dr. Smith approved it, e.g. for fairs. Version 2.0 ships today!"
    )
    assert split_sentences(text) == [
        "Política de viajes",
        "El Sr. García aprobó un tope de 3.5 millones, p. ej. para ferias.",
        "¿Y los hoteles?",
        "Se reservan en el portal.",
        "Billetes en clase turista",
        "Taxis con recibo.",
        "Sin excepciones.",
        "Pide aprobación",
        "Adjunta las facturas Dr. Smith approved it, e.g. for fairs.",
        "Version 2.0 ships today!",
    ]


def test_split_sentences_joins_wrapped_lines():
    assert split_sentences("Los empleados tienen\nveintidós días. Se piden\nen el portal.") == [
        "Los empleados tienen veintidós días.",
        "Se piden en el portal.",
    ]


def test_split_sentences_turns_table_rows_into_statements():
    table = "## Hoteles\n| País | Máximo por noche |\n|---|---:|\n| España | 120 EUR |\n| Francia | 150 EUR |\nFin."
    assert split_sentences(table) == [
        "Hoteles",
        "País: España, Máximo por noche: 120 EUR.",
        "País: Francia, Máximo por noche: 150 EUR.",
        "Fin.",
    ]


PASSAGES = [
    (
        1,
        "Acme Retail fue fundada en 1990 en Valencia. La sede central está en Madrid. "
        "El comedor abre de 13:00 a 15:30.",
    ),
    (
        2,
        "Cada empleado tiene derecho a 23 días laborables de vacaciones al año. "
        "El uniforme se entrega el primer día. "
        "Las vacaciones se solicitan en el portal del empleado con quince días de antelación.",
    ),
    (3, "Los extintores se revisan cada seis meses. En caso de incendio, use la salida más cercana."),
]


def test_extractive_answer_cites_the_right_passage_in_document_order():
    answer = extractive_answer("¿Cuántos días de vacaciones tengo y cómo las solicito?", PASSAGES, EMBEDDER)
    assert answer.endswith("[2]")
    assert "23 días laborables" in answer and "quince días de antelación" in answer
    assert answer.index("23 días") < answer.index("quince días")  # document order, not score order
    assert "extintores" not in answer and "comedor" not in answer
    assert set(re.findall(r"\[(\d+)\]", answer)) == {"2"}


def test_extractive_answer_respects_the_budget_and_marks_each_run():
    answer = extractive_answer("¿Qué hago en caso de incendio?", PASSAGES, EMBEDDER, max_chars=120)
    assert "incendio" in answer and answer.endswith("[3]")
    assert len(answer) <= 120 + len(" [3]")
    assert extractive_answer("¿Vacaciones?", [], EMBEDDER) == ""


def test_extractive_answer_in_english():
    passages = [
        (1, "Expense reports are due by the fifth of each month. Late reports are paid next month."),
        (2, "Parking is free for employees. Visitors must register at the front desk."),
    ]
    answer = extractive_answer("When are expense reports due?", passages, EMBEDDER)
    assert answer.startswith("Expense reports are due by the fifth") and "[1]" in answer
    assert "[2]" not in answer


EXEMPLARS = {
    "progress": ["¿cómo voy en mis cursos?", "how am I doing in my courses", "mi progreso"],
    "ticket": ["quiero abrir una incidencia", "open a support ticket", "my laptop is broken"],
    "greeting": ["hola", "hello", "buenos días"],
}


@pytest.mark.parametrize(
    "text, label",
    [
        ("¿Qué tal voy con la formación?", "progress"),
        ("Show me my course progress", "progress"),
        ("No me funciona el ordenador, necesito soporte técnico", "ticket"),
        ("The printer is broken, please raise a ticket", "ticket"),
    ],
)
def test_match_exemplars(text, label):
    matched, score = match_exemplars(text, EXEMPLARS, EMBEDDER)
    assert matched == label and 0 < score <= 1


def test_match_exemplars_exact_phrase_and_empty_inputs():
    assert match_exemplars("Hola, buenos días!", EXEMPLARS, EMBEDDER) == ("greeting", 1.0)
    assert match_exemplars("anything", {}, EMBEDDER) == ("", 0.0)
    assert match_exemplars("   ", EXEMPLARS, EMBEDDER) == ("", 0.0)


def test_localized_falls_back_to_english_then_spanish():
    texts = {"es": "Hola", "en": "Hello"}
    assert localized(texts, "es") == "Hola" and localized(texts, "en") == "Hello"
    assert localized(texts, "vi") == "Hello" and localized({"es": "Hola"}, "fr") == "Hola"


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=200))
def test_stream_words_gives_the_text_back(text):
    tokens = list(stream_words(text))
    assert "".join(tokens) == text
    assert all(token.strip() or token == text for token in tokens)  # no whitespace-only tokens


def test_stream_words_are_words_with_their_trailing_space():
    assert list(stream_words("Hola,  mundo\nbonito")) == ["Hola,  ", "mundo\n", "bonito"]


def test_count_tokens_never_needs_the_network():
    assert count_tokens("") == 0
    assert count_tokens("hello world", model="some-local-llama") > 0
    assert 2 <= count_tokens("Hola, ¿qué tal estás hoy?", model="gpt-4o-mini") <= 12
