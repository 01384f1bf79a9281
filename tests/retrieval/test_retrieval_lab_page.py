"""The retrieval lab page (AppTest): an admin queries and scores an eval file; an employee gets nothing."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

from streamlit.testing.v1 import AppTest

from storage.documents import list_documents
from storage.users import get_user_by_email
from tests.apptest import open_page, texts

ROOT = Path(__file__).resolve().parents[2]
PAGE = "pages/retrieval_lab.py"


def headers(dataframe) -> set[str]:
    """The column headers a dataframe element shows (those its column_config renames)."""
    return {column["label"] for column in json.loads(dataframe.proto.columns).values() if "label" in column}


def open_lab(pool, email: str) -> AppTest:
    with pool.connection() as conn:
        user = get_user_by_email(conn, email)
    return open_page(user, PAGE)


def test_admin_runs_a_scoped_hybrid_query(seeded_db_url, seeded_pool):
    at = open_lab(seeded_pool, "admin@acme.test")
    at.text_input(key="lab_q").input("¿Cuál es el peso máximo que puede levantar una persona sola?")
    at.multiselect(key="lab_docs").select("Manual de Seguridad en el Almacén")
    at.button[0].click().run()  # the form's submit button
    assert not at.exception, at.exception
    shown = texts(at)
    assert "resultados en" in shown or "results in" in shown
    assert at.expander and all("Manual de Seguridad en el Almacén" in e.label for e in at.expander)
    assert re.search(r"^1\. \[\d,\d{3}\] ", at.expander[0].label)  # scores in Marta's locale: 0,874
    assert "**25**" in shown or "**peso**" in shown  # matched words are highlighted


def test_admin_bad_query_gets_one_line_error(seeded_db_url, seeded_pool):
    at = open_lab(seeded_pool, "admin@acme.test")
    at.button[0].click().run()  # empty question
    assert [e.value for e in at.error] and "empty" in at.error[0].value


def test_employee_gets_the_refusal_and_no_lab(seeded_db_url, seeded_pool):
    at = open_lab(seeded_pool, "lucia@acme.test")
    assert "solo para administradores" in texts(at)
    assert not at.text_input and not at.button


def test_lab_is_registered_for_admins_only():
    tree = ast.parse((ROOT / "app.py").read_text())
    sections = {
        target.id: ast.unparse(node.value)
        for node in tree.body
        if isinstance(node, ast.Assign)
        for target in node.targets
        if isinstance(target, ast.Name)
    }
    assert PAGE in sections["ADMIN_PAGES"] and PAGE not in sections["EMPLOYEE_PAGES"]


def test_lab_eval_upload_scores_and_lists_misses(seeded_db_url, seeded_pool, seeded_deps):
    from agents.retrieval import lab

    with seeded_pool.connection() as conn:
        admin = get_user_by_email(conn, "admin@acme.test")
    data = (
        '{"question": "What is the minimum password length?", "expected": ["Information Security Policy"]}\n'
        '{"question": "¿Cuál es el objetivo anual de NPS?", "expected": ["Returns and Refunds Policy"]}\n'
    ).encode()
    report = lab.run_eval(seeded_deps, admin, data, k=1)
    assert (report["n"], report["recall_at_k"]) == (2, 0.5)
    assert [m["question"] for m in report["misses"]] == ["¿Cuál es el objetivo anual de NPS?"]
    assert "line 1" in lab.run_eval(seeded_deps, admin, b'{"question": 1}\n')["error"]
    assert "UTF-8" in lab.run_eval(seeded_deps, admin, b"\xff\xfe")["error"]


def test_documents_tab_lists_the_searchable_documents_with_readable_headers(seeded_db_url, seeded_pool):
    at = open_lab(seeded_pool, "admin@acme.test")  # Marta reads Spanish
    with seeded_pool.connection() as conn:
        marta = get_user_by_email(conn, "admin@acme.test")
        count = len(list_documents(conn, marta.org_id))
    documents_tab = at.tabs[3]
    assert documents_tab.label == "Documentos"
    assert f"**{count} documentos en la búsqueda**" in [m.value for m in documents_tab.markdown]
    shown = documents_tab.dataframe[0].value
    assert len(shown) == count and "Manual de Seguridad en el Almacén" in shown["title"].tolist()
    assert set(shown["language"]) <= {"español", "inglés"} and (shown["passages"].astype(int) > 0).all()
    assert {"Título", "Idioma", "Pasajes", "Último cambio"} <= headers(documents_tab.dataframe[0])


def test_lab_eval_report_names_its_columns_and_language_pairs_in_the_readers_words(seeded_pool, seeded_deps):
    from agents.retrieval import lab

    with seeded_pool.connection() as conn:
        admin = get_user_by_email(conn, "admin@acme.test")
    data = (
        '{"question": "¿Cuál es el peso máximo que puede levantar una persona sola?", '
        '"expected": ["Manual de Seguridad en el Almacén"]}\n'
        '{"question": "What is the annual NPS target?", "expected": ["Manual de Seguridad en el Almacén"]}\n'
    ).encode()
    report = lab.run_eval(seeded_deps, admin, data, k=1)

    def shown(report: dict, lang: str):
        from ui.eval_report import eval_report

        eval_report(report, lang)

    at = AppTest.from_function(shown, args=(report, "es")).run()
    assert not at.exception, at.exception
    pairs = at.dataframe[0]
    assert set(pairs.value["pair"]) == {"español → español", "inglés → español"}
    assert {"Idioma de la pregunta → del documento", "Preguntas"} <= headers(pairs)
    assert report["misses"] and {"Pregunta", "Documento esperado", "Primeros resultados"} <= headers(at.dataframe[1])
    english = AppTest.from_function(shown, args=(report, "en")).run()
    assert set(english.dataframe[0].value["pair"]) == {"Spanish → Spanish", "English → Spanish"}
