"""The route that sets the session cookie: HttpOnly and SameSite always, Secure over https, each code once."""

from __future__ import annotations

from starlette.applications import Starlette
from starlette.testclient import TestClient

from ui import cookie_routes


def _client(base_url: str) -> TestClient:
    return TestClient(Starlette(routes=cookie_routes.routes("/")), base_url=base_url)


def test_a_code_sets_an_httponly_strict_cookie_once_and_secure_over_https():
    code = cookie_routes.hand_off("the-session-id")
    assert cookie_routes.waiting(code)
    answer = _client("https://skillnet.example").get(f"/{cookie_routes.PATH}{code}")
    assert answer.status_code == 200 and answer.headers["content-type"] == "image/gif"
    flags = answer.headers["set-cookie"]
    assert flags.startswith("skillnet_session=the-session-id;")
    assert "HttpOnly" in flags and "SameSite=strict" in flags and "Secure" in flags and "Path=/" in flags
    assert not cookie_routes.waiting(code)
    again = _client("https://skillnet.example").get(f"/{cookie_routes.PATH}{code}")
    assert again.status_code == 404 and "set-cookie" not in again.headers


def test_plain_http_gets_no_secure_flag_and_a_sign_out_code_clears_the_cookie():
    plain = _client("http://127.0.0.1").get(f"/{cookie_routes.PATH}{cookie_routes.hand_off('abc')}")
    assert "Secure" not in plain.headers["set-cookie"] and "HttpOnly" in plain.headers["set-cookie"]
    cleared = _client("http://127.0.0.1").get(f"/{cookie_routes.PATH}{cookie_routes.hand_off(None)}")
    assert 'skillnet_session=""' in cleared.headers["set-cookie"] and "Max-Age=0" in cleared.headers["set-cookie"]


def test_an_unknown_code_sets_nothing_and_routes_follow_the_base_url_path():
    answer = _client("http://127.0.0.1").get(f"/{cookie_routes.PATH}made-up")
    assert answer.status_code == 404 and "set-cookie" not in answer.headers
    assert [r.path for r in cookie_routes.routes("/skillnet/")] == ["/skillnet/auth/cookie/{code}"]
