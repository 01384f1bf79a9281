"""People for tests that build their own organisation: create a user, or refresh their profile.

The product creates people only through the demo loader (``storage.users.ensure_user``, which keeps
later edits) and the admin's writes; tests want one call that also resets a profile, so it lives here."""

from __future__ import annotations

from uuid import UUID

from psycopg.rows import class_row

from storage.users import USER_COLUMNS, User, hash_password


def upsert_user(
    conn,
    org_id: UUID,
    *,
    email: str,
    full_name: str,
    role: str,
    password: str,
    department: str | None = None,
    job_title: str | None = None,
    language: str = "es",
    is_active: bool = True,
) -> User:
    """Create the user, or refresh their profile (the password is kept once set)."""
    with conn.cursor(row_factory=class_row(User)) as cur:
        return cur.execute(
            f"""INSERT INTO users (org_id, email, full_name, role, password_hash, department, job_title,
                                   language, is_active)
                VALUES (%(org_id)s, %(email)s, %(full_name)s, %(role)s, %(hash)s, %(department)s,
                        %(job_title)s, %(language)s, %(is_active)s)
                ON CONFLICT (email) DO UPDATE SET full_name = EXCLUDED.full_name, role = EXCLUDED.role,
                    department = EXCLUDED.department, job_title = EXCLUDED.job_title,
                    language = EXCLUDED.language, is_active = EXCLUDED.is_active
                WHERE users.org_id = EXCLUDED.org_id
                RETURNING {USER_COLUMNS}""",
            {
                "org_id": org_id,
                "email": email.lower(),
                "full_name": full_name,
                "role": role,
                "hash": hash_password(password),
                "department": department,
                "job_title": job_title,
                "language": language,
                "is_active": is_active,
            },
        ).fetchone()
