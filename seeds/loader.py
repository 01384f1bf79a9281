"""Load the demo organisation "acme" (Acme Retail): people, skills, documents, courses, learning
history and helpdesk tickets. Idempotent: a second load finds everything in place and changes nothing.
"""

from __future__ import annotations

import functools
import hashlib
import logging
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from psycopg_pool import ConnectionPool

from agents.ingestion.embeddings import VectorPack
from agents.ingestion.pipeline import ingest_file, passage_texts
from seeds import activity, courses
from seeds.item_history import ensure_item_history, refresh_item_statistics
from seeds.skill_history import ensure_skill_history
from seeds.tutor_questions import ensure_tutor_questions
from storage import seeding
from storage import skills as skill_store
from storage import tickets as ticket_store
from storage import users as user_store
from storage.users import User, ensure_org, hash_password, list_users

if TYPE_CHECKING:
    from agents.runtime.deps import Embedder

log = logging.getLogger(__name__)
SEEDS = Path(__file__).parent
DATA = SEEDS / "data"
DOCUMENTS = SEEDS / "documents"
# The demo's passage vectors (documents and tickets) for the bundled model, so a first start embeds
# nothing; a stale or foreign file is ignored and everything is embedded (python -m seeds --write-vectors).
VECTORS = SEEDS / "vectors.npz"
DOCUMENT_TYPES = (".md", ".pdf", ".docx")
ADMIN_PASSWORD = "skillnet-admin"
DEMO_PASSWORD = "skillnet-demo"
SIGN_INS = {"admin": "admin@acme.test", "employee": "lucia@acme.test", "employee_en": "james@acme.test"}


def _data(name: str):
    return courses.load_yaml(DATA / name)


def demo_slug() -> str:
    return _data("org.yaml")["org"]["slug"]


def document_paths() -> list[Path]:
    return sorted(path for path in DOCUMENTS.iterdir() if path.suffix in DOCUMENT_TYPES)


def load_demo(pool: ConnectionPool, *, embedder: Embedder, now: datetime | None = None) -> dict:
    """Load (or complete) the demo organisation; returns {"org", "counts", "users"}. ``embedder`` embeds the
    tickets the shipped pack lacks."""
    with pool.connection() as lock_conn, seeding.exclusive_load(lock_conn):
        return _load(pool, embedder, now or datetime.now(UTC))


def load_demo_if_empty(pool: ConnectionPool, *, embedder: Embedder) -> dict | None:
    """Load the demo only into a database without any organisation (first start of the app)."""
    with pool.connection() as lock_conn, seeding.exclusive_load(lock_conn):
        with pool.connection() as conn:
            if seeding.any_organization(conn):
                return None
        return _load(pool, embedder, datetime.now(UTC))


def _load(pool: ConnectionPool, embedder: Embedder, now: datetime) -> dict:
    spec = _data("org.yaml")
    with pool.connection() as conn:
        org = ensure_org(conn, spec["org"]["slug"], spec["org"]["name"], spec["org"]["default_language"])
        users = _ensure_people(conn, org.id, spec)
        skills = _ensure_skills(conn, org.id, spec, users, now)
        ensure_skill_history(conn, org.id, users, skills, now)
    admin = users[SIGN_INS["admin"]]

    # Ingestion manages its own transactions; unchanged files are skipped by content hash.
    known = VectorPack.load(VECTORS)
    documents = {
        path.name: ingest_file(pool, org.id, path, uploaded_by=admin.id, known_vectors=known).document_id
        for path in document_paths()
    }

    plan = _data("activity.yaml")
    with pool.connection() as conn:
        by_title, exercises = {}, {}
        for course_spec in courses.course_specs():
            course_id, course_exercises = courses.ensure_course(
                conn, org.id, course_spec, users=users, skills=skills, documents=documents
            )
            by_title[course_spec["title"]] = (course_id, course_spec["language"])
            exercises.update(course_exercises)
        for email, enrollments in plan["enrollments"].items():
            for alias, course_plan in enrollments.items():
                course_id, language = by_title[plan["courses"][alias]]
                activity.seed_enrollment(
                    conn,
                    org.id,
                    slug=org.slug,
                    user=users[email],
                    course_id=course_id,
                    language=language,
                    plan=course_plan,
                    explicit=plan["attempts"].get(email, {}),
                    exercises=exercises,
                    assigned_by=admin.id,
                    due_now=email in plan["reviews_due_now"],
                    now=now,
                )
        cohort = _data("item_history.yaml")["course"]
        ensure_item_history(
            conn,
            org.id,
            DATA / "item_history.yaml",
            slug=org.slug,
            users=users,
            course_id=by_title[cohort][0],
            exercises=exercises,
            assigned_by=admin.id,
            now=now,
        )
        refresh_item_statistics(conn, org.id, [course_id for course_id, _ in by_title.values()])
        _ensure_tickets(conn, embedder, org.id, org.slug, users, now)
        ensure_tutor_questions(conn, org.id, users, now)
        counts = seeding.table_counts(conn, org.id)
    return {
        "org": org.slug,
        "counts": counts,
        "users": {"admin": SIGN_INS["admin"], "employee": SIGN_INS["employee"]},
        "sign_ins": sign_ins(),
    }


