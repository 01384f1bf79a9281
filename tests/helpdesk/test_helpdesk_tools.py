"""Tool budgets: retries on 5xx only, timeouts, GitHub and Tavily adapters (HTTP faked at httpx)."""

from __future__ import annotations

import time

import httpx
import pytest

from agents.helpdesk import tools
from agents.helpdesk.tools import BUDGETS, ToolBudget, ToolError, call_with_budget


def _responses(monkeypatch, method: str, *responses: httpx.Response) -> list:
    calls, queue = [], list(responses)

    def fake(url, **kwargs):
        calls.append((url, kwargs))
        return queue.pop(0)

    monkeypatch.setattr(tools.httpx, method, fake)
    return calls


def test_web_search_retries_once_on_5xx_then_gives_up(monkeypatch):
    monkeypatch.setenv("TAVILY_API_KEY", "tvly-test")
    calls = _responses(monkeypatch, "post", httpx.Response(503), httpx.Response(502))
    with pytest.raises(ToolError) as caught:
        call_with_budget("web_search", tools.tavily_search, "vpn error 809")
    assert len(calls) == 2 and caught.value.retryable


def test_web_search_never_retries_a_4xx(monkeypatch):
    monkeypatch.setenv("TAVILY_API_KEY", "tvly-test")
    calls = _responses(monkeypatch, "post", httpx.Response(401))
    with pytest.raises(ToolError):
        call_with_budget("web_search", tools.tavily_search, "vpn")
    assert len(calls) == 1


def test_web_search_parses_results_after_a_5xx(monkeypatch):
    monkeypatch.setenv("TAVILY_API_KEY", "tvly-test")
    ok = httpx.Response(
        200, json={"results": [{"title": "VPN 809", "url": "https://x.test", "content": "Open UDP 500."}]}
    )
    _responses(monkeypatch, "post", httpx.Response(500), ok)
    assert call_with_budget("web_search", tools.tavily_search, "vpn") == [
        {"title": "VPN 809", "url": "https://x.test", "content": "Open UDP 500."}
    ]


def test_file_ticket_is_never_retried(monkeypatch):
    monkeypatch.setenv("GITHUB_TOKEN", "ghp_test")
    monkeypatch.setenv("GITHUB_REPO", "acme/helpdesk")
    calls = _responses(monkeypatch, "post", httpx.Response(502), httpx.Response(201, json={}))
    with pytest.raises(ToolError):
        call_with_budget("file_ticket", lambda d, k: tools._raise_for_status(httpx.post("u"), "GitHub"), {}, "k")
    assert len(calls) == 1


def test_timeouts_are_enforced(monkeypatch):
    monkeypatch.setitem(BUDGETS, "retry_kb", ToolBudget(0.2, 0))
    started = time.perf_counter()
    with pytest.raises(ToolError) as caught:
        call_with_budget("retry_kb", lambda q: time.sleep(2), "slow")
    assert caught.value.reason == "timeout" and time.perf_counter() - started < 1.5


def test_github_search_marks_strong_duplicates(monkeypatch):
    monkeypatch.setenv("GITHUB_TOKEN", "ghp_test")
    monkeypatch.setenv("GITHUB_REPO", "acme/helpdesk")
    items = [
        {
            "number": 42,
            "title": "Oracle Financials returns 403 on budget reports",
            "body": "x",
            "state": "open",
            "html_url": "https://github.test/42",
        },
        {"number": 7, "title": "VPN drops", "body": None, "state": "closed", "html_url": "https://github.test/7"},
    ]
    calls = _responses(monkeypatch, "get", httpx.Response(200, json={"items": items}))
    found = tools.github_issue_search("Oracle Financials returns 403 on budget reports")
    assert [f["strong"] for f in found] == [True, False] and found[0]["url"] == "https://github.test/42"
    assert calls[0][1]["params"]["q"].startswith("repo:acme/helpdesk is:issue ")
    assert calls[0][1]["headers"]["Authorization"] == "Bearer ghp_test"


def test_default_toolbox_hides_web_search_without_a_key(monkeypatch):
    monkeypatch.delenv("TAVILY_API_KEY", raising=False)
    box = tools.default_toolbox(deps=None, org_id=None, user_id=None)
    assert "web_search" not in box.available
    with pytest.raises(ToolError):
        box.web_search("anything")
    monkeypatch.setenv("TAVILY_API_KEY", "tvly-test")
    assert "web_search" in tools.default_toolbox(deps=None, org_id=None, user_id=None).available
