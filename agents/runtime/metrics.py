"""Prometheus metrics of model calls (per role: calls, latency, fallbacks to the twin by reason, tokens)
and the scrape endpoint: prometheus-client's own HTTP server on SKILLNET_METRICS_PORT (off when unset),
started once per process. The helpdesk's own metrics (spec 001) are in agents/helpdesk/metrics.py;
both live in the default registry, so one /metrics lists them all."""

from __future__ import annotations

import threading

from prometheus_client import REGISTRY, Counter, Histogram, start_http_server

from core import config

MODEL_CALLS = Counter(
    "skillnet_model_calls_total", "Model calls (or offline answers standing in)", ["role", "engine", "outcome"]
)
MODEL_LATENCY = Histogram(
    "skillnet_model_latency_seconds",
    "Model call latency",
    ["role"],
    buckets=(0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 60, 120),
)
MODEL_FALLBACKS = Counter(
    "skillnet_model_fallbacks_total", "Model answers replaced by the deterministic twin", ["role", "reason"]
)
MODEL_TOKENS = Counter("skillnet_model_tokens_total", "Model tokens", ["role", "direction"])

_server_lock = threading.Lock()
_server_port: list[int] = []


def record_model_call(
    *, role: str, engine: str, outcome: str, latency_ms: float, tokens_in: int, tokens_out: int
) -> None:
    """Called by agents.runtime.observability.log_call for every model call."""
    kind = "offline" if engine == "offline" else "model"
    MODEL_CALLS.labels(role, kind, outcome.split(":")[0]).inc()
    MODEL_LATENCY.labels(role).observe(max(0.0, latency_ms) / 1000)
    if outcome.startswith(("twin:", "rejected:")):  # a model answer was checked and replaced
        MODEL_FALLBACKS.labels(role, outcome.split(":", 1)[1][:40]).inc()
    MODEL_TOKENS.labels(role, "in").inc(max(0, tokens_in))
    MODEL_TOKENS.labels(role, "out").inc(max(0, tokens_out))


def start_metrics_server() -> int | None:
    """Serve /metrics on SKILLNET_METRICS_PORT once per process; the port, or None when off."""
    port = config.get("SKILLNET_METRICS_PORT")
    if not port:
        return None
    with _server_lock:
        if not _server_port:
            start_http_server(int(port), addr=config.get("SKILLNET_METRICS_ADDR"))
            _server_port.append(int(port))
    return _server_port[0]


def fallbacks_by_reason() -> list[dict]:
    """This process's fallbacks to the twin, by role and reason (the Operations page)."""
    return [
        {"role": s.labels["role"], "reason": s.labels["reason"], "count": int(s.value)}
        for metric in REGISTRY.collect()
        if metric.name == "skillnet_model_fallbacks"
        for s in metric.samples
        if s.name.endswith("_total") and s.value
    ]


def model_calls() -> list[dict]:
    return [
        {"role": s.labels["role"], "engine": s.labels["engine"], "outcome": s.labels["outcome"], "count": int(s.value)}
        for metric in REGISTRY.collect()
        if metric.name == "skillnet_model_calls"
        for s in metric.samples
        if s.name.endswith("_total") and s.value
    ]