def sign_ins() -> list[dict]:
    """Every demo person who can sign in: email, name, role, language and password (admins first)."""
    spec = _data("org.yaml")
    people = [(person, "admin", ADMIN_PASSWORD) for person in spec["admins"]]
    people += [(person, "employee", DEMO_PASSWORD) for person in spec["employees"] if person.get("active", True)]
    return [
        {
            "email": person["email"],
            "name": person["name"],
            "role": role,
            "language": person["language"],
            "password": password,
        }
        for person, role, password in people
    ]


def reset_demo(pool: ConnectionPool, *, embedder: Embedder) -> dict:
    """Delete the demo organisation with everything in it, then load it afresh."""
    with pool.connection() as lock_conn, seeding.exclusive_load(lock_conn):
        with pool.connection() as conn:
            seeding.delete_org(conn, demo_slug())
        return _load(pool, embedder, datetime.now(UTC))


@functools.cache
def demo_password_hash(password: str) -> str:
    """A demo password's hash, computed once a process (argon2 takes ~0.3 s a hash on purpose): a first start
    hashes both while the embedded server is being created (ui/startup.warm_up)."""
    return hash_password(password)


def hash_demo_passwords() -> None:
    for password in (ADMIN_PASSWORD, DEMO_PASSWORD):
        demo_password_hash(password)


def _ensure_people(conn, org_id, spec: dict) -> dict[str, User]:
    known = {user.email for user in list_users(conn, org_id, active_only=False)}
    people = [(person, "admin", ADMIN_PASSWORD) for person in spec["admins"]]
    people += [(person, "employee", DEMO_PASSWORD) for person in spec["employees"]]
    needed = {password for person, _, password in people if person["email"] not in known}
    hashes = {password: demo_password_hash(password) for password in needed}
    for person, role, password in people:
        user_store.ensure_user(
            conn,
            org_id,
            email=person["email"],
            full_name=person["name"],
            role=role,
            password_hash=hashes.get(password, ""),
            department=person["department"],
            job_title=person["title"],
            language=person["language"],
            is_active=person.get("active", True),
        )
    for department, names in spec["departments"].items():
        skill_store.ensure_department(conn, org_id, department, names)
    return {user.email: user for user in list_users(conn, org_id, active_only=False)}


def _ensure_skills(conn, org_id, spec: dict, users: dict[str, User], now: datetime) -> dict:
    spanish = spec["names_es"]
    skills = {
        name: skill_store.ensure_skill(
            conn,
            org_id,
            category=category,
            name=name,
            description=description,
            names={"en": name, "es": spanish[name]},
            category_names={"en": category, "es": spanish[category]},
        )
        for category, entries in spec["skills"].items()
        for name, description in entries.items()
    }
    verifier = users[SIGN_INS["admin"]].id
    for n, (email, levels) in enumerate(spec["matrix"].items()):
        for m, (skill, level) in enumerate(levels.items()):
            # experts were verified by HR; other levels mostly come from course checkpoints
            by_admin = level == "high" or (n + m) % 3 == 0
            skill_store.ensure_user_skill(
                conn,
                org_id,
                users[email].id,
                skills[skill],
                level=level,
                source="admin" if by_admin else "checkpoint",
                verified_by=verifier if by_admin else None,
                assessed_at=now - timedelta(days=7 + (n * 11 + m * 5) % 120),
            )
    return skills


def _ticket_text(ticket: dict) -> str:
    return f"{ticket['title']}\n{ticket['body']}"


def write_vectors() -> int:
    """Rewrite seeds/vectors.npz for the current model; returns how many vectors it holds."""
    texts = [text for path in document_paths() for text in passage_texts(path)]
    return VectorPack.write(VECTORS, texts + [_ticket_text(t) for t in _data("tickets.yaml")])


def _ensure_tickets(conn, embedder: Embedder, org_id, slug: str, users: dict[str, User], now: datetime) -> None:
    tickets = _data("tickets.yaml")
    keyed = {f"seed:{slug}:{hashlib.sha1(t['title'].encode()).hexdigest()[:12]}": t for t in tickets}
    missing = {key: t for key, t in keyed.items() if key not in ticket_store.seed_ticket_keys(conn, org_id)}
    if not missing:
        return
    vectors = embedder.embed_passages([_ticket_text(t) for t in missing.values()], known=VectorPack.load(VECTORS))
    for (key, ticket), vector in zip(missing.items(), vectors):
        closed = ticket.get("closed_days_ago")
        ticket_store.add_seed_ticket(
            conn,
            org_id,
            key=key,
            title=ticket["title"],
            body=ticket["body"],
            status=ticket["status"],
            severity=ticket["severity"],
            category=ticket["category"],
            resolution=ticket.get("resolution"),
            created_by=users[ticket["created_by"]].id,
            created_at=now - timedelta(days=ticket["days_ago"], hours=3),
            closed_at=now - timedelta(days=closed) if closed is not None else None,
            embedding=vector,
        )
