"""'Assign to…' after publishing: the admin assistant's own confirm-gated write (preview, then execute on
confirm, audit-logged), called from the content studio instead of the chat."""

from __future__ import annotations

from uuid import UUID

from agents.admin.resolve import ToolContext, ToolError
from agents.admin.tools import execute_assign_course, prepare_assign_course
from agents.runtime.deps import AppDeps
from storage import users


class AssignError(ValueError):
    """Who or what to assign could not be resolved; one line, nothing changed."""


def employees(deps: AppDeps, admin: users.User) -> dict[str, str]:
    """Active people of the admin's organisation, id -> name, for the picker."""
    with deps.pool.connection() as conn:
        return {str(u.id): u.full_name for u in users.list_users(conn, admin.org_id) if u.is_active}


def _context(deps: AppDeps, conn, admin: users.User) -> ToolContext:
    return ToolContext(conn, admin.org_id, admin, admin.language, deps.now().date(), deps)


def preview(
    deps: AppDeps, admin: users.User, course_id: UUID | str, employee_ids: list[str], deadline: str | None = None
) -> dict:
    """What would change ({preview, rows, arguments}); writes nothing."""
    if not admin.is_admin:
        raise AssignError("admins only")
    with deps.pool.connection() as conn:
        try:
            return prepare_assign_course(
                _context(deps, conn, admin),
                {"course_id": str(course_id), "employee_ids": employee_ids, "deadline": deadline},
            )
        except ToolError as exc:
            raise AssignError(str(exc)) from exc


def confirm(deps: AppDeps, admin: users.User, arguments: dict) -> str:
    """Run the previewed assignment (idempotent: an existing enrollment keeps its progress)."""
    if not admin.is_admin:
        raise AssignError("admins only")
    with deps.pool.connection() as conn, conn.transaction():
        try:
            return execute_assign_course(_context(deps, conn, admin), arguments)["message"]
        except ToolError as exc:
            raise AssignError(str(exc)) from exc
