"""Outline and quiz checks without a database: the structure review table (outline -> rows -> reorder,
rename, add, remove -> outline), numbered headings nesting, and the distractors' kind."""

from __future__ import annotations

from agents.content.outline import themes_twin
from agents.content.review import exercise_findings
from agents.content.sections import Section, nest_numbered
from agents.content.service import outline_from_rows, outline_rows
from agents.content.text import option_kind

OUTLINE = {
    "title": "Devoluciones",
    "description": "",
    "outcome": "",
    "modules": [
        {
            "title": "Plazos",
            "summary": "s1",
            "position": 1,
            "themes": ["plazos"],
            "bloom_level": "apply",
            "chunk_ids": ["c1"],
            "lessons": [
                {"title": "Teoría", "position": 1, "content_type": "theory"},
                {"title": "Práctica", "position": 2, "content_type": "exercise"},
            ],
        },
        {
            "title": "Defectos",
            "summary": "s2",
            "position": 2,
            "themes": ["defectos"],
            "bloom_level": "apply",
            "chunk_ids": ["c2"],
            "lessons": [{"title": "Garantía", "position": 1, "content_type": "theory"}],
        },
        {
            "title": "Quejas",
            "summary": "s3",
            "position": 3,
            "themes": ["quejas"],
            "bloom_level": "apply",
            "chunk_ids": ["c3"],
            "lessons": [{"title": "Tono", "position": 1, "content_type": "theory"}],
        },
    ],
}


def test_edited_rows_become_the_outline():
    rows = outline_rows(OUTLINE)
    assert [r["module"] for r in rows] == [1, 1, 2, 3] and rows[0]["origin"] == 1
    rows = [r for r in rows if r["module"] != 3]  # remove "Quejas"
    for row in rows:
        if row["module"] == 2:
            row["module"], row["module_title"] = 0, "Productos defectuosos"  # rename and move first
    rows[1]["lesson_title"] = "Practica una devolución"  # rename a lesson
    rows.append(
        {
            "module": 5,
            "module_title": "Clientes difíciles",
            "lesson": 1,
            "lesson_title": "Calma",
            "content_type": "example",
            "origin": None,
        }
    )  # a new module
    rows.append(
        {
            "module": None,
            "module_title": None,
            "lesson": None,
            "lesson_title": None,
            "content_type": None,
            "origin": None,
        }
    )  # an empty row the editor left
    edited = outline_from_rows(rows, OUTLINE)
    assert [m["title"] for m in edited["modules"]] == ["Productos defectuosos", "Plazos", "Clientes difíciles"]
    assert edited["modules"][0]["chunk_ids"] == ["c2"] and edited["modules"][0]["themes"] == ["defectos"]
    assert [lesson["title"] for lesson in edited["modules"][1]["lessons"]] == ["Teoría", "Practica una devolución"]
    assert edited["modules"][2]["chunk_ids"] == [] and edited["modules"][2]["lessons"][0]["content_type"] == "example"


def test_numbered_headings_nest_as_their_numbers_say():
    """ "3.1" written at the same heading level as "3." is its child, and so is what lies under "3.1"; the
    twin's modules then follow the numbered parts (3.1 and 3.2 in the module of 3)."""
    paths = [
        "Policy > 1. Scope",
        "Policy > 2. Roles",
        "Policy > 3. Data",
        "Policy > 3.1 Storage",
        "Policy > 3.1 Storage > Backups",
        "Policy > 3.2 Retention",
        "Policy > 3.2.1 Deadlines",
        "Policy > 4. Incidents",
        "Policy > 4.1 Reporting",
    ]
    sections = nest_numbered(
        [Section("d", "Policy", p.split(" > ")[-1], p, 1, [f"c{i}"], [f"Text {i}."], i) for i, p in enumerate(paths)]
    )
    assert [s.path for s in sections] == [
        "Policy > 1. Scope",
        "Policy > 2. Roles",
        "Policy > 3. Data",
        "Policy > 3. Data > 3.1 Storage",
        "Policy > 3. Data > 3.1 Storage > Backups",
        "Policy > 3. Data > 3.2 Retention",
        "Policy > 3. Data > 3.2 Retention > 3.2.1 Deadlines",
        "Policy > 4. Incidents",
        "Policy > 4. Incidents > 4.1 Reporting",
    ]
    already = nest_numbered([Section("d", "P", "3.1 A", "P > 3. B > 3.1 A", 1, ["c"], ["t"], 0)])
    assert already[0].path == "P > 3. B > 3.1 A"  # nested in the source already: unchanged
    themes = themes_twin(sections, "en")
    assert [t["title"] for t in themes][:4] == ["1. Scope", "2. Roles", "3. Data", "4. Incidents"], themes


def test_multiple_choice_distractors_are_checked_for_the_answers_kind():
    """A distractor of another kind than the answer (money for a deadline, a phrase for an amount) gives the
    question away; the same kind and length passes."""

    def exercise(options, answer=0):
        return {
            "type": "test",
            "prompt": "¿En cuánto tiempo se avisa de una avería?",
            "bloom_level": "remember",
            "content": {"options": options, "answer": answer},
            "explanation": "",
            "source_chunk_ids": [],
        }

    source = "Las averías se comunican al servicio de IT en 24 horas."
    assert [option_kind(o) for o in ("24 horas", "2 weeks", "30 euros", "€30", "15 %", "VPN", "portátil")] == [
        "amount:time",
        "amount:time",
        "amount:money",
        "amount:money",
        "amount:percent",
        "acronym",
        "term",
    ]
    odd = [
        f
        for f in exercise_findings(exercise(["24 horas", "30 euros", "el portátil"]), source, source)
        if f[1] == "implausible_distractors"
    ]
    assert odd and odd[0][2]["options"] == "30 euros, el portátil", odd
    assert not [
        f
        for f in exercise_findings(exercise(["24 horas", "48 horas", "72 horas"]), source, source)
        if f[1] == "implausible_distractors"
    ]
