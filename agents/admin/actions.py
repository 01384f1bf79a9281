"""Writes from the admin pages (the Employees page): the assistant's own write tools, through the same
preview → confirm path — a pending action row that only a confirm of its id executes, once, audited.

``propose`` prepares the tool (resolve, check, preview) and holds it as a pending action outside any
chat session; ``confirm`` runs it through ``nodes.execute_confirmed``, exactly as the assistant does
after its Confirm button; ``cancel`` drops it. Nothing here writes without that confirm.
"""

from __future__ import annotations

from dataclasses import dataclass

from agents.admin.gate import invalid_arguments
from agents.admin.nodes import execute_confirmed
from agents.admin.resolve import ToolContext, ToolError, jsonable
from agents.admin.service import AdminInputError, verified_admin
from agents.admin.tools import TOOLS_BY_NAME, WRITE_TOOLS
from agents.i18n import t
from agents.runtime.deps import AppDeps
from storage import courses as course_store
from storage import pending_actions
from storage import skills as skill_store
from storage.users import User

PAGE_TOOLS = ("assign_course", "verify_skill", "deactivate_employee")


@dataclass(frozen=True)
class Proposal:
    id: str
    tool: str
    preview: str


@dataclass(frozen=True)
class WriteOptions:
    courses: dict[str, str]  # course id -> title (courses that can be assigned)
    skills: dict[str, str]  # canonical skill name -> name in the admin's language


def _context(conn, deps: AppDeps, user: User) -> ToolContext:
    admin = verified_admin(conn, user)
    return ToolContext(conn, admin.org_id, admin, admin.language, deps.now().date(), deps)


def options(deps: AppDeps, user: User) -> WriteOptions:
    with deps.pool.connection() as conn:
        ctx = _context(conn, deps, user)
        courses = {
            str(c.id): c.title for c in course_store.list_course_summaries(conn, ctx.org_id) if c.status != "archived"
        }
        skills = {s.name: s.name_in(ctx.lang) for s in skill_store.list_skills(conn, ctx.org_id)}
    return WriteOptions(courses, skills)


def propose(deps: AppDeps, user: User, tool: str, arguments: dict) -> Proposal:
    """The preview of ``tool`` with ``arguments``, held for a confirm; AdminInputError (one line, nothing
    held) when the tool is no page write, the arguments don't fit, or the tool refuses (unknown name…)."""
    if tool not in WRITE_TOOLS or tool not in PAGE_TOOLS:
        raise AdminInputError(t("admin.actions.unknown", user.language, tool=tool))
    spec = TOOLS_BY_NAME[tool]
    if invalid := invalid_arguments(spec.parameters, arguments):
        raise AdminInputError(f"{tool}: {invalid}")
    with deps.pool.connection() as conn:
        ctx = _context(conn, deps, user)
        try:
            prepared = spec.run(ctx, dict(arguments))
        except ToolError as exc:
            raise AdminInputError(str(exc)) from None
        action = pending_actions.create_pending(
            conn,
            ctx.org_id,
            ctx.admin.id,
            None,
            tool=tool,
            arguments=prepared["arguments"],
            preview=prepared["preview"],
        )
    return Proposal(str(action.id), tool, prepared["preview"])


def confirm(deps: AppDeps, user: User, action_id: str) -> str:
    """Run the proposed write once; its one-line result. A second confirm, another admin's or a
    cancelled action writes nothing and says so."""
    try:
        with deps.pool.connection() as conn:  # the claim and the write commit together, or neither does
            ctx = _context(conn, deps, user)
            action = pending_actions.get_pending(conn, ctx.org_id, ctx.admin.id, action_id)
            if action is None or action.session_id is not None:  # the assistant's own confirm in its chat
                raise AdminInputError(t("common.not_found", ctx.lang))
            result = execute_confirmed(ctx, action_id)
    except ToolError as exc:
        raise AdminInputError(str(exc)) from None
    if result is None:
        key = "admin.phrase.already_done" if action.status == "executed" else "admin.phrase.not_pending"
        raise AdminInputError(t(key, ctx.lang))
    return jsonable(result)["message"]


def cancel(deps: AppDeps, user: User, action_id: str) -> None:
    with deps.pool.connection() as conn:
        ctx = _context(conn, deps, user)
        action = pending_actions.get_pending(conn, ctx.org_id, ctx.admin.id, action_id)
        if action is not None and action.session_id is None and action.status == "pending":
            pending_actions.cancel_pending(conn, ctx.org_id, ctx.admin.id, None)
