"""An admin's change to a write still waiting for the confirm (spec 000 §5.5): "wait, add María too",
"mejor con fecha del 30", "sin Priya", "make it high instead". Decided in code from the pending
action's own arguments, so the new preview keeps everything the admin did not change.

``amended_calls`` returns the calls to prepare again, or None when the message changes nothing the
pending write holds (a question, a new request: the preview then stays as it is).
"""

from __future__ import annotations

from datetime import date
from uuid import UUID

import psycopg

from agents.admin.deadlines import deadline_in
from agents.admin.names import OrgNames, words
from agents.admin.routing import WRITES, level_in, route
from core.names import fold

ADD_WORDS = {"add", "anade", "anadele", "agrega", "incluye", "include", "too", "tambien", "plus", "also", "ademas"}
REMOVE_WORDS = {"without", "sin", "remove", "quita", "quitale", "except", "excepto", "menos", "not", "no"}
INSTEAD_WORDS = {"instead", "rather", "mejor", "cambia", "change", "make", "vez", "lugar", "better"}


def amended_calls(
    conn: psycopg.Connection, org_id: UUID, message: str, pending: dict, today: date
) -> list[dict] | None:
    org = OrgNames.read(conn, org_id)
    asked = route(message, org)  # words only: no embedder
    if asked is not None and asked not in WRITES:
        return None  # "who knows Oracle?" under a preview is a question, not a change to it
    said = set(words(message))
    calls, changed = [], False
    for action in pending.get("actions") or [pending]:
        arguments = {key: value for key, value in action["arguments"].items() if value not in (None, "", [])}
        new = _amend(action["tool"], dict(arguments), message, said, org, today)
        changed = changed or new != arguments
        calls.append({"tool": action["tool"], "arguments": new})
    return calls if changed else None


def _amend(tool: str, arguments: dict, message: str, said: set[str], org: OrgNames, today: date) -> dict:
    if tool in ("assign_course", "archive_course") and said & INSTEAD_WORDS:
        courses = org.named(message, org.courses)
        if len(courses) == 1 and fold(courses[0]) != fold(arguments.get("course_title", "")):
            arguments.pop("course_id", None)
            arguments["course_title"] = courses[0]
    if tool == "assign_course":
        people = org.people_in(message)
        names = list(arguments.get("employee_names") or [])
        if people and said & REMOVE_WORDS:
            names = [n for n in names if fold(n) not in {fold(p) for p in people}]
        elif people and said & (ADD_WORDS | INSTEAD_WORDS):
            names = list(dict.fromkeys([*names, *people]))
        if names != arguments.get("employee_names"):
            arguments.pop("employee_ids", None)  # the names say who, the tool resolves them again
            arguments["employee_names"] = names
        if deadline := deadline_in(message, today):
            arguments["deadline"] = deadline.isoformat() if isinstance(deadline, date) else deadline
    if tool == "verify_skill" and (level := level_in(sorted(said))):
        arguments["level"] = level
    return arguments
