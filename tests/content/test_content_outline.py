"""The structure review table: outline -> rows -> (reorder, rename, add, remove) -> outline."""
from __future__ import annotations

from agents.content.service import outline_from_rows, outline_rows

OUTLINE = {"title": "Devoluciones", "description": "", "outcome": "", "modules": [
    {"title": "Plazos", "summary": "s1", "position": 1, "themes": ["plazos"], "bloom_level": "apply",
     "chunk_ids": ["c1"], "lessons": [{"title": "Teoría", "position": 1, "content_type": "theory"},
                                      {"title": "Práctica", "position": 2, "content_type": "exercise"}]},
    {"title": "Defectos", "summary": "s2", "position": 2, "themes": ["defectos"], "bloom_level": "apply",
     "chunk_ids": ["c2"], "lessons": [{"title": "Garantía", "position": 1, "content_type": "theory"}]},
    {"title": "Quejas", "summary": "s3", "position": 3, "themes": ["quejas"], "bloom_level": "apply",
     "chunk_ids": ["c3"], "lessons": [{"title": "Tono", "position": 1, "content_type": "theory"}]},
]}


def test_edited_rows_become_the_outline():
    rows = outline_rows(OUTLINE)
    assert [r["module"] for r in rows] == [1, 1, 2, 3] and rows[0]["origin"] == 1
    rows = [r for r in rows if r["module"] != 3]                      # remove "Quejas"
    for row in rows:
        if row["module"] == 2:
            row["module"], row["module_title"] = 0, "Productos defectuosos"   # rename and move first
    rows[1]["lesson_title"] = "Practica una devolución"               # rename a lesson
    rows.append({"module": 5, "module_title": "Clientes difíciles", "lesson": 1, "lesson_title": "Calma",
                 "content_type": "example", "origin": None})         # a new module
    rows.append({"module": None, "module_title": None, "lesson": None, "lesson_title": None,
                 "content_type": None, "origin": None})              # an empty row the editor left
    edited = outline_from_rows(rows, OUTLINE)
    assert [m["title"] for m in edited["modules"]] == ["Productos defectuosos", "Plazos", "Clientes difíciles"]
    assert edited["modules"][0]["chunk_ids"] == ["c2"] and edited["modules"][0]["themes"] == ["defectos"]
    assert [lesson["title"] for lesson in edited["modules"][1]["lessons"]] == ["Teoría", "Practica una devolución"]
    assert edited["modules"][2]["chunk_ids"] == [] and edited["modules"][2]["lessons"][0]["content_type"] == "example"
