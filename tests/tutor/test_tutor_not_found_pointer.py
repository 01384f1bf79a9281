"""The "not found" answer's pointer to the closest material (issue 29): a published course and the document
it was made from share a title, and the pointer named it twice ("Closest material: “Compensation for working
extra hours” or “Compensation for working extra hours”", walk6 in session 17)."""

from __future__ import annotations

from uuid import uuid4

from agents.retrieval.per_corpus import PerCorpus
from agents.runtime.deps import process_embedder
from agents.tutor import closest
from agents.tutor.answers import grounded
from agents.tutor.closest import (
    DocumentSections,
    TermRarity,
    closest_document,
    corpus_views,
    section_to_read,
)
from core.instructions import without_instructions
from core.turns import Citations, Suggestions
from storage import chat, corpus, sources
from storage.documents import Chunk
from tests.tutor.conftest import by_name, passage, run


def test_a_title_shared_by_a_course_and_its_document_is_named_once():
    closest = [
        {"title": "Compensation for working extra hours", "kind": "course"},
        {"title": "Compensation for working extra hours", "kind": "document"},
        {"title": "Travel and Expenses Policy", "kind": "document"},
    ]
    for language in ("en", "es"):
        text = grounded(
            "can I claim a taxi home after a late shift?",
            [],
            "general",
            "Acme",
            language,
            closest,
            embedder=process_embedder(),
        )
        assert text.count("Compensation for working extra hours") == 1, text
        assert text.count("Travel and Expenses Policy") == 1, text


def test_the_topic_word_outweighs_the_words_of_the_situation():
    """Every key term alike, the words that tell the situation ("lunes", "aviso": in many of the organisation's
    chunks) outvoted the topic ("mala" -> enfermo: in one); each term now weighs by how rare it is."""
    question = "si me pongo mala un lunes, ¿a quién aviso?"
    situation = passage(1, "Los lunes se avisa al responsable de turno de los cambios.", document="Turnos", score=0.83)
    topic = passage(2, "Si estás enfermo, llama antes de empezar.", document="Guía de incorporación", score=0.83)
    rarity = TermRarity.of(
        [["lunes", "aviso", "turno"]] * 12 + [["enfermo", "llama"], ["almacen", "carretilla"], ["usb"]]
    )
    assert rarity.weight("enfermo") > rarity.weight("aviso") == rarity.weight("lunes") > 0
    assert closest_document(question, [situation, topic]) == situation  # every term alike: two of three
    assert closest_document(question, [situation, topic], rarity) == topic


def test_how_rare_a_word_is_is_read_from_the_organisations_chunks_once(seeded_pool, lucia, monkeypatch):
    read = []
    chunk_words = corpus.chunk_words
    monkeypatch.setattr(corpus, "chunk_words", lambda *a: read.append(1) or chunk_words(*a))
    monkeypatch.setattr(closest, "_rarities", PerCorpus())
    rarity, _ = corpus_views(seeded_pool, lucia.org_id)
    assert corpus_views(seeded_pool, lucia.org_id)[0] is rarity and read == [1]
    assert rarity.chunks > 20
    assert rarity.weight("carretilla") > rarity.weight("empleado")  # forklifts: the warehouse manual's alone
    assert rarity.weight("forklift") == rarity.weight("carretilla")  # the glossary's word in the other language


def test_a_section_the_turn_did_not_retrieve_votes_for_its_document():
    """Session 23 (tests/bench/pointer_replay.py, documents named right 206 -> 221 of 274 on train): "I think my PC
    has a virus" retrieved the security policy's passwords, not its malware section, and was sent to the customer
    service manual; each document's one section holding most of the question's words now votes too."""
    question = "I think my PC has a virus, should I turn it off?"
    calls = passage(1, "Answer the phone within three rings.", document="Customer Service Manual", score=0.827)
    passwords = passage(
        2, "Use 14 characters at least.", document="Security Policy", section="6. Passwords", score=0.822
    )
    passwords_text = "6. Passwords Use 14 characters at least. "
    packed = Chunk(
        id=uuid4(),
        document_id=uuid4(),
        document_title="Security Policy",
        position=3,
        heading="Security Policy > 6. Passwords",
        page_start=None,
        page_end=None,
        content=passwords_text + "If your computer has a virus, don't switch it off: call the IT desk.",
        token_count=30,
        heading_spans=(
            (0, "Security Policy > 6. Passwords", 1),
            (len(passwords_text), "Security Policy > 7. Malware", 1),
        ),
    )
    sections = DocumentSections.of([packed])
    assert sections.best_share("Security Policy", ["virus", "computer"], None) == 1.0
    assert sections.best_share("Security Policy", ["virus", "characters"], None) == 0.5  # one section at a time
    assert sections.best_share("Customer Service Manual", ["virus"], None) == 0.0  # no section known
    assert closest_document(question, [calls, passwords]) == calls
    assert closest_document(question, [calls, passwords], sections=sections) == passwords


