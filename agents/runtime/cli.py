"""What every CLI does first: build the process's AppDeps and find the user named by ``--user``.

On a database problem or an unknown email it prints the one-line reason and the caller exits 2."""

from __future__ import annotations

import sys

from agents.i18n import t
from agents.runtime.deps import AppDeps, process_deps
from storage import users
from storage.db import DatabaseError
from storage.users import User


def fail(reason: object) -> int:
    print(f"error: {reason}", file=sys.stderr)
    return 2


def deps_or_none() -> AppDeps | None:
    """The process's AppDeps, or None after printing why the database cannot be used."""
    try:
        return process_deps()
    except DatabaseError as exc:
        fail(exc)
        return None


def signed_in(email: str) -> tuple[AppDeps, User] | None:
    """The process's AppDeps and the user with ``email``, or None after printing the reason."""
    deps = deps_or_none()
    if deps is None:
        return None
    try:
        with deps.pool.connection() as conn:
            user = users.get_user_by_email(conn, email)
    except DatabaseError as exc:
        fail(exc)
        return None
    if user is None:
        fail(t("common.no_user_with_email", None, email=email))
        return None
    return deps, user
