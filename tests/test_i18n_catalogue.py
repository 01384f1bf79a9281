"""The language catalogue is complete, and bilingual text is written nowhere else.

An inline pair is what the catalogue replaces: a dict literal keyed by both "es" and "en", a call
passing two string literals to a say/t-style helper, or ``"…" if lang == "es" else "…"``. Files
still being moved onto the catalogue are listed in NOT_YET_MIGRATED; the list only shrinks (a
listed file with no pair left fails, so it is taken off).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from agents.i18n import LANGUAGES, placeholders, t
from agents.i18n.catalog import MESSAGES

ROOT = Path(__file__).resolve().parents[1]
PRODUCT = ["app.py", "chat.py", "agents", "pages", "ui", "storage", "seeds"]
CATALOGUE_DIR = ROOT / "agents" / "i18n"
HELPER_NAMES = {"say", "_say", "t", "_t", "tr", "pick"}
LANGUAGE_CODES = {"es", "en", "vi"}

NOT_YET_MIGRATED: set[str] = set()  # empty since every product file speaks through agents/i18n; keep it so


def _product_files() -> list[Path]:
    files: list[Path] = []
    for entry in PRODUCT:
        path = ROOT / entry
        files.extend([path] if path.is_file() else sorted(path.rglob("*.py")))
    return [f for f in files if CATALOGUE_DIR not in f.parents]


def _is_text(node: ast.AST) -> bool:
    return (isinstance(node, ast.Constant) and isinstance(node.value, str)) or isinstance(node, ast.JoinedStr)


def _is_code(node: ast.AST) -> bool:
    """An identifier-like constant ('spanish'): a per-language setting, not text a person reads."""
    return (
        isinstance(node, ast.Constant) and isinstance(node.value, str) and bool(re.fullmatch(r"[a-z0-9_]+", node.value))
    )


def _compares_language(node: ast.AST) -> bool:
    return isinstance(node, ast.Compare) and any(
        isinstance(side, ast.Constant) and side.value in LANGUAGE_CODES for side in [node.left, *node.comparators]
    )


def inline_pairs(source: str) -> list[int]:
    """Line numbers of bilingual pairs written inline in ``source``."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Dict):
            keys = {k.value for k in node.keys if isinstance(k, ast.Constant)}
            by_language = [
                v for k, v in zip(node.keys, node.values) if isinstance(k, ast.Constant) and k.value in LANGUAGE_CODES
            ]
            if (
                {"es", "en"} <= keys
                and all(_is_text(v) for v in by_language)
                and not all(_is_code(v) for v in by_language)
            ):
                lines.append(node.lineno)
        elif isinstance(node, ast.Call):
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            if name in HELPER_NAMES and sum(_is_text(a) for a in node.args) >= 2:
                lines.append(node.lineno)
        elif isinstance(node, ast.IfExp):
            if _compares_language(node.test) and _is_text(node.body) and _is_text(node.orelse):
                lines.append(node.lineno)
    return sorted(lines)


def _relative(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def test_every_message_has_english_and_spanish_with_the_same_placeholders():
    problems = []
    for key, entry in MESSAGES.items():
        if not re.fullmatch(r"[a-z0-9_]+(\.[a-z0-9_]+)+", key):
            problems.append(f"{key}: ids are dotted lowercase, area first")
        if set(entry) - set(LANGUAGES):
            problems.append(f"{key}: unknown language {sorted(set(entry) - set(LANGUAGES))}")
        if not entry.get("en") or not entry.get("es"):
            problems.append(f"{key}: needs both en and es")
            continue
        try:
            fields = {lang: placeholders(text) for lang, text in entry.items()}
        except ValueError as exc:
            problems.append(f"{key}: {exc}")
            continue
        if len({frozenset(f) for f in fields.values()}) > 1:
            problems.append(f"{key}: placeholders differ {fields}")
    assert problems == []


def test_no_bilingual_pairs_outside_the_catalogue():
    offenders = {}
    for path in _product_files():
        rel = _relative(path)
        if rel in NOT_YET_MIGRATED:
            continue
        lines = inline_pairs(path.read_text(encoding="utf-8"))
        if lines:
            offenders[rel] = lines
    assert offenders == {}, "move these into agents/i18n/messages/: " + repr(offenders)


@pytest.mark.parametrize("rel", sorted(NOT_YET_MIGRATED))
def test_files_waiting_for_the_catalogue_still_need_it(rel):
    assert inline_pairs((ROOT / rel).read_text(encoding="utf-8")), f"{rel} is migrated: take it off NOT_YET_MIGRATED"


def test_the_detector_sees_each_kind_of_pair():
    source = (
        'a = {"es": "Hola", "en": "Hello"}\n'
        'b = say("Hola", "Hello")\n'
        'c = "Hola" if lang == "es" else "Hello"\n'
        'd = t("tutor.hello", lang)\n'
        'e = {"es": "spanish", "en": "english"}\n'
    )
    assert inline_pairs(source) == [1, 2, 3]


def _audited_actions() -> set[str]:
    """Every action code product code writes to the audit log (audit.record(..., action="…"), and
    agents/auth.py's _audit(pool, user, "…", …))."""
    found = set()
    for path in _product_files():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "attr", None) or getattr(node.func, "id", None)
            if (
                name == "record"
                and getattr(node.func, "value", None) is not None
                and getattr(node.func.value, "id", "") in ("audit", "audit_log")
            ):
                found |= {
                    k.value.value for k in node.keywords if k.arg == "action" and isinstance(k.value, ast.Constant)
                }
            elif name == "_audit" and len(node.args) >= 3 and isinstance(node.args[2], ast.Constant):
                found.add(node.args[2].value)
    return found


def test_every_audited_action_reads_in_the_admins_language():
    actions = _audited_actions()
    assert {"sign_in", "sign_in_failed", "ticket.status"} <= actions  # the scan finds them
    assert sorted(a for a in actions if f"code.audit_action.{a}" not in MESSAGES) == []


def test_a_count_picks_its_plural_form_in_each_language():
    assert t("learning.unanswered", "es", n=1) == "Te queda 1 ejercicio sin responder en el curso."
    assert t("learning.unanswered", "es", n=3) == "Te quedan 3 ejercicios sin responder en el curso."
    assert t("learning.unanswered", "en", n=1) == "1 exercise in the course is still unanswered."
    assert t("learning.unanswered", "en", n=0) == "0 exercises in the course are still unanswered."
    with pytest.raises(ValueError):
        placeholders("{n, plural, one {# day}}")