def test_the_documents_sections_are_read_from_the_organisations_chunks_once(seeded_pool, lucia, monkeypatch):
    read = []
    org_document_chunks = sources.org_document_chunks
    monkeypatch.setattr(sources, "org_document_chunks", lambda *a: read.append(1) or org_document_chunks(*a))
    monkeypatch.setattr(closest, "_sections", PerCorpus())
    _, sections = corpus_views(seeded_pool, lucia.org_id)
    assert corpus_views(seeded_pool, lucia.org_id)[1] is sections and read == [1]
    # Lucía off sick ("mala": enfermo): the onboarding guide's "If you are ill, tell your manager…"
    assert sections.best_share("Employee Onboarding Guide", ["enfermo"], None) == 1.0
    assert sections.best_share("Returns and Refunds Policy", ["enfermo"], None) == 0.0


def test_the_closest_document_names_the_section_to_read_first():
    """Read as Lucía: "Lo más cercano: «TTS Handbook: Travel guide»" named 52 chunks of another language's pages;
    the section whose passage holds the question's words is named too, said to be in English."""
    closest = [
        {"kind": "document", "id": "d1", "title": "TTS Handbook: Travel guide"}
        | {"section": "Mileage, Parking, and Tolls", "section_language": "en"},
    ]
    question = "¿Me reembolsan el parking del aeropuerto?"
    spanish = grounded(question, [], "general", "Acme", "es", closest, embedder=process_embedder())
    assert "«TTS Handbook: Travel guide», en «Mileage, Parking, and Tolls» (apartado en inglés)." in spanish
    english = grounded(question, [], "general", "Acme", "en", closest, embedder=process_embedder())
    assert "“TTS Handbook: Travel guide”, under “Mileage, Parking, and Tolls”." in english
    assert without_instructions(spanish) == spanish and without_instructions(english) == english
    unnamed = [closest[0] | {"section": ""}]
    text = grounded(question, [], "general", "Acme", "es", unnamed, embedder=process_embedder())
    assert "Lo más cercano: «TTS Handbook: Travel guide». " in text


def test_within_the_closest_document_the_passage_holding_the_words_is_the_one_named():
    question = "¿Me reembolsan el parking del aeropuerto si dejo allí el coche?"
    hotels = passage(1, "Hotel taxes are reimbursed.", document="Travel guide", section="Lodging > Hotels", score=0.84)
    parking = passage(
        2, "Parking at the airport is reimbursed.", document="Travel guide", section="Other > Parking", score=0.83
    )
    assert closest_document(question, [hotels, parking]) == parking
    assert section_to_read(question, parking) == "Parking"
    title_block = passage(3, "Code: X. Parking and airport.", document="Guide", section="Guide")
    assert section_to_read(question, title_block) == ""  # a document's title block is no section to read


def test_of_the_sections_a_chunk_packs_the_one_holding_the_words_is_named():
    """Session 22: a chunk running from "3. Your first day" on into 4 and 5 was named by its first heading whatever
    part held the question's words (tests/bench/pointer_replay.py: right 29 of 64 named -> 52 of 71 on train)."""
    first_day = "On your first day collect your badge at reception and meet your line manager."
    buddy = " Every new employee gets a buddy who meets you at least once a week."
    training = " Complete the mandatory security courses within 30 days of your start date."
    chunk = passage(
        1,
        first_day + buddy + training,
        document="Employee Onboarding Guide",
        section="Employee Onboarding Guide > 3. Your first day",
        sections=(
            (len(first_day), "Employee Onboarding Guide > 4. Your onboarding buddy"),
            (len(first_day + buddy), "Employee Onboarding Guide > 5. Mandatory training"),
        ),
    )
    assert section_to_read("What does my onboarding buddy do?", chunk) == "4. Your onboarding buddy"
    assert (
        section_to_read("¿En cuántos días tengo que hacer los cursos obligatorios?", chunk) == "5. Mandatory training"
    )
    assert section_to_read("Where do I collect my badge?", chunk) == "3. Your first day"


def test_a_refusal_names_the_closest_section_as_stored(seeded_pool, lucia):
    events, text = run(lucia, "Hay un pequeño fuego en un cuadro eléctrico, ¿le echo agua?", seeded_pool)
    assert text.startswith("No encontré nada"), text
    assert "«Manual de Seguridad en el Almacén», en «12.2 Incendios»." in text
    with seeded_pool.connection() as conn:
        stored = chat.list_messages(conn, lucia.org_id, chat.list_sessions(conn, lucia.org_id, lucia.id, "tutor")[0].id)
    assert stored[-1].content == text  # the instruction filter cut nothing of it
    chip = by_name(events, Suggestions).suggestions[0]
    assert chip == "Explícame los puntos clave de «12.2 Incendios»"  # a way on she can click: that section, read
    events, text = run(lucia, chip, seeded_pool)
    assert {c["section"].split(" > ")[-1] for c in by_name(events, Citations).citations} == {"12.2 Incendios"}, text
