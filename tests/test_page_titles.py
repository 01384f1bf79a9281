"""Each page's title says what its menu entry says, in both languages: a reader who clicked
"Resumen" must not land on a page titled "Organización"."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from agents.i18n import t

ROOT = Path(__file__).resolve().parents[1]
# Titles that are not the page's name by design: the employee's home greets the person.
GREETINGS = {"pages/home_employee.py"}


def _menu() -> list[tuple[str, str, str]]:
    tree = ast.parse((ROOT / "app.py").read_text())
    entries = []
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            getattr(t, "id", None) in ("EMPLOYEE_PAGES", "ADMIN_PAGES") for t in node.targets
        ):
            entries += ast.literal_eval(node.value)
    return list(dict.fromkeys(entries))


def _title_key(page: str) -> str | None:
    """The catalogue id of the page's ``st.title(t("…", …))``, if it has one."""
    for node in ast.walk(ast.parse((ROOT / page).read_text())):
        if (
            isinstance(node, ast.Call)
            and getattr(node.func, "attr", None) == "title"
            and node.args
            and isinstance(node.args[0], ast.Call)
            and getattr(node.args[0].func, "id", None) == "t"
        ):
            return node.args[0].args[0].value
    return None


TITLED = [(page, nav, icon) for page, nav, icon in _menu() if page not in GREETINGS and _title_key(page)]


def test_most_pages_have_a_title_to_check():
    assert len(TITLED) >= 15, TITLED


@pytest.mark.parametrize("lang", ["es", "en"])
@pytest.mark.parametrize(("page", "nav", "icon"), TITLED)
def test_a_pages_title_is_its_menu_entry(page, nav, icon, lang):
    title = t(_title_key(page), lang)
    assert title in (t(nav, lang), f"{icon} {t(nav, lang)}"), (page, title, t(nav, lang))
