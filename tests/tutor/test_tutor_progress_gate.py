"""The progress reply's check in the turn (agents/tutor/progress_check.py, wired in nodes.generate_response), through
the real HTTP fake OpenAI server on the demo seeds: a reply that states what the learner's record does not hold is
replaced by the deterministic answer and the learner is told why; one written from the record is shown as written;
the deterministic answers of every demo learner pass the check and fit its budget."""

from __future__ import annotations

import json

import pytest

from agents.i18n import code_label, t
from agents.tutor import prompts
from agents.tutor.answers import progress_text
from agents.tutor.due_today import due_today, due_today_context, due_today_text
from agents.tutor.gate import AnswerGate
from agents.tutor.next_step import next_step, next_step_context, next_step_text
from agents.tutor.progress_check import PROGRESS_TOKENS, progress_check, record_of
from agents.tutor.retrieve import progress_context
from core.turns import Done, Fallback, Token
from storage import chat, users
from storage.progress import progress_summary
from tests.conftest import make_deps
from tests.fake_openai import Reply
from tests.tutor.conftest import by_name, run


def _model_says(fake, answer: str) -> None:
    def responder(request):
        if (request.get("response_format") or {}).get("type") == "json_object":
            return Reply(text=json.dumps({"intent": "progress"}))
        return Reply(text=answer, token_delay=0.002)

    fake.responder = responder


@pytest.mark.parametrize(
    "who, question, reply, reason",
    [  # what SmolLM2-135M wrote in the real-model bench (session 23), then the brief's examples
        ("james", "What are my deadlines?", "1. 2026-12-31\n2. 2027-08-14\n3. 2029-12-31", "date"),
        (
            "lucia",
            "What's my next step?",
            'The learner asks: "What\'s my next step?"\n\nYou answer: "Keep going."',
            None,
        ),
        ("james", "How am I doing?", "You have completed 80 % of Information Security Essentials.", "figure"),
        ("james", "What should I review today?", "You have some reviews due today. Keep it up!", "unanswered"),
        ("lucia", "¿Cómo voy en mis cursos?", "Vas muy bien en el curso de Excel avanzado, Lucía.", "not_in_record"),
    ],
)
def test_a_made_up_progress_reply_is_replaced_by_the_record(
    seeded_pool, request, fake_openai, who, question, reply, reason
):
    user = request.getfixturevalue(who)
    _model_says(fake_openai, reply)
    events, _ = run(user, question, seeded_pool)
    done, notice = by_name(events, Done), by_name(events, Fallback)
    assert done.engine == "offline" and done.fallback == notice.reason
    assert reason is None or done.fallback == reason  # the transcript names nothing of hers: its code is whichever
    language = "es" if question.startswith("¿") else "en"  # the question's, as the answer's
    assert notice.message == t(
        "engine.fallback_notice", language, reason=code_label("fallback", done.fallback, language)
    )
    assert code_label("fallback", done.fallback, "es") != done.fallback  # a reason the learner can read
    start = [type(e) for e in events].index(Fallback)
    replacement = "".join(e.text for e in events[start:] if isinstance(e, Token))
    with seeded_pool.connection() as conn:
        session = chat.list_sessions(conn, user.org_id, user.id, "tutor")[0]
        saved = chat.list_messages(conn, user.org_id, session.id)[-1]
    assert saved.content == replacement and reply not in saved.content
    assert saved.metadata["fallback"] == done.fallback and saved.metadata["engine"] == "offline"


def test_a_reply_from_the_record_is_shown_as_written_and_asked_short(seeded_pool, lucia, fake_openai):
    deps = make_deps(seeded_pool)
    with seeded_pool.connection() as conn:
        progress = progress_summary(conn, lucia.org_id, lucia.id, lang="es")
        due = due_today(conn, lucia.org_id, lucia.id, progress, deps.now())
    first = due["lessons"][0]
    reply = f"Hoy te tocan {due['reviews']} repasos; empieza por «{first['lesson']}» de «{first['course']}»."
    _model_says(fake_openai, reply)
    events, text = run(lucia, "¿Qué me toca repasar hoy?", seeded_pool)
    done = by_name(events, Done)
    assert done.fallback is None and done.engine.startswith("openai:") and text == reply
    generator = [r for r in fake_openai.chat_requests if not r.get("response_format")][-1]
    assert generator["max_tokens"] == PROGRESS_TOKENS["due_today"]


