"""Judging the progress reply's check (agents/tutor/progress_check.py) with replies written for it (session 23,
tests/tutor/progress_replies.py) on the demo seeds' records (progress_records.json): good replies pass, each
defect kind planted in each good reply is caught, and bad replies as small models write them are caught. The
figures are pinned where they were measured; the twin's own answers, for every demo learner on today's seeds,
pass."""

from __future__ import annotations

import json
import re
from datetime import date
from pathlib import Path

from agents.tutor import prompts
from agents.tutor.due_today import due_today_context
from agents.tutor.gate import AnswerGate
from agents.tutor.next_step import next_step_context
from agents.tutor.progress_check import PROGRESS_TOKENS, progress_check, record_of, said_dates
from agents.tutor.retrieve import progress_context
from core.text import NUMBER_VALUES, sentences
from tests.tutor.progress_replies import BAD, GOOD, ROUND3_BAD, ROUND3_GOOD
from tests.tutor.reply_mutations import bad_caught, planted_caught, shared_plants

RECORDS = json.loads((Path(__file__).parent / "progress_records.json").read_text(encoding="utf-8"))
TODAY = date.fromisoformat(RECORDS["today"])
ORG = "Acme"
NAMES = {"james": "James Carter", "lucia": "Lucía Fernández", "harry": "Harry", "pablo": "Pablo", "emily": "Emily"}
PROMPT_OF = {"next": prompts.NEXT_STEP, "due": prompts.DUE_TODAY, "report": ""}
LANGUAGE_NAME = {"en": "English", "es": "Spanish"}


def state_of(scenario: str) -> dict:
    """The turn's state as retrieve_progress leaves it: the record and the context the model was given."""
    learner, language, kind = scenario.split("/")
    record = RECORDS[f"{learner}/{language}"]
    if kind == "next":
        return {"next_step": record["next_step"], "context": next_step_context(record["next_step"])}
    if kind == "due":
        return {"due_today": record["due_today"], "context": due_today_context(record["due_today"])}
    return {"progress": record["progress"], "context": progress_context(record["progress"])}


def instructions_of(scenario: str) -> str:
    learner, language, kind = scenario.split("/")
    system = prompts.SYSTEM.format(
        org_name=ORG,
        user_name=NAMES[learner],
        grounding_rule=prompts.GROUNDING_RULES["db"],
        language_name=LANGUAGE_NAME[language],
    )
    return f"{system}\n\n{PROMPT_OF[kind]}".strip()


def verdict(reply: str, scenario: str, language: str) -> str | None:
    """The gate's verdict on a finished progress reply, as reply_checks.reply_gate builds it."""
    record = record_of(state_of(scenario), TODAY, [NAMES[scenario.split("/")[0]], ORG])
    gate = AnswerGate(
        language=language,
        max_tokens=PROGRESS_TOKENS[record.kind],
        needs_citation=False,
        judge=progress_check(record, language, instructions_of(scenario)),
        titles=record.titles,
    )
    gate.feed(reply)
    return gate.finish("complete", "stop")


def record(scenario: str):
    return record_of(state_of(scenario), TODAY, [NAMES[scenario.split("/")[0]], ORG])


