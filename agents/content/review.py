"""The quality reviewer's deterministic checks (its offline twin, and the floor under a model's review).

Citation coverage, every answer against the source, the Bloom mix (>= 50 % apply or higher) and
coverage of the source's sections; spec 004 §3.6 severities: critical = wrong answer, major =
missing citations or a significant omission, minor = style.
"""
from __future__ import annotations

from agents.content.exercises import verify_exercise
from agents.content.state import APPLIED_LEVELS
from agents.content.text import Section

PASS_THRESHOLD = 0.8
EXERCISE_TYPES = ("test", "true_false", "fill_blank", "order_steps", "practical_case", "dialogue")
_MESSAGES = {
    "es": {
        "uncited": ("La lección «{t}» no cita la fuente.", "Añade la cita [Fuente: documento, sección, pág.]."),
        "answer": ("Ejercicio {n} ({k}): {why}.", "Corrige la respuesta con el texto fuente o sustituye el ejercicio."),
        "no_exercises": ("El módulo no tiene ejercicios.", "Añade ejercicios basados en el texto fuente."),
        "bloom": ("Solo el {p:.0%} de los ejercicios son de aplicación o superior (mínimo 50 %).",
                  "Añade casos prácticos, diálogos u ordenación de pasos."),
        "coverage": ("El contenido cubre el {p:.0%} de las secciones de la fuente; faltan: {missing}.",
                     "Incluye las secciones que faltan en algún módulo o en el manual."),
        "types": ("Faltan tipos de ejercicio: {missing}.", "Variedad: añade los tipos que faltan si el texto lo permite."),
        "manual": ("El manual no tiene índice.", "Genera el índice a partir de los encabezados."),
    },
    "en": {
        "uncited": ("Lesson “{t}” does not cite the source.", "Add a [Source: document, section, p.] citation."),
        "answer": ("Exercise {n} ({k}): {why}.", "Fix the answer from the source text or replace the exercise."),
        "no_exercises": ("The module has no exercises.", "Add exercises built from the source text."),
        "bloom": ("Only {p:.0%} of exercises are at apply level or above (50 % minimum).",
                  "Add practical cases, dialogues or step ordering."),
        "coverage": ("The content covers {p:.0%} of the source's sections; missing: {missing}.",
                     "Cover the missing sections in a module or in the manual."),
        "types": ("Exercise types missing: {missing}.", "Variety: add the missing types if the text allows."),
        "manual": ("The manual has no table of contents.", "Build the contents from the headings."),
    },
}
_WEIGHTS = {"critical": 0.3, "major": 0.15, "minor": 0.03}


def _issue(severity: str, module_index: int | None, pair: tuple[str, str], **values) -> dict:
    return {"severity": severity, "module_index": module_index, "description": pair[0].format(**values),
            "suggestion": pair[1].format(**values)}


def review_twin(modules: list[dict], manual: dict | None, sections: list[Section], language: str) -> dict:
    m = _MESSAGES["en" if language == "en" else "es"]
    source = "\n\n".join(f"{s.heading}\n{s.text}" for s in sections)
    issues: list[dict] = []
    lessons_total = lessons_cited = exercises_total = answers_ok = applied = 0
    covered: set[str] = set()
    types: set[str] = set()
    for index, module in enumerate(modules):
        for lesson in module["lessons"]:
            lessons_total += 1
            covered.update(lesson.get("source_chunk_ids") or [])
            if lesson.get("citations") and "[" in lesson.get("content", ""):
                lessons_cited += 1
            else:
                issues.append(_issue("major", index, m["uncited"], t=lesson["title"]))
        if not module["exercises"]:
            issues.append(_issue("major", index, m["no_exercises"]))
        for n, exercise in enumerate(module["exercises"], 1):
            exercises_total += 1
            types.add(exercise["type"])
            applied += exercise["bloom_level"] in APPLIED_LEVELS
            why = verify_exercise(exercise, source)
            if why is None:
                answers_ok += 1
            else:
                issues.append(_issue("critical", index, m["answer"], n=n, k=exercise["type"], why=why))
    applied_share = applied / exercises_total if exercises_total else 0.0
    if exercises_total and applied_share < 0.5:
        worst = min(range(len(modules)), key=lambda i: sum(
            e["bloom_level"] in APPLIED_LEVELS for e in modules[i]["exercises"]) - len(modules[i]["exercises"]) / 2)
        issues.append(_issue("major", worst, m["bloom"], p=applied_share))
    if manual:
        for section in manual.get("sections", []):
            covered.update(section.get("chunk_ids") or [])
        if not manual.get("toc"):
            issues.append(_issue("major", None, m["manual"]))
    missing_sections = [s.heading for s in sections if not covered & set(s.chunk_ids)]
    coverage = 1 - len(missing_sections) / len(sections) if sections else 0.0
    if coverage < 0.95:
        issues.append(_issue("major" if coverage < 0.8 else "minor", None, m["coverage"], p=coverage,
                             missing=", ".join(missing_sections[:5])))
    missing_types = [t for t in EXERCISE_TYPES if t not in types]
    if missing_types and exercises_total:
        issues.append(_issue("minor", None, m["types"], missing=", ".join(missing_types)))

    checks = {
        "citation_coverage": lessons_cited / lessons_total if lessons_total else 0.0,
        "answers_verified": answers_ok / exercises_total if exercises_total else 0.0,
        "applied_share": applied_share,
        "section_coverage": coverage,
        "exercise_types": sorted(types),
    }
    score = (checks["citation_coverage"] + checks["answers_verified"] + min(1.0, applied_share / 0.5)
             + coverage) / 4
    return finish_report(issues, score, len(modules), checks, "offline")


def finish_report(issues: list[dict], score: float, module_count: int, checks: dict, engine: str) -> dict:
    """Per-module scores from the issues; passed = score >= 0.8 and nothing critical (spec 004 §3.6)."""
    module_scores = []
    for index in range(module_count):
        penalty = sum(_WEIGHTS[i["severity"]] for i in issues if i["module_index"] == index)
        module_scores.append(round(max(0.0, 1.0 - penalty), 3))
    score = round(max(0.0, min(1.0, score)), 3)
    passed = score >= PASS_THRESHOLD and not any(i["severity"] == "critical" for i in issues)
    return {"passed": passed, "overall_score": score, "issues": issues, "module_scores": module_scores,
            "checks": checks, "engine": engine}
