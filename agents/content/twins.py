"""Offline twins of the pipeline's writers: themes, course structure, module lessons, manual, refinement.

Deterministic and built from the source text only (CONVENTIONS §6): themes are the source's sections,
lessons are its sentences with citations, the manual keeps its structure.
"""
from __future__ import annotations

import re

from agents.content.exercises import build_exercises, verify_exercise
from agents.content.state import APPLIED_LEVELS
from agents.content.text import (Section, bloom_level, citation, citation_entry, fact_sentences, key_terms,
                                 procedures, sentences, snake)

MAX_MODULES = 8
PHRASES = {
    "es": {"theory": "{t}: conceptos clave", "example": "{t}: en la práctica", "exercise": "Practica: {t}",
           "summary": "Resumen: {t}", "outcome": "Al terminar el curso, la persona empleada será capaz de {x}.",
           "verbs": ("aplicar", "gestionar", "resolver", "explicar"), "course": "Curso: {t}",
           "description": "Curso basado en {docs}. Recorre: {x}.", "example_intro": "Así se aplica «{h}» paso a paso:",
           "practice_intro": "Pon a prueba lo aprendido sobre «{t}». Cada ejercicio cita el texto fuente.",
           "terms": "Términos clave", "toc": "Índice", "manual": "Manual: {t}", "part": "parte {n}",
           "intro": "Introducción: {t}"},
    "en": {"theory": "{t}: key ideas", "example": "{t}: in practice", "exercise": "Practice: {t}",
           "summary": "Recap: {t}", "outcome": "After completing this course, the employee will be able to {x}.",
           "verbs": ("apply", "handle", "resolve", "explain"), "course": "Course: {t}",
           "description": "A course built from {docs}. It covers: {x}.", "example_intro": "How “{h}” works, step by step:",
           "practice_intro": "Test what you learned about “{t}”. Every exercise cites the source text.",
           "terms": "Key terms", "toc": "Contents", "manual": "Manual: {t}", "part": "part {n}",
           "intro": "Introduction: {t}"},
}
_EXAMPLE = re.compile(r"\b(por ejemplo|ejemplo|p\. ej\.|caso|si un|si una|cuando un|for example|e\.g\.|"
                      r"for instance|if a|when a|example)\b", re.I)


def phrases(language: str) -> dict:
    return PHRASES["en" if language == "en" else "es"]


# -- themes ---------------------------------------------------------------------------------------

def _group_key(section: Section) -> str:
    parts = section.path.split(" > ")
    return " > ".join(parts[:2]) if len(parts) >= 2 else section.path