RAMBLE = {
    "en": " Learning a little every day is the best way to keep what you know, and your courses are built for that:"
    " each lesson has a short reading, a few exercises and reviews that come back on the days the schedule picks."
    " If a lesson feels hard, read its sources again, ask me about the parts that are not clear and try the"
    " exercises once more; your mistakes are the best guide to what to review. Your manager can see how your"
    " courses are going, so finishing them on time matters, and your skills grow with every course you finish."
    " Remember that you can ask me about any policy or procedure of the company, in English or in Spanish, and"
    " that I will always tell you where the answer comes from. Keep going: every review you do today makes the"
    " next one easier, and every lesson you finish brings you closer to the end of your course and to the skills"
    " your team counts on.",
    "es": " Aprender un poco cada día es la mejor manera de no olvidar lo que sabes, y tus cursos están hechos para"
    " eso: cada lección tiene una lectura corta, algunos ejercicios y repasos que vuelven los días que elige el"
    " calendario. Si una lección se te hace difícil, vuelve a leer sus fuentes, pregúntame por lo que no esté"
    " claro y repite los ejercicios; tus errores son la mejor guía de lo que conviene repasar. Tu responsable ve"
    " cómo van tus cursos, así que terminarlos a tiempo importa, y tus habilidades crecen con cada curso que"
    " terminas. Recuerda que puedes preguntarme por cualquier política o procedimiento de la empresa, en español"
    " o en inglés, y que siempre te diré de dónde sale la respuesta. Sigue así: cada repaso que haces hoy hace"
    " más fácil el siguiente, y cada lección que terminas te acerca al final del curso y a las habilidades con"
    " las que cuenta tu equipo.",
}
EXTRA_COUNT = {"en": " You also have {n} lessons left this week.", "es": " Te quedan {n} lecciones esta semana."}
EXTRA_PERCENT = {"en": " You have completed {n}% of {course}.", "es": " Llevas un {n} % de {course}."}
EXTRA_DATE = {"en": " Your deadline is 23 December.", "es": " Tu fecha límite es el 23 de diciembre."}
OTHER_COURSES = {
    "en": ["Advanced Excel Skills", "Workplace Fire Safety", "Forklift Operation Basics"],
    "es": ["Prevención de riesgos laborales", "Excel avanzado", "Gestión del inventario"],
}
OTHER_COURSE = {"en": " You could also continue with {title}.", "es": " También te queda el curso de {title}."}
OTHER_LESSON = {
    "en": " Then do the lesson “Practice: forklift safety”.",
    "es": " Después, haz la lección «Práctica: carretillas elevadoras».",
}


def _unused(value: float, taken: frozenset[float]) -> int:
    return next(n for n in range(int(value) + 7, 400) if n not in taken)


def wrong_number(n: int, language: str, scenario: str, reply: str) -> str:
    """The reviews' count changed, or (none said) a count the record lacks added."""
    found = re.search(r"\b(\d+)( reviews?| repasos?)", reply)
    taken = record(scenario).counts
    if found:
        return reply[: found.start(1)] + str(_unused(float(found.group(1)), taken)) + reply[found.end(1) :]
    return reply + EXTRA_COUNT[language].format(n=_unused(n, taken))


def wrong_percent(n: int, language: str, scenario: str, reply: str) -> str:
    found = re.search(r"(\d+(?:[.,]\d+)?) ?%", reply)
    taken = record(scenario).percents
    if found:
        new = next(p for p in range(17, 100, 9) if all(abs(p - q) > 1 for q in taken))
        return reply[: found.start(1)] + str(new) + reply[found.end(1) :]
    learner, record_language, _ = scenario.split("/")
    course = RECORDS[f"{learner}/{record_language}"]["progress"]["enrollments"][0]["course"]
    return reply + EXTRA_PERCENT[language].format(n=next(p for p in (80, 70, 45) if p not in taken), course=course)


def wrong_date(n: int, language: str, scenario: str, reply: str) -> str:
    said = [span for span, when, how in said_dates(reply, language, TODAY) if how == "calendar"]
    if said:
        moved = re.sub(r"\b(\d{1,2})\b", lambda m: str(int(m.group(1)) % 28 + 1), said[0], count=1)
        return reply.replace(said[0], moved, 1)
    return reply + EXTRA_DATE[language]


def drop_the_answer(n: int, language: str, scenario: str, reply: str) -> str:
    """The sentences that name the step asked (its lesson, the reviews' count, any course) left out."""
    wanted = record(scenario)
    needles = [t.lower() for t in wanted.answer_titles]
    if wanted.answer_count:
        needles += [str(wanted.answer_count)] + [w for w, n in NUMBER_VALUES.items() if n == wanted.answer_count]
    kept = [s for s in sentences(reply) if not any(x in s.lower() for x in needles)]
    return "".join(kept).strip() or {"en": "Keep going, you're doing well!", "es": "¡Sigue así, vas bien!"}[language]


