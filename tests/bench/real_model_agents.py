"""The scenarios of tests/bench/real_model.py, one ``run`` and one ``judge`` per agent.

``run(ctx, engine, scenario)`` drives the agent once through its service, exactly as a page or the
CLI does; the driver calls it for the offline twin (the anchor) and for the model, each under its own
time limit. ``judge(ctx, scenario, result)`` turns the model's result into a record: ``outcome``
(``model`` = used as the model wrote it, ``twin`` = replaced, ``failed``), the ``reason`` it was
replaced, and the ``failures`` issue 13 forbids.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

TUTOR = [  # (learner, question): grounded es/en, progress, chitchat, off-topic
    ("lucia", "¿Cuántos días hay para devolver un portátil o una tablet abiertos?"),
    ("james", "How many days does a customer have to return a product?"),
    ("lucia", "¿Cuál es el precio máximo por noche de hotel?"),
    ("james", "What is the maximum hotel price per night?"),
    ("lucia", "¿Cuántos caracteres debe tener una contraseña?"),
    ("james", "What does the password standard require?"),
    ("lucia", "¿Qué es el método ACRE para atender una consulta?"),
    ("james", "What are the steps of the ACRE method?"),
    ("lucia", "¿Qué equipos de protección individual son obligatorios en el almacén?"),
    ("james", "Which personal protective equipment is mandatory in the warehouse?"),
    ("lucia", "¿Cómo se presenta la nota de gastos?"),
    ("james", "How do I report a phishing email?"),
    ("lucia", "¿Qué hago si un cliente está muy enfadado?"),
    ("james", "What must I do before my first day?"),
    ("lucia", "¿Qué hay de menú hoy en la cantina?"),  # no document answers it: the general rung
    ("lucia", "¿Cómo voy en mis cursos?"),
    ("james", "What are my deadlines?"),
    ("james", "How am I doing?"),
    ("lucia", "What's my next step?"),
    ("lucia", "¿Qué me toca repasar hoy?"),
    ("lucia", "hola"),
    ("james", "thank you"),
    ("lucia", "¿Quién ganó la liga?"),
    ("james", "Tell me a joke"),
]
ADMIN_READS = [
    "Who knows Excel?",
    "¿Quién sabe manejar la carretilla elevadora?",
    "Show me the skills matrix",
    "What are the skill gaps?",
    "List the published courses",
    "¿Qué alertas hay?",
    "Suggest mentors for the team",
    "How is Priya doing?",
    "Stats for the security essentials course",
    "List the employees called Carmen",
]
# The seeded course by its full title: each content run publishes another "Returns and Refunds Policy", so
# on a resumed bench database "the Returns and Refunds course" names several and rightly gets "which one?".
ADMIN_WRITES = [
    "Assign the Returns and Refunds Essentials course to Ryan with deadline 2099-01-15",
    "Verify Tom Baker's LOTO skill at high level",
    "Archive the course Seguridad en el almacén",
]
HELPDESK = [
    ("james", "Oracle Financials returns 403 on budget reports", "duplicate"),
    ("ana", "Mi portátil no arranca y la pantalla parpadea", None),
    ("james", "The VPN disconnects every ten minutes since this morning", None),
    ("ana", "No puedo imprimir en la impresora de la segunda planta", None),
    ("james", "Outlook calendar does not sync on my phone", None),
    ("ana", "¿Cómo cambio mi contraseña del correo?", None),
]
# Three pages of a real policy (about 900 words, six sections): big enough for a plan with several
# modules, small enough that a 135M model on a shared 2-core machine writes it in minutes, not hours.
CONTENT_DOCUMENT = ROOT / "seeds" / "documents" / "returns_policy.md"


@dataclasses.dataclass
class Context:
    pool: object
    offline: object
    llm: object


def person(ctx: Context, name: str):
    from storage import users

    with ctx.pool.connection() as conn:
        return users.get_user_by_email(conn, f"{name}@acme.test")


def scenarios(tutor_count: int, questions: list[str] | None = None) -> list[tuple[str, str, str, tuple]]:
    """(agent, id, what a person typed or uploaded, scenario) in the order they run: one agent after the other;
    ``questions``: only the tutor questions that hold one of these texts."""
    rows = [
        ("tutor", f"tutor:{n:02d}", item[1], item)
        for n, item in enumerate(TUTOR[:tutor_count], 1)
        if not questions or any(text.lower() in item[1].lower() for text in questions)
    ]
    rows += [("admin", f"admin:read:{n:02d}", text, (text, False)) for n, text in enumerate(ADMIN_READS, 1)]
    rows += [("admin", f"admin:write:{n:02d}", text, (text, True)) for n, text in enumerate(ADMIN_WRITES, 1)]
    rows += [("helpdesk", f"helpdesk:{n:02d}", item[1], item) for n, item in enumerate(HELPDESK, 1)]
    rows.append(("content", "content:01", CONTENT_DOCUMENT.name, (str(CONTENT_DOCUMENT),)))
    return rows


# -- tutor ----------------------------------------------------------------------------------------
def run_tutor(ctx: Context, engine, scenario) -> dict:
    from agents.i18n import t
    from agents.runtime.deps import AppDeps
    from agents.tutor import service
    from core.turns import Done
    from storage import chat

    name, question = scenario
    learner = person(ctx, name)
    deps = AppDeps(pool=ctx.pool, llm=engine)
    session = service.new_session(deps, learner)
    events = list(service.run_turn(deps, learner, question, session_id=session.id, rate_limit=10**6))
    if any(isinstance(e, Done) and e.guided == "ask" for e in events):  # a guided course asks first: the way out
        reveal = t("tutor.guide.reveal", learner.language)
        events = list(service.run_turn(deps, learner, reveal, session_id=session.id, rate_limit=10**6))
    with ctx.pool.connection() as conn:
        messages = chat.list_messages(conn, learner.org_id, session.id)
    saved = messages[-1] if messages and messages[-1].role == "assistant" else None
    return {"events": events, "saved": saved}


def judge_tutor(ctx: Context, scenario, result: dict) -> dict:
    from agents.tutor.gate import _words, repeated_phrase
    from core.turns import Done, Error

    end = next((e for e in result["events"] if isinstance(e, (Done, Error))), None)
    if not isinstance(end, Done) or result["saved"] is None:
        return {"outcome": "failed", "failures": [f"no answer: {end and end.message}"]}
    done, saved = end, result["saved"]
    meta = saved.metadata
    failures = []
    if repeated_phrase(_words(saved.content)):
        failures.append("stored with a repeated phrase")
    academic = meta.get("intent") in ("in_course", "cross_course") and meta.get("rung") in ("chunks", "document")
    if academic and not meta.get("citations") and not meta.get("hint_mode"):
        failures.append("stored with 0 citations while passages existed")
    if done.fallback:
        outcome, reason = "twin", done.fallback
    elif done.engine == "offline":
        outcome, reason = "twin", "model gave nothing"
    else:
        outcome, reason = "model", None
    return {
        "outcome": outcome,
        "reason": reason,
        "failures": failures,
        "engine": done.engine,
        "low_confidence": done.low_confidence,
        "citations": len(meta.get("citations") or []),
        # what the model wrote (the tokens before the gate's verdict) and what the learner was left with: to read
        "model_text": _model_text(result["events"]),
        "answer": saved.content,
    }


def _model_text(events: list) -> str:
    from core.turns import Fallback, Token

    shown = []
    for event in events:
        if isinstance(event, Fallback):
            break
        if isinstance(event, Token):
            shown.append(event.text)
    return "".join(shown)


# -- admin ----------------------------------------------------------------------------------------
def run_admin(ctx: Context, engine, scenario) -> dict:
    from agents.admin import service
    from agents.runtime.deps import AppDeps

    message, is_write = scenario
    admin = person(ctx, "admin")
    deps = AppDeps(pool=ctx.pool, llm=engine)
    reply = service.ask(deps, admin, message)
    confirmed = None
    if is_write and reply.pending and engine is ctx.llm:  # the anchor previews only: one write per scenario
        confirmed = service.ask(deps, admin, session_id=reply.session, confirm=reply.pending["id"])
    return {"reply": reply, "confirmed": confirmed}


def judge_admin(ctx: Context, scenario, result: dict) -> dict:
    message, is_write = scenario
    reply, confirmed = result["reply"], result["confirmed"]
    failures, already = [], False
    if not is_write and not any("error" not in call["result"] for call in reply.tool_calls):
        failures.append(f"no tool result ({[call['result'].get('error') for call in reply.tool_calls]})")
    if is_write and not reply.pending:
        # the twin asked the same now tells the model's miss from a write this database already holds (a
        # resumed bench database keeps the confirmed writes of the run it continues: "already archived")
        already = not run_admin(ctx, ctx.offline, scenario)["reply"].pending
        if not already:
            failures.append("no preview to confirm")
    elif is_write and (not confirmed or not confirmed.executed or "error" in confirmed.executed[0]["result"]):
        failures.append("confirm did not execute")
    if reply.fallback:
        outcome, reason = "twin", reply.fallback
    elif reply.engine == "offline":
        outcome, reason = "twin", "model failed"
    else:
        outcome, reason = "model", None
    return {
        "outcome": outcome,
        "reason": reason,
        "failures": failures,
        "engine": reply.engine,
        "tools": [call["tool"] for call in reply.tool_calls],
        **({"already_made": True} if already else {}),
    }


# -- helpdesk -------------------------------------------------------------------------------------
def run_helpdesk(ctx: Context, engine, scenario) -> dict:
    from agents.helpdesk import service
    from agents.runtime.deps import AppDeps

    name, report, _ = scenario
    return {"turn": service.start(AppDeps(pool=ctx.pool, llm=engine), person(ctx, name), report)}


def judge_helpdesk(ctx: Context, scenario, result: dict) -> dict:
    _, report, expected = scenario
    turn = result["turn"]
    failures = []
    if turn.kind == "aborted":
        failures.append(f"aborted ({turn.reason})")
    if expected and turn.kind != expected:
        failures.append(f"ended {turn.kind}, expected {expected}")
    replaced = turn.reason in ("deadline", "budget_exhausted")
    return {
        "outcome": "twin" if replaced else "model",
        "reason": turn.reason if replaced else None,
        "failures": failures,
        "kind": turn.kind,
        "actions": turn.actions,
    }


# -- content --------------------------------------------------------------------------------------
FINAL = ("published", "rejected", "failed", "cancelled")


def run_content(ctx: Context, engine, scenario) -> dict:
    """Ingest, plan, write, and approve both checkpoints as an admin would in the studio."""
    from agents.content import decisions, service
    from agents.ingestion.pipeline import ingest_file
    from agents.runtime.deps import AppDeps

    admin = person(ctx, "admin")
    deps = AppDeps(pool=ctx.pool, llm=engine)
    document = ingest_file(ctx.pool, admin.org_id, Path(scenario[0]))
    job_id = service.start_job(deps, admin, [document.document_id])
    while True:  # run_job returns at a checkpoint, at the end, or after its own timeout (then again)
        job = service.run_job(deps, admin.org_id, job_id)
        if job.status in FINAL:
            return {"summary": service.job_summary(deps, admin.org_id, job_id)}
        if job.status == "awaiting_structure_review":
            decisions.review_structure(deps, admin, job_id, "approve")
        elif job.status == "awaiting_final_review":
            # the explicit tick the final review asks for when the twin wrote modules (listed in the summary)
            decisions.review_final(deps, admin, job_id, "approve", accept_template_modules=True)


def judge_content(ctx: Context, scenario, result: dict) -> dict:
    summary = result["summary"]
    templated = summary.get("template_modules") or []
    failures = [] if summary.get("status") == "published" else [f"job ended {summary.get('status')}"]
    written = max(0, (summary.get("modules") or 0) - len(templated))
    return {
        "outcome": "model" if not templated else "twin" if not written else "mixed",
        "reason": "template" if templated else None,
        "units": {"model": written, "template": len(templated)},
        "failures": failures,
        "template_modules": templated,
        "module_engines": summary.get("module_engines"),
        "status": summary.get("status"),
    }


RUNNERS = {
    "tutor": (run_tutor, judge_tutor),
    "admin": (run_admin, judge_admin),
    "helpdesk": (run_helpdesk, judge_helpdesk),
    "content": (run_content, judge_content),
}
