"""An operator can scrape it: /metrics (prometheus-client's server on SKILLNET_METRICS_PORT) lists the
helpdesk's 001 metrics and the per-role model metrics after a session; off when the port is unset."""

from __future__ import annotations

import urllib.request

from agents.helpdesk import service
from agents.runtime import metrics
from tests.browser import free_port


def test_metrics_are_off_without_a_port(monkeypatch):
    monkeypatch.delenv("SKILLNET_METRICS_PORT", raising=False)
    if not metrics._server_port:  # a server another test started stays up for the process
        assert metrics.start_metrics_server() is None


def test_metrics_endpoint_lists_helpdesk_and_model_metrics_after_a_session(org, deps, monkeypatch):
    monkeypatch.setenv("SKILLNET_METRICS_PORT", str(free_port()))
    port = metrics.start_metrics_server()
    assert metrics.start_metrics_server() == port  # once per process
    service.start(deps, org.bob, "The badge reader at the south door beeps red, only me, since today")
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as response:
        text = response.read().decode()
    for name in (
        "chatbot_helpdesk_agent_started_total",
        "chatbot_helpdesk_agent_tool_total",
        "chatbot_helpdesk_agent_turn_latency_seconds_bucket",
        "skillnet_model_calls_total",
        "skillnet_model_latency_seconds_bucket",
    ):
        assert name in text, name
    assert 'skillnet_model_calls_total{engine="offline",outcome="offline",role="supervisor"}' in text