def _halves(group: list[Section]) -> list[list[Section]] | None:
    """A group cut in two, by sections or by chunks (a single chunk stays whole: its citations would blur)."""
    if len(group) > 1:
        return [group[:len(group) // 2], group[len(group) // 2:]]
    s = group[0]
    if len(s.chunk_ids) < 2:
        return None
    half = len(s.chunk_ids) // 2
    return [[Section(s.document_id, s.document_title, s.heading, s.path, s.page, ids, texts, s.position)]
            for ids, texts in ((s.chunk_ids[:half], s.texts[:half]), (s.chunk_ids[half:], s.texts[half:]))]


def _theme_groups(sections: list[Section]) -> list[list[Section]]:
    groups: list[list[Section]] = []
    for section in sections:
        if groups and _group_key(groups[-1][0]) == _group_key(section) \
                and groups[-1][0].document_id == section.document_id:
            groups[-1].append(section)
        else:
            groups.append([section])
    # a title-only group (the H1 intro) joins the next one
    groups = [g for g in groups if sum(len(s.text) for s in g) > 0]
    while len(groups) > MAX_MODULES:   # merge the smallest adjacent pair
        sizes = [sum(len(s.text) for s in a + b) for a, b in zip(groups, groups[1:])]
        i = sizes.index(min(sizes))
        groups[i:i + 2] = [groups[i] + groups[i + 1]]
    while len(groups) < 3:             # too few sections: split the largest by chunks, then by paragraphs
        pieces = [(sum(len(s.text) for s in g), i, _halves(g)) for i, g in enumerate(groups)]
        pieces = [p for p in pieces if p[2]]
        if not pieces:
            break
        _, i, halves = max(pieces)
        groups[i:i + 1] = halves
    return groups


def themes_twin(sections: list[Section], language: str) -> list[dict]:
    corpus = [s.text for s in sections]
    themes, keys = [], set()
    groups = _theme_groups(sections)
    for group in groups:
        title = group[0].heading
        if title == group[0].document_title:      # the text before the first section heading
            title = phrases(language)["intro"].format(t=title)
        key = snake(title)
        if key in keys:
            title = f"{title} ({phrases(language)['part'].format(n=len([k for k in keys if k.startswith(key)]) + 1)})"
            key = snake(title)
        keys.add(key)
        text = "\n\n".join(s.text for s in group)
        first = (sentences(text) or [text[:200]])[0]
        themes.append({"key": key, "title": title, "summary": first[:300], "bloom_level": bloom_level(text),
                       "chunk_ids": [c for s in group for c in s.chunk_ids],
                       "terms": key_terms(text, corpus, 6)})
    # workplace training is about doing: procedural themes count as apply even when their verbs don't say so
    applied = sum(t["bloom_level"] in APPLIED_LEVELS for t in themes)
    for theme, group in zip(themes, groups):
        if applied * 2 >= len(themes):
            break
        if theme["bloom_level"] not in APPLIED_LEVELS and any(procedures(s.text) for s in group):
            theme["bloom_level"], applied = "apply", applied + 1
    return themes


# -- structure -------------------------------------------------------------------------------------

def lessons_for(title: str, language: str, long: bool) -> list[dict]:
    p = phrases(language)
    kinds = ["theory", "example", "exercise"] + (["summary"] if long else [])
    return [{"title": p[kind].format(t=title), "position": i, "content_type": kind} for i, kind in enumerate(kinds, 1)]


def structure_twin(themes: list[dict], metadata: dict, language: str) -> dict:
    p = phrases(language)
    per_module = 1 if len(themes) <= MAX_MODULES else -(-len(themes) // MAX_MODULES)
    modules = []
    for start in range(0, len(themes), per_module):
        group = themes[start:start + per_module]
        levels = [t["bloom_level"] for t in group]
        modules.append({
            "title": group[0]["title"], "summary": " ".join(t["summary"] for t in group)[:400],
            "position": len(modules) + 1, "themes": [t["key"] for t in group],
            "bloom_level": next((lv for lv in levels if lv in APPLIED_LEVELS), levels[0]),
            "chunk_ids": [c for t in group for c in t["chunk_ids"]],
            "lessons": lessons_for(group[0]["title"], language, len(group[0]["chunk_ids"]) > 2),
        })
    titles = metadata.get("doc_titles") or ["—"]
    verbs = p["verbs"]
    goals = ", ".join(f"{verbs[i % len(verbs)]} {m['title'].lower()}" for i, m in enumerate(modules[:4]))
    return {"title": p["course"].format(t=titles[0]) if len(titles) == 1 else p["course"].format(t=" + ".join(titles)),
            "description": p["description"].format(docs=", ".join(titles), x="; ".join(m["title"] for m in modules)),
            "outcome": p["outcome"].format(x=goals), "modules": modules}


# -- module content --------------------------------------------------------------------------------

def _markdown_body(section: Section, language: str, max_sentences: int = 8) -> str:
    """The section's prose and lists, each paragraph cited."""
    cite, out = citation(section, language), []
    for text in section.texts:
        for block in re.split(r"\n\s*\n", text):
            block = block.strip()
            if not block:
                continue
            if procedures(block):
                items = procedures(block)[0]
                out.append("\n".join(f"{i}. {item}" for i, item in enumerate(items, 1)) + f"\n\n{cite}")
            else:
                prose = " ".join(sentences(block)[:max_sentences]) or block
                out.append(f"{prose} {cite}")
    return "\n\n".join(out)


def _lesson(spec: dict, body: str, used: list[Section]) -> dict:
    return {"title": spec["title"], "position": spec["position"], "content_type": spec["content_type"],
            "content": body, "citations": [citation_entry(s) for s in used],
            "source_chunk_ids": [c for s in used for c in s.chunk_ids]}


def module_twin(index: int, spec: dict, primary: list[Section], supplement: list[Section], language: str,
                siblings: list[str], corpus: list[str]) -> dict:
    """A module's lessons and exercises from its own sources (the theme index first, then the supplement)."""
    p = phrases(language)
    own = primary or supplement
    every = primary + supplement
    lessons = []
    for lesson_spec in spec["lessons"]:
        kind = lesson_spec["content_type"]
        if kind == "theory":
            body = "\n\n".join(f"### {s.heading}\n\n{_markdown_body(s, language)}" for s in own)
            lessons.append(_lesson(lesson_spec, body, own))
        elif kind == "example":
            examples = [(s, sent) for s in every for sent in sentences(s.text) if _EXAMPLE.search(sent)]
            if examples:
                body = "\n\n".join(f"> {sent} {citation(s, language)}" for s, sent in examples[:4])
                used = list({id(s): s for s, _ in examples[:4]}.values())
            else:
                s = max(every, key=lambda sec: (len(procedures(sec.text)), -sec.position))
                steps = (procedures(s.text) or [fact_sentences(s.text)[:4]])[0]
                body = p["example_intro"].format(h=s.heading) + "\n\n" + "\n".join(
                    f"{i}. {step}" for i, step in enumerate(steps, 1)) + f"\n\n{citation(s, language)}"
                used = [s]
            lessons.append(_lesson(lesson_spec, body, used))
        elif kind == "exercise":
            body = p["practice_intro"].format(t=spec["title"]) + "\n\n" + "\n".join(
                f"- {citation(s, language)}" for s in own)
            lessons.append(_lesson(lesson_spec, body, own))
        else:
            terms = key_terms("\n".join(s.text for s in own), corpus, 6)
            bullets = [f"- {(fact_sentences(s.text) or [s.heading])[0]} {citation(s, language)}" for s in own]
            body = "\n".join(bullets) + (f"\n\n**{p['terms']}:** " + ", ".join(terms) if terms else "")
            lessons.append(_lesson(lesson_spec, body, own))
    exercises = build_exercises(every, siblings, language, corpus)
    return {"index": index, "module_spec": spec, "lessons": lessons, "exercises": exercises, "engine": "offline"}


# -- manual ----------------------------------------------------------------------------------------

def anchor(heading: str, n: int) -> str:
    return f"{snake(heading, 60).replace('_', '-')}-{n}"


def render_manual(title: str, toc: list[dict], sections: list[dict], language: str) -> str:
    lines = [f"# {title}", "", f"## {phrases(language)['toc']}", ""]
    lines += [f"{'  ' * (entry['level'] - 1)}- [{entry['heading']}](#{entry['anchor']})" for entry in toc]
    for section in sections:
        lines += ["", f"<a id=\"{section['anchor']}\"></a>",
                  f"{'#' * min(6, section['level'] + 1)} {section['heading']}", "", section["body"]]
    return "\n".join(lines).strip() + "\n"


def manual_twin(all_sections: list[Section], metadata: dict, language: str) -> dict:
    """The manual follows the source: its sections in order, bodies kept whole, a table of contents first."""
    titles = metadata.get("doc_titles") or ["—"]
    title = phrases(language)["manual"].format(t=" + ".join(titles))
    sections, toc = [], []
    for n, section in enumerate(all_sections, 1):
        body = _markdown_body(section, language, max_sentences=1000)
        entry = {"heading": section.heading, "level": min(3, section.level), "anchor": anchor(section.heading, n),
                 "chunk_ids": section.chunk_ids}
        toc.append({k: entry[k] for k in ("heading", "level", "anchor")})
        sections.append({**entry, "body": body})
    return {"title": title, "toc": toc, "sections": sections, "content_md": render_manual(title, toc, sections, language),
            "engine": "offline"}


# -- refinement ------------------------------------------------------------------------------------

def refine_twin(module: dict, issues: list[dict], primary: list[Section], supplement: list[Section],
                language: str, siblings: list[str], corpus: list[str], source: str) -> dict:
    """Targeted fixes: cite uncited lessons, replace exercises whose answer the source doesn't support,
    add practice when the Bloom mix is too recall-heavy. Everything not flagged stays as it was."""
    own = primary or supplement
    lessons = []
    for lesson in module["lessons"]:
        if own and (not lesson.get("citations") or "[" not in lesson.get("content", "")):
            cite = "\n\n" + " ".join(citation(s, language) for s in own[:3])
            lesson = {**lesson, "content": lesson.get("content", "") + cite,
                      "citations": lesson.get("citations") or [citation_entry(s) for s in own[:3]],
                      "source_chunk_ids": lesson.get("source_chunk_ids") or [c for s in own for c in s.chunk_ids]}
        lessons.append(lesson)
    fresh = build_exercises(primary + supplement, siblings, language, corpus)
    exercises = []
    for exercise in module["exercises"]:
        if verify_exercise(exercise, source) is None:
            exercises.append(exercise)
            continue
        replacement = next((e for e in fresh if e["type"] == exercise["type"] and e not in exercises), None)
        if replacement is not None:
            exercises.append(replacement)
    applied = sum(e["bloom_level"] in APPLIED_LEVELS for e in exercises)
    for extra in fresh:
        if applied * 2 >= len(exercises):
            break
        if extra["bloom_level"] in APPLIED_LEVELS and extra not in exercises:
            exercises.append(extra)
            applied += 1
    return {**module, "lessons": lessons, "exercises": exercises}