def test_a_faithful_spanish_reply_quoting_its_titles_again_and_in_english_is_shown(seeded_pool, james, fake_openai):
    """James asks in Spanish: his courses have Spanish titles, his lessons English ones. A report that names his
    course line after line, and a due list of English lesson titles, were taken for a loop and for English (the gate
    counted the record's titles as the reply's words); both are shown as the model wrote them."""
    deps = make_deps(seeded_pool)
    with seeded_pool.connection() as conn:
        progress = progress_summary(conn, james.org_id, james.id, lang="es")
        due = due_today(conn, james.org_id, james.id, progress, deps.now())
    course = next(e for e in progress["enrollments"] if e["status"] == "in_progress")
    report = (
        f"Así vas, James: en «{course['course']}» llevas un {course['progress']:.0%}.".replace("%", " %")
        + f" En «{course['course']}» te quedan lecciones por hacer, y hoy tienes {progress['reviews_due']} repasos."
        + f" Si terminas «{course['course']}» antes de la fecha límite, vas bien."
    )
    items = [f"{item['count']} de «{item['lesson']}»" for item in due["lessons"]]
    due_list = f"Tienes {due['reviews']} repasos hoy: {', '.join(items[:-1])} y {items[-1]}."
    for question, reply in (("¿Cómo voy en mis cursos?", report), ("¿Qué me toca repasar hoy?", due_list)):
        _model_says(fake_openai, reply)
        events, text = run(james, question, seeded_pool)
        done = by_name(events, Done)
        assert done.fallback is None and done.engine.startswith("openai:") and text == reply, (done.fallback, reply)


def test_the_deterministic_answers_of_every_demo_learner_pass(seeded_pool):
    """The twin's three answers (next step, today's reviews, the report), in both languages, for every employee of
    the demo organisation on today's seeds: the whole gate flags none (its loop check too: a Spanish report of three
    finished courses says "completado, fecha límite" after each title), each within its budget."""
    deps = make_deps(seeded_pool)
    now = deps.now()
    flagged, judged = [], 0
    with seeded_pool.connection() as conn:
        org = users.get_org_by_slug(conn, "acme")
        assert org is not None
        for user in users.list_users(conn, org.id, role="employee"):
            name = user.full_name.split()[0]
            for language in ("es", "en"):
                progress = progress_summary(conn, org.id, user.id, lang=language)
                step = next_step(conn, org.id, user.id, progress, now)
                due = due_today(conn, org.id, user.id, progress, now)
                turns = [
                    ({"next_step": step, "context": next_step_context(step)}, next_step_text(step, language)),
                    ({"due_today": due, "context": due_today_context(due)}, due_today_text(due, language)),
                    (
                        {"progress": progress, "context": progress_context(progress)},
                        progress_text(progress, name, language),
                    ),
                ]
                for state, answer in turns:
                    record = record_of(state, now.date(), [name, org.name])
                    system = prompts.SYSTEM.format(
                        org_name=org.name,
                        user_name=name,
                        grounding_rule=prompts.GROUNDING_RULES["db"],
                        language_name={"es": "Spanish", "en": "English"}[language],
                    )
                    judged += 1
                    gate = AnswerGate(
                        language=language,
                        max_tokens=PROGRESS_TOKENS[record.kind],
                        needs_citation=False,
                        judge=progress_check(record, language, system),
                        titles=record.titles,
                    )
                    gate.feed(answer)
                    if verdict := gate.finish("complete", "stop"):  # the whole gate: loop, length, language, check
                        flagged.append((user.email, language, record.kind, verdict, answer))
    assert judged >= 60 and not flagged, flagged
