"""The one configuration: the environment variables SkillNet reads (declared in core/variables.py), typed, with
their defaults.

Values are read from the environment (and a ``.env`` file in the working directory, which never
overrides the environment) each time ``get`` is called, so tests can change them. ``validate()``
runs at start and turns each bad value into one line; the README's configuration table is checked
against ``VARIABLES`` by tests/test_config.py, so a variable can't be read without being documented.

    from core import config
    config.get("SKILLNET_MAX_UPLOAD_MB")   -> 50.0 (a float), or ConfigError("SKILLNET_MAX_UPLOAD_MB…")
"""

from __future__ import annotations

import os
from typing import Any

from dotenv import load_dotenv

from core.variables import VARIABLES, Variable

load_dotenv(override=False)

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


class ConfigError(ValueError):
    """A configuration value that can't be used; its message is one line naming the variable."""


_BY_NAME = {variable.name: variable for variable in VARIABLES}


def variable(name: str) -> Variable:
    return _BY_NAME[name]


def _parse(var: Variable, raw: str) -> Any:
    text = raw.strip()
    if var.kind == "str":
        return text
    if var.kind == "path":
        if not text.startswith("/") or "//" in text or "?" in text:
            raise ConfigError(f"{var.name}={raw!r}: expected a path such as /chat/")
        return text.rstrip("/") + "/"
    if var.kind == "list":
        return tuple(part.strip() for part in text.split(",") if part.strip())
    if var.kind == "bool":
        if text.lower() in _TRUE:
            return True
        if text.lower() in _FALSE:
            return False
        raise ConfigError(f"{var.name}={raw!r}: use on/off (or true/false, 1/0)")
    if var.kind == "choice":
        if text.lower() not in var.choices:
            raise ConfigError(f"{var.name}={raw!r}: use one of {', '.join(var.choices)}")
        return text.lower()
    try:
        value = int(text) if var.kind == "int" else float(text)
    except ValueError:
        expected = "a whole number" if var.kind == "int" else "a number"
        raise ConfigError(f"{var.name}={raw!r}: expected {expected}") from None
    if var.minimum is not None and value < var.minimum:
        raise ConfigError(f"{var.name}={raw!r}: must be at least {var.minimum:g}")
    return value


def get(name: str) -> Any:
    """The variable's value now: parsed from the environment, or its default when unset or empty."""
    var = _BY_NAME[name]
    raw = os.environ.get(name)
    if raw is None or not raw.strip():
        return var.default
    return _parse(var, raw)


def export_native_settings() -> None:
    """Hand the settings that libraries read from the process environment themselves, once, when they
    load (the OpenMP runtime of the bundled model) or start (Gradio's queue), to the environment."""
    os.environ["OMP_WAIT_POLICY"] = get("OMP_WAIT_POLICY").upper()
    os.environ["GRADIO_ANALYTICS_CACHE_FREQUENCY"] = str(get("GRADIO_ANALYTICS_CACHE_FREQUENCY"))


def require_valid() -> None:
    """Raise one ConfigError naming every bad value; every process calls it before its first query."""
    problems = validate()
    if problems:
        raise ConfigError("bad configuration: " + "; ".join(problems))


def _default_text(var: Variable) -> str:
    if var.default is None or var.default == ():
        return "unset"
    if var.kind == "bool":
        return "`on`" if var.default else "`off`"
    if isinstance(var.default, float) and var.default.is_integer():
        return f"`{int(var.default)}`"
    return f"`{var.default}`"


def markdown_table() -> str:
    """The README's configuration table, made from VARIABLES (``python -m storage config``)."""
    rows = ["| variable | meaning | default |", "|---|---|---|"]
    rows += [f"| `{v.name}` | {v.doc} | {_default_text(v)} |" for v in VARIABLES]
    return "\n".join(rows)


def validate() -> list[str]:
    """One line per variable whose value can't be used (empty when all are fine)."""
    problems = []
    for var in VARIABLES:
        try:
            get(var.name)
        except ConfigError as exc:
            problems.append(str(exc))
    return problems
