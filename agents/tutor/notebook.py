"""Retrieval and tutor QA from a notebook, as pandas DataFrames (docs/retrieval_qa.ipynb shows it).

    from agents.tutor import notebook as qa
    qa.search("¿Cuántos días tengo para devolver un producto?")             # one row per passage found
    qa.retrieval_eval("seeds/eval/retrieval.jsonl")                          # one row per question
    qa.ask(["How long is a gift receipt valid?"], user="james@acme.test")    # one row per question
    frame = qa.answers_eval("seeds/eval/answers/questions.jsonl", split="heldout")
    qa.answer_figures(frame)                                                 # facts, abstention, … per slice

Start Jupyter in the repository root (``jupyter lab`` there) or put the root on ``sys.path``: the
product's packages are imported from it, and the database is the process's (``DATABASE_URL``, else the
embedded one under ``SKILLNET_DATA_DIR``, ``./.skillnet``). It lives in the tutor's package because it
uses both the tutor and retrieval, and only a feature may use a shared service (pyproject.toml).
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from agents.retrieval.notebook import retrieval_eval, search
from agents.runtime.deps import AppDeps, process_deps
from agents.tutor import answer_eval, service
from core.turns import Citations, Done, Error, Fallback, Grounding, Token
from storage import users

__all__ = ["answer_figures", "answers_eval", "ask", "retrieval_eval", "search"]

ASK_COLUMNS = ["question", "answer", "rung", "source", "engine", "fallback", "citations", "first_cited", "section"]
SPANISH_ASKER, ENGLISH_ASKER = "lucia@acme.test", "james@acme.test"  # the demo learners, as the CLI


def _user(deps: AppDeps, email: str) -> users.User:
    with deps.pool.connection() as conn:
        found = users.get_user_by_email(conn, email)
    if found is None:
        raise ValueError(f"no user with the email {email!r}")
    return found


def _turn(deps: AppDeps, user: users.User, question: str, course: str | None) -> dict:
    text, citations, row = "", [], {"question": question, "fallback": None}
    for event in service.run_to_answer(deps, user, question, course=course, rate_limit=answer_eval.RATE_LIMIT):
        if isinstance(event, Token):
            text += event.text
        elif isinstance(event, Fallback):  # the model's text is void; the twin's answer follows
            text = ""
        elif isinstance(event, Grounding):
            row.update(rung=event.rung, source=event.source)
        elif isinstance(event, Citations):
            citations = event.citations
        elif isinstance(event, Done):
            row.update(engine=event.engine, fallback=event.fallback)
        elif isinstance(event, Error):
            raise ValueError(event.message)
    first = citations[0] if citations else {}
    return row | {
        "answer": text,
        "citations": [f"[{c['index']}] {c['document']} › {c.get('section') or ''}".rstrip(" ›") for c in citations],
        "first_cited": first.get("document"),
        "section": first.get("section"),
    }


def ask(
    questions: str | list[str],
    user: str = SPANISH_ASKER,
    *,
    course: str | None = None,
    deps: AppDeps | None = None,
) -> pd.DataFrame:
    """Each question asked of the tutor as ``user`` (an email; ``course`` a title or id in view), each in
    a new conversation: the answer, the grounding rung and source, the engine (``offline`` or the
    model's name), the fallback reason if the twin replaced the model, and the citations."""
    deps = deps or process_deps()
    asker = _user(deps, user)
    asked = [questions] if isinstance(questions, str) else list(questions)
    return pd.DataFrame([_turn(deps, asker, question, course) for question in asked], columns=ASK_COLUMNS)


def answers_eval(
    path: str | Path,
    *,
    split: str | None = None,
    limit: int | None = None,
    engines: tuple[str, ...] = answer_eval.ENGINES,
    es_user: str = SPANISH_ASKER,
    en_user: str = ENGLISH_ASKER,
    deps: AppDeps | None = None,
) -> pd.DataFrame:
    """The answer eval (``python -m agents.tutor answers``): one row per question and engine (``tutor``,
    the naive ``anchor``), with the answer, whether it holds every fact, abstained, and cites the
    answering chunk first. ``limit`` keeps the first questions of the file (after ``split``); Spanish
    questions are asked by ``es_user`` (Lucía), English ones by ``en_user`` (James)."""
    deps = deps or process_deps()
    items = answer_eval.load(path, split)
    items = items[:limit] if limit else items
    by_language = dict(es=_user(deps, es_user), en=_user(deps, en_user))
    report = answer_eval.evaluate(deps, by_language, items, engines=engines)
    rows = []
    for item in report["items"]:
        for engine in engines:
            result = item[engine]
            rows.append(
                {
                    **{key: item[key] for key in ("id", "pair", "lang", "set", "split", "question", "document")},
                    "engine": engine,
                    "answer": result["answer"],
                    "holds_facts": result["holds"] if item["document"] else None,
                    "abstained": result["abstained"],
                    "first_document": result["first_document"],
                    "first_on_answering_chunk": result["first_ok"] if item["document"] else None,
                }
            )
    frame = pd.DataFrame(rows)
    frame.attrs["figures"] = report["figures"]
    return frame


def answer_figures(frame: pd.DataFrame) -> pd.DataFrame:
    """The eval's figures (facts, abstention, false grounding, first citation, parity) per engine and
    slice (all, es, en, each document set) as a table."""
    return pd.DataFrame(
        [
            {"engine": engine, "slice": name, **figures}
            for engine, slices in frame.attrs["figures"].items()
            for name, figures in slices.items()
        ]
    ).set_index(["engine", "slice"])
