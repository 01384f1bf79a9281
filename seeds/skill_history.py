"""The demo's skills over time: earlier levels and certification expiries (seeds/data/skill_history.yaml)."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path
from uuid import UUID

import psycopg

from seeds.courses import load_yaml
from storage import skill_history
from storage.users import User

HISTORY = Path(__file__).parent / "data" / "skill_history.yaml"


def ensure_skill_history(
    conn: psycopg.Connection, org_id: UUID, users: dict[str, User], skills: dict[str, UUID], now: datetime
) -> None:
    spec = load_yaml(HISTORY)
    for event in spec["history"]:
        skill_history.record_past_level(
            conn,
            org_id,
            users[event["user"]].id,
            skills[event["skill"]],
            level=event["level"],
            source=event["source"],
            changed_at=now - timedelta(days=event["days_ago"]),
        )
    for expiry in spec["expiries"]:  # a later load keeps the dates already set
        skill_history.set_expiry(
            conn,
            org_id,
            users[expiry["user"]].id,
            skills[expiry["skill"]],
            (now + timedelta(days=expiry["days_from_now"])).date(),
            unless_set=True,
        )
