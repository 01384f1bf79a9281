"""The Spanish-English glossary of workplace words (core.glossary): its file's format, and the words an employee
types in either language paired with the documents' words, and the words any workplace question holds."""

from __future__ import annotations

from agents.retrieval.grounding import glossed_query
from agents.retrieval.search import MAX_QUERY_CHARS
from core import glossary
from core.text import fold


def test_every_line_is_one_meaning_of_folded_words():
    for line in glossary._meanings():
        words = line.split()
        assert len(words) >= 2, line  # a meaning with one word pairs nothing
        assert all(word == fold(word) and word.isascii() for word in words), line


def test_workplace_words_an_employee_types_pair_across_languages():
    """Each pair was a gap of session 15's train answers: the check rejected the other language's sentence."""
    pairs = [
        ("drills", "simulacros"),  # "Los simulacros de evacuación se realizan dos veces al año."
        ("cashier", "cajero"),
        ("ATM", "cajero"),
        ("ring", "tono"),  # "contestamos antes del tercer tono"
        ("lock", "bloquea"),
        ("festivo", "holidays"),
        ("móvil", "phone"),
        ("bought", "comprado"),
        ("award", "premio"),
        ("laundry", "lavandería"),
        ("witness", "testigo"),
        ("teams", "equipos"),
        ("printouts", "impresos"),  # the train questions as employees type them (the "-said" pairs)
        ("swap", "cambiar"),
        ("donor", "donar"),
        ("rude", "maleducado"),
        ("erase", "borrar"),
    ]
    for one, other in pairs:
        assert fold(other)[: glossary.STEM] in glossary.equivalents(one), (one, other)


def test_new_pairs_do_not_join_unrelated_meanings():
    """Stems are five letters: "compartir" would join "compañero", "extracto" "extranjero", "equipaje" "equipo"."""
    assert "colle" not in glossary.equivalents("share")
    assert "abroa" not in glossary.equivalents("statement")
    assert "team" not in glossary.equivalents("baggage")


def test_generic_words_are_the_workplace_ones_in_either_language():
    assert all(glossary.generic(word) for word in ("trabajar", "work", "días", "week", "semana", "oficina", "horas"))
    assert not any(glossary.generic(word) for word in ("home", "teletrabajar", "vacaciones", "permiso", "cajero"))


def test_the_glossed_query_keeps_every_words_gloss_within_the_limit():
    question = "How often are customers' comments shared with the teams?"  # over 40 characters
    assert glossed_query(question).split()[-1] == glossary.gloss(question).split()[-1] == "equipo"
    words = [f"zqx{n}" for n in range(400)]  # words the glossary doesn't know stay as they are
    long = glossed_query(" ".join(words))
    assert len(long) <= MAX_QUERY_CHARS and long.split() == words[: len(long.split())]
