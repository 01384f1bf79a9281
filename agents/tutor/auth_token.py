"""Signed, expiring tokens that carry a Streamlit sign-in into the Gradio chat.

A token is ``<payload>.<signature>``: the payload (base64url JSON: user id, org id, expiry) signed with
HMAC-SHA256. The secret comes from SKILLNET_SECRET, else a random one generated once into the data
directory, so every process of one installation agrees on it.
"""
from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import secrets
import time
from functools import cache
from uuid import UUID

from storage import config
from storage.db import data_dir

DEFAULT_TTL_SECONDS = 8 * 3600


@cache
def _secret() -> bytes:
    configured = config.get("SKILLNET_SECRET")
    if configured:
        return configured.encode()
    path = data_dir() / "secret"
    if not path.exists():
        # O_EXCL: two processes starting together keep the first one's secret.
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "w") as handle:
                handle.write(secrets.token_hex(32))
        except FileExistsError:
            pass
    return path.read_text().strip().encode()


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _sign(payload: str) -> str:
    return _b64(hmac.new(_secret(), payload.encode(), hashlib.sha256).digest())


def issue_token(user_id: UUID, org_id: UUID, *, ttl_seconds: int = DEFAULT_TTL_SECONDS,
                now: float | None = None) -> str:
    expires = int((now if now is not None else time.time()) + ttl_seconds)
    payload = _b64(json.dumps({"u": str(user_id), "o": str(org_id), "exp": expires}).encode())
    return f"{payload}.{_sign(payload)}"


def verify_token(token: str | None, *, now: float | None = None) -> tuple[UUID, UUID] | None:
    """(user_id, org_id) for a genuine, unexpired token; None for anything else."""
    try:
        payload, signature = (token or "").split(".")
        if not hmac.compare_digest(signature, _sign(payload)):
            return None
        claims = json.loads(_unb64(payload))
        if claims["exp"] < (now if now is not None else time.time()):
            return None
        return UUID(claims["u"]), UUID(claims["o"])
    except (ValueError, KeyError, TypeError):
        return None
