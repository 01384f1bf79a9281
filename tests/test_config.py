"""One configuration: every variable the code reads is declared in core/variables.py, documented in
the README, and read nowhere else; bad values fail with one line naming the variable."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from core import config, variables

ROOT = Path(__file__).resolve().parents[1]
PRODUCT = ["app.py", "chat.py", "agents", "pages", "ui", "storage", "seeds"]
ENV_READ = re.compile(r"os\.environ|os\.getenv|getenv\(")


def _product_sources() -> dict[str, str]:
    files: list[Path] = []
    for entry in PRODUCT:
        path = ROOT / entry
        files.extend([path] if path.is_file() else sorted(path.rglob("*.py")))
    return {f.relative_to(ROOT).as_posix(): f.read_text(encoding="utf-8") for f in files}


def test_only_the_config_module_reads_the_environment():
    readers = [name for name, text in _product_sources().items() if name != "core/config.py" and ENV_READ.search(text)]
    assert readers == [], "read variables through core.config.get: " + ", ".join(readers)


def test_every_variable_read_is_declared():
    read = {m for text in _product_sources().values() for m in re.findall(r"config\.get\(\s*[\"']([A-Z0-9_]+)", text)}
    read |= {m for text in _product_sources().values() for m in re.findall(r"\bget\(\s*[\"']([A-Z0-9_]+)[\"']\)", text)}
    undeclared = sorted(name for name in read if name not in {v.name for v in variables.VARIABLES})
    assert undeclared == []


def test_the_readme_table_is_the_declared_variables():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert config.markdown_table() in readme, "regenerate the README table: python -m storage config"


def test_defaults_and_parsing(monkeypatch):
    monkeypatch.delenv("SKILLNET_MAX_UPLOAD_MB", raising=False)
    assert config.get("SKILLNET_MAX_UPLOAD_MB") == 50.0
    monkeypatch.setenv("SKILLNET_MAX_UPLOAD_MB", "2.5")
    assert config.get("SKILLNET_MAX_UPLOAD_MB") == 2.5
    monkeypatch.setenv("HELPDESK_AGENT_ENABLED", "off")
    assert config.get("HELPDESK_AGENT_ENABLED") is False
    monkeypatch.setenv("HELPDESK_AGENT_ENABLED_USER_IDS", " a, b ,,")
    assert config.get("HELPDESK_AGENT_ENABLED_USER_IDS") == ("a", "b")
    monkeypatch.setenv("SKILLNET_CHAT_PATH", "/chat")
    assert config.get("SKILLNET_CHAT_PATH") == "/chat/"
    monkeypatch.setenv("EMBEDDINGS", " OpenAI ")
    assert config.get("EMBEDDINGS") == "openai"


@pytest.mark.parametrize(
    "name, value, reason",
    [
        ("SKILLNET_MAX_UPLOAD_MB", "lots", "expected a number"),
        ("SKILLNET_CHAT_PORT", "0", "must be at least 1"),
        ("SKILLNET_CHAT_PATH", "http://chat.example/", "expected a path such as /chat/"),
        ("EMBEDDINGS", "magic", "use one of local, openai"),
        ("HELPDESK_AGENT_KILL_SWITCH", "maybe", "use on/off"),
    ],
)
def test_a_bad_value_is_one_line_naming_the_variable(monkeypatch, name, value, reason):
    monkeypatch.setenv(name, value)
    problems = config.validate()
    assert len(problems) == 1 and problems[0].startswith(name) and reason in problems[0]
    with pytest.raises(config.ConfigError) as error:
        config.require_valid()
    assert "\n" not in str(error.value) and name in str(error.value)
