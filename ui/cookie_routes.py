"""The session cookie, set by the server: HttpOnly (no script in the page can read it), SameSite=Strict,
Secure over https.

A Streamlit script cannot answer with headers: it runs on the page's websocket, after the page's HTTP
response has gone. So a script that signs someone in or out hands the change to this module under a
one-time code, and draws a 1-pixel image whose address is that code; the browser's request for the
image reaches the route below, which answers with the Set-Cookie header. Nothing runs in the page.

The route is added to Streamlit's own server through ``st.App`` (app.py). Codes live in this process
only, for two minutes and one use: the script and the route share a process (several app processes
behind a load balancer need it to keep a browser on one of them, as Streamlit's websocket does anyway).
It imports nothing heavy: the server imports it before its first page.
"""

from __future__ import annotations

import secrets
import threading
import time
from dataclasses import dataclass

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from core import config

COOKIE = "skillnet_session"
PATH = "auth/cookie/"  # relative to the page's address (and so under server.baseUrlPath)
CODE_SECONDS = 120
# the smallest transparent GIF: an image that draws nothing (a broken-image icon would show otherwise)
_PIXEL = bytes.fromhex("47494638396101000100800000000000ffffff21f90401000000002c000000000100010000020144003b")


@dataclass
class _Handoff:
    token: str | None  # None: clear the cookie (signed out)
    expires: float
    redeemed: bool = False


_handoffs: dict[str, _Handoff] = {}
_lock = threading.Lock()


def hand_off(token: str | None) -> str:
    """A one-time code that sets the cookie to ``token`` (or clears it, for None) when fetched."""
    code = secrets.token_urlsafe(24)
    now = time.monotonic()
    with _lock:
        for old in [c for c, h in _handoffs.items() if h.expires < now]:
            del _handoffs[old]
        _handoffs[code] = _Handoff(token, now + CODE_SECONDS)
    return code


def waiting(code: str) -> bool:
    """The browser has not fetched this code yet, and still can."""
    with _lock:
        handoff = _handoffs.get(code)
        return handoff is not None and not handoff.redeemed and handoff.expires >= time.monotonic()


def image_html(code: str) -> str:
    return f'<img src="{PATH}{code}" alt="" width="1" height="1" style="display:block">'


def _redeem(request: Request) -> Response:
    with _lock:
        handoff = _handoffs.get(request.path_params["code"])
        if handoff is None or handoff.redeemed or handoff.expires < time.monotonic():
            return Response(status_code=404, headers={"Cache-Control": "no-store"})
        handoff.redeemed = True
    response = Response(_PIXEL, media_type="image/gif", headers={"Cache-Control": "no-store"})
    secure = request.url.scheme == "https"
    if handoff.token is None:
        response.delete_cookie(COOKIE, path="/", secure=secure, httponly=True, samesite="strict")
    else:
        response.set_cookie(
            COOKIE,
            handoff.token,
            max_age=config.get("SKILLNET_SESSION_MAX_HOURS") * 3600,
            path="/",
            secure=secure,
            httponly=True,
            samesite="strict",
        )
    return response


def routes(base_url_path: str | None) -> list[Route]:
    """The cookie route under Streamlit's ``server.baseUrlPath`` (st.App adds user routes unprefixed)."""
    base = "/" + base_url_path.strip("/") if base_url_path and base_url_path.strip("/") else ""
    return [Route(f"{base}/{PATH}{{code}}", _redeem, methods=["GET"])]
