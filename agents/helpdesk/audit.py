"""The helpdesk audit log: one JSON line per decision, tool call and outcome (hashes, never raw text).

data_dir()/logs/helpdesk-audit.jsonl, rotated daily (helpdesk-audit.jsonl.YYYY-MM-DD), 30 days kept.
"""

from __future__ import annotations

import json
import threading
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

from agents.helpdesk.guards import sha
from agents.helpdesk.state import STATE_VERSION
from storage.db import data_dir

RETENTION_DAYS = 30
_lock = threading.Lock()
# Only these value types are written; anything else is replaced by its hash.
_SAFE = (int, float, bool, type(None))


def log_path() -> Path:
    folder = data_dir() / "logs"
    folder.mkdir(parents=True, exist_ok=True)
    return folder / "helpdesk-audit.jsonl"


def _rotate(path: Path, today: date) -> None:
    if not path.exists():
        return
    day = datetime.fromtimestamp(path.stat().st_mtime, UTC).date()
    if day == today:
        return
    path.rename(path.with_name(f"{path.name}.{day.isoformat()}"))
    cutoff = (today - timedelta(days=RETENTION_DAYS)).isoformat()
    for old in path.parent.glob(f"{path.name}.*"):
        if old.name.rsplit(".", 1)[-1] < cutoff:
            old.unlink(missing_ok=True)


def audit(
    event: str,
    *,
    at: float,
    session_id: str,
    chat_session_id: str | None = None,
    user_id: str | None = None,
    **fields,
) -> None:
    """Append one event at ``at`` (epoch seconds, the deps' clock); string values must be enum-like labels
    (short, no spaces) or get hashed."""
    line = {
        "ts": at,
        "event": event,
        "agent_session_id": str(session_id),
        "chat_session_id_hash": sha(chat_session_id) if chat_session_id else None,
        "user_id_hash": sha(user_id) if user_id else None,
        "state_version": STATE_VERSION,
    }
    for key, value in fields.items():
        if isinstance(value, _SAFE):
            line[key] = value
        elif isinstance(value, str) and len(value) <= 40 and " " not in value:
            line[key] = value
        else:
            line[key + "_hash"] = sha(json.dumps(value, default=str, sort_keys=True))
    with _lock:
        path = log_path()
        _rotate(path, datetime.fromtimestamp(at, UTC).date())
        with path.open("a", encoding="utf-8") as handle:
            handle.write(json.dumps(line, sort_keys=True) + "\n")


def tombstone(session_ids: set[str]) -> int:
    """Right to delete: lines of these sessions keep ts and event only, marked redacted."""
    changed = 0
    with _lock:
        for path in sorted(log_path().parent.glob("helpdesk-audit.jsonl*")):
            out = []
            for raw in path.read_text(encoding="utf-8").splitlines():
                line = json.loads(raw)
                if line.get("agent_session_id") in session_ids:
                    line = {"ts": line["ts"], "event": line["event"], "redacted": True}
                    changed += 1
                out.append(json.dumps(line, sort_keys=True))
            path.write_text("\n".join(out) + ("\n" if out else ""), encoding="utf-8")
    return changed


def read_events(session_id: str | None = None) -> list[dict]:
    path = log_path()
    if not path.exists():
        return []
    lines = [json.loads(raw) for raw in path.read_text(encoding="utf-8").splitlines() if raw.strip()]
    return [line for line in lines if session_id is None or line.get("agent_session_id") == session_id]
