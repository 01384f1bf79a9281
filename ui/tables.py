"""A table every page can show the same way: a dataframe with its CSV download beside it."""
from __future__ import annotations

import csv

import pandas as pd
import streamlit as st

from ui.session import current_user

# Headers shown in the reader's language; the CSV keeps the plain column names (stable for scripts).
HEADERS = {"kind": ("Tipo", "Kind"), "user": ("Persona", "Person"), "employee": ("Empleado", "Employee"),
           "full_name": ("Nombre", "Name"), "email": ("Correo", "Email"), "role": ("Rol", "Role"),
           "is_active": ("Activo", "Active"), "department": ("Departamento", "Department"),
           "job_title": ("Puesto", "Job title"), "course": ("Curso", "Course"), "title": ("Título", "Title"),
           "detail": ("Detalle", "Detail"), "severity": ("Gravedad", "Severity"), "skill": ("Habilidad", "Skill"),
           "category": ("Categoría", "Category"), "experts": ("Expertos", "Experts"), "high": ("Alto", "High"),
           "medium": ("Medio", "Medium"), "low": ("Bajo", "Low"), "level": ("Nivel", "Level"),
           "status": ("Estado", "Status"), "language": ("Idioma", "Language"), "enrolled": ("Inscritos", "Enrolled"),
           "completed": ("Completados", "Completed"), "completion_rate": ("Finalización", "Completion rate"),
           "avg_score": ("Nota media", "Average score"), "score": ("Nota", "Score"),
           "active_courses": ("Cursos activos", "Active courses"),
           "completed_courses": ("Cursos completados", "Completed courses"), "mentor": ("Mentor", "Mentor"),
           "mentee": ("Aprendiz", "Mentee"), "deadline": ("Fecha límite", "Deadline"),
           "progress": ("Progreso", "Progress"), "source": ("Origen", "Source")}
# Codes shown in Spanish to Spanish readers (whole cells only); the CSV keeps the codes.
SPANISH_VALUES = {"skill_expiring": "certificación por caducar", "skill_expired": "certificación caducada",
                  "high": "alto", "medium": "medio", "low": "bajo", "overdue": "vencido",
                  "deadline_at_risk": "plazo en riesgo", "repeated_failures": "fallos repetidos",
                  "inactive": "inactivo", "published": "publicado", "draft": "borrador", "archived": "archivado",
                  "assigned": "asignado", "in_progress": "en curso", "completed": "completado",
                  "employee": "empleado", "admin": "administrador", "checkpoint": "ejercicios",
                  "open": "abierto", "resolved": "resuelto", "closed": "cerrado"}
SPANISH_SEVERITY = {"high": "alta", "medium": "media", "low": "baja", "critical": "crítica"}


# OWASP's CSV-injection rule: a cell a spreadsheet would read as a formula starts with a quote instead.
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _defused(cell):
    return "'" + cell if isinstance(cell, str) and cell.startswith(_FORMULA_STARTS) else cell


def csv_bytes(frame: pd.DataFrame) -> bytes:
    """``frame`` as UTF-8 CSV that no spreadsheet runs: text cells starting =, +, -, @, tab or CR get a ' first."""
    # Text cells quoted too (OWASP's other half): a CR or tab inside one cannot start a row or a cell.
    return frame.map(_defused).to_csv(index=False, quoting=csv.QUOTE_NONNUMERIC).encode("utf-8")


def _header(column: str, lang: str) -> str:
    es, en = HEADERS.get(column, (column.replace("_", " ").capitalize(),) * 2)
    return es if lang == "es" else en


def table_with_csv(frame: pd.DataFrame, name: str, *, key: str | None = None, height: int | None = None,
                   empty: str = "Nothing to show. / Nada que mostrar.") -> None:
    """Render ``frame`` and a "Download CSV" button (file ``<name>.csv``); a note when it's empty."""
    if frame is None or frame.empty:
        st.caption(empty)
        return
    user = current_user()
    lang = user.language if user else "en"
    labels = {c: _header(c, lang) for c in frame.columns if isinstance(c, str) and (c in HEADERS or "_" in c)}
    shown = frame
    if lang == "es":
        shown = frame.replace({c: SPANISH_SEVERITY for c in frame.columns if c == "severity"}).replace(SPANISH_VALUES)
    st.dataframe(shown, hide_index=True, column_config=labels or None, **({"height": height} if height else {}))
    st.download_button("⬇ CSV", csv_bytes(frame), file_name=f"{name}.csv",
                       mime="text/csv", key=key or f"csv_{name}")