PLANTS = {
    **shared_plants(GOOD, RAMBLE, instructions_of("james/en/report")),
    "figure (number)": lambda n, lang, q, reply: wrong_number(n, lang, q, reply),
    "figure (percentage)": lambda n, lang, q, reply: wrong_percent(n, lang, q, reply),
    "date": lambda n, lang, q, reply: wrong_date(n, lang, q, reply),
    "not_in_record (course)": lambda n, lang, q, reply: (
        reply + OTHER_COURSE[lang].format(title=OTHER_COURSES[lang][n % 3])
    ),
    "not_in_record (lesson)": lambda n, lang, q, reply: reply + OTHER_LESSON[lang],
    "unanswered": lambda n, lang, q, reply: drop_the_answer(n, lang, q, reply),
}
# the step dropped is planted where the record asks for one (not in "nothing is due today")
ANSWERED = [
    (lang, scenario, reply)
    for lang, scenario, reply in GOOD
    if record(scenario).answer_titles or record(scenario).answer_count
]


def planted_table():
    caught, missed = planted_caught(GOOD, {k: v for k, v in PLANTS.items() if k != "unanswered"}, verdict)
    dropped, missed_drops = planted_caught(ANSWERED, {"unanswered": PLANTS["unanswered"]}, verdict)
    return caught + dropped, missed + missed_drops


# measured on the replies of tests/tutor/progress_replies.py (rounds as it says): good flagged of 36, planted defects
# caught of 394 (10 kinds x 36 + the step dropped from the 34 that ask for one; the one left is a reply the [1]
# plant leaves unchanged: it has no sentence end followed by a space), round 2's bad caught of 33; round 3's good
# flagged of 10 (1 until session 24: James's Spanish due list quotes four English lesson titles, which the gate
# counted as the reply's words, so it read as English) and bad caught of 10
MEASURED = {"good flagged": 0, "planted caught": 393, "bad caught": 31, "round 3 good flagged": 0, "round 3 bad": 10}


def test_good_replies_pass():
    flagged = [(q, reply, v) for lang, q, reply in GOOD if (v := verdict(reply, q, lang))]
    print("good flagged", len(flagged), "of", len(GOOD), flagged)
    assert len(GOOD) >= 30 and {lang for lang, _, _ in GOOD} == {"es", "en"}
    assert len(flagged) <= MEASURED["good flagged"], flagged


def test_each_planted_defect_is_caught():
    caught, missed = planted_table()
    print("missed", missed)
    assert caught >= MEASURED["planted caught"], missed


def test_bad_replies_small_models_write_are_caught():
    caught, missed = bad_caught(BAD, verdict)
    assert len(BAD) >= 30 and caught >= MEASURED["bad caught"], missed
    # what SmolLM2-135M wrote in the real-model bench (session 23) to "What are my deadlines?" and to "What's my
    # next step?", shown as written before this check
    assert verdict("1. 2026-12-31\n2. 2027-08-14\n3. 2029-12-31", "harry/en/report", "en") is not None
    said = 'The learner asks: "What\'s my next step?"\n\nYou answer:\n"I\'m glad you\'re on board."'
    assert verdict(said, "james/en/next", "en") is not None


def test_the_untouched_third_round():
    flagged = [(q, reply, v) for lang, q, reply in ROUND3_GOOD if (v := verdict(reply, q, lang))]
    caught, missed = bad_caught(ROUND3_BAD, verdict)
    print("round 3: good flagged", len(flagged), flagged, "bad caught", caught, missed)
    assert len(flagged) <= MEASURED["round 3 good flagged"] and caught >= MEASURED["round 3 bad"]


def test_relative_dates_do_not_fail_a_good_reply():
    """ "today", "hoy", "now", "in 4 days": read by dateparser but not judged as dates (a figure in one still is);
    calendar dates and weekdays of the good replies all resolve to the record's."""
    said = [
        (how, span, verdict(reply, q, lang))
        for lang, q, reply in GOOD + ROUND3_GOOD
        for span, _, how in said_dates(reply, lang, TODAY)
    ]
    relative = [(span, v) for how, span, v in said if how == "relative"]
    judged = [(span, v) for how, span, v in said if how != "relative"]
    print(f"relative {len(relative)}, calendar or weekday {len(judged)}")
    assert len(relative) >= 30 and len(judged) >= 20
    assert not [span for span, v in relative if v == "date"] and not [span for span, v in judged if v == "date"]
    assert verdict("Your next step is your 10 reviews, due in 45 days.", "james/en/next", "en") == "figure"
