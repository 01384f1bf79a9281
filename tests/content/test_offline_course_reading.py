"""The offline course as a trainer reads it (session 14): what it teaches and asks is the document's content, not
its record card; module titles tell the modules apart; practice does not ask the same rule twice; the recap does
not repeat the lessons; a false statement still reads as Spanish."""

from __future__ import annotations

import json
import re

from agents.content.text import is_record_line
from tests.content.offline_courses import DEMO, PUBLIC, ROOT, offline_course

ONBOARDING = ROOT / "seeds" / "documents" / "onboarding_guide.docx"


def _everything_shown(course: dict) -> str:
    return json.dumps(
        [[lesson["content"] for lesson in m["lessons"]] + [m["exercises"]] for m in course["modules"]],
        ensure_ascii=False,
    )


def test_the_record_card_is_never_taught_nor_asked():
    """It was lesson 1's first sentence and a gap-fill ("… por cuenta de la ___")."""
    assert is_record_line("Document code: HR-ONB-001 · Version 2.0 · Owner: People & Culture · For: every new employee")
    assert not is_record_line("Tren · avión · coche: según la distancia.")
    security = ROOT / "seeds" / "documents" / "information_security_policy.pdf"  # its title page: the card alone
    for path, code in ((DEMO["demo_gastos"], "POL-GAS-002"), (ONBOARDING, "HR-ONB-001"), (security, "POL-SEC-001")):
        course = offline_course(path)
        shown = _everything_shown(course) + json.dumps(course["outline"], ensure_ascii=False)
        assert code not in shown and "Versi" not in shown, path.name
        assert course["modules"][0]["lessons"][0]["content"].strip()  # the lesson still teaches something


def test_a_false_statement_still_reads_as_spanish():
    """The expenses course had the false item "La tarjeta se usa solo para gastos de empresa, siempre para gastos
    personales ni para sacar efectivo": a quantifier turns only where its opposite is still the language."""
    from agents.content.distractors import changed_fact

    kept = {
        "La tarjeta se usa solo para gastos de empresa, nunca para gastos personales ni para sacar efectivo.",
        "Los vuelos se reservan con antelación siempre que sea posible.",
        "El chaleco se lleva siempre en el muelle.",
        "No se comparte nunca la contraseña.",
        "It is not always possible to book early.",
    }
    assert [s for s in kept if changed_fact(s, {}, 0)] == []
    turned = changed_fact("Las tarjetas regalo nunca se reembolsan en efectivo.", {}, 0)
    assert turned and turned[0] == "Las tarjetas regalo siempre se reembolsan en efectivo."
    assert "siempre para gastos personales" not in _everything_shown(offline_course(DEMO["demo_gastos"]))


def test_a_conversation_does_not_ask_the_practical_cases_rules_again():
    """The expenses course's "3.2 Vehículo propio y taxis" conversation asked the three rules its three cases had
    just asked (four exercises, three rules)."""
    for name in ("demo_gastos", "demo_returns"):
        for module in offline_course(DEMO[name])["modules"]:
            cases = {e["content"]["rubric"][0] for e in module["exercises"] if e["type"] == "practical_case"}
            for conversation in (e for e in module["exercises"] if e["type"] == "dialogue"):
                replies = {o["text"] for n in conversation["content"]["nodes"].values() for o in n["options"]}
                assert not replies & cases, (name, module["module_spec"]["title"], replies & cases)


def test_module_titles_tell_the_modules_apart():
    """Modules 3-6 of the TTS leave course were all "Types of leave"."""
    from tests.content.offline_courses import PUBLIC

    titles = [m["title"] for m in offline_course(PUBLIC["tts_leave"])["outline"]["modules"]]
    assert len(set(titles)) == len(titles), titles
    assert "Types of leave: Award leave and Sick leave" in titles, titles
    assert [m["title"] for m in offline_course(DEMO["demo_gastos"])["outline"]["modules"]][0] == "Principios"


def test_the_recap_asks_what_the_lessons_said_and_does_not_repeat_it():
    """The recap listed one or two of each lesson's sentences again, word for word."""
    from agents.content.text import fact_sentences

    course = offline_course(DEMO["demo_gastos"])
    for module in course["modules"]:
        recap = next(lesson["content"] for lesson in module["lessons"] if lesson["content_type"] == "exercise")
        said = [s for sec in course["sections"] for s in fact_sentences(sec.text)]
        assert not [s for s in said if s in recap], recap
    transport = next(
        lesson["content"] for lesson in course["modules"][1]["lessons"] if lesson["content_type"] == "exercise"
    )
    assert "¿A qué se refieren 600 km, 14 días, 6 horas y 0,26 EUR?" in transport, transport
    assert "¿Qué dice sobre los vuelos" in transport, transport


def test_a_source_headed_with_its_documents_title_is_named_once():
    """An explanation read "[Source: Compensation for working extra hours, Compensation for working extra hours]"
    (session 17's walk): the document's first section is headed with its title."""
    twice = re.compile(r"\[(?:Source|Fuente): ([^,\]]+), \1[,\]]")
    courses = [offline_course(path) for path in (*PUBLIC.values(), *DEMO.values(), ONBOARDING)]
    cited = [c for course in courses for c in re.findall(r"\[(?:Source|Fuente): [^\]]+\]", _everything_shown(course))]
    assert len(cited) > 100 and not [c for c in cited if twice.match(c)], [c for c in cited if twice.match(c)][:3]
