"""The offline course of a few files, built as the pipeline builds it but with no database: parsed and chunked
by ingestion's own functions, sectioned, outlined, written and reviewed by the twins. What the quality tests
and the reviewer's mutation test read; ``python -m tests.content.offline_courses FILE...`` prints it."""

from __future__ import annotations

import functools
import sys
import uuid
from pathlib import Path

from agents.content.design import normalize_outline
from agents.content.outline import structure_twin, themes_twin
from agents.content.review import review_twin
from agents.content.sections import Section, sections_from_chunks
from agents.content.twins import module_sections, module_twin
from agents.ingestion.pipeline import parse_and_chunk
from storage.documents import Chunk

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
PUBLIC = {
    "tts_benefits": HERE / "data" / "public" / "tts_benefits.md",
    "tts_extra_hours": HERE / "data" / "public" / "tts_extra_hours.md",
    "covenant_es": ROOT / "seeds" / "public" / "codigo_conducta_contributor_covenant.md",
    "tts_travel": ROOT / "seeds" / "public" / "tts_travel_guide.md",
    "tts_leave": ROOT / "seeds" / "public" / "tts_leave_types.md",
}
DEMO = {
    "demo_returns": ROOT / "seeds" / "documents" / "returns_policy.md",
    "demo_gastos": ROOT / "seeds" / "documents" / "politica_gastos_viajes.md",
}


def read_sections(paths: list[Path]) -> tuple[list[Section], str]:
    """The files' sections as the content studio reads them, and the course's language."""
    chunks, spans, languages = [], {}, []
    for path in paths:
        parsed, language, new_chunks = parse_and_chunk(path.name, path.read_bytes())
        languages.append((language, len(parsed.full_text)))
        document_id = uuid.uuid5(uuid.NAMESPACE_URL, str(path))
        for new in new_chunks:
            chunk_id = uuid.uuid5(document_id, str(new.position))
            chunks.append(
                Chunk(
                    chunk_id,
                    document_id,
                    parsed.title,
                    new.position,
                    new.heading,
                    new.page_start,
                    new.page_end,
                    new.content,
                    new.token_count,
                    new.heading_spans,
                )
            )
            spans[chunk_id] = new.heading_spans
    main = max(languages, key=lambda pair: pair[1])[0]
    return sections_from_chunks(chunks, spans), "en" if main == "en" else "es"


@functools.cache
def offline_course(*paths: Path) -> dict:
    """{language, sections, outline, modules, review} of the files' offline course."""
    sections, language = read_sections(list(paths))
    themes = themes_twin(sections, language)
    titles = list(dict.fromkeys(s.document_title for s in sections))
    outline = normalize_outline(
        structure_twin(themes, sections, {"doc_titles": titles}, language), themes, sections, language
    )
    corpus = [s.text for s in sections]
    modules = []
    for index, spec in enumerate(outline["modules"]):
        own = module_sections(spec, sections)
        siblings = [term for t in themes if t["key"] not in spec["themes"] for term in t["terms"]]
        modules.append(module_twin(index, spec, own, [], sections, language, siblings, corpus))
    review = review_twin(modules, None, sections, language)
    return {"language": language, "sections": sections, "outline": outline, "modules": modules, "review": review}


def render(course: dict) -> str:
    """Every lesson and exercise as a trainer reads them."""
    lines = [f"# {course['outline']['title']} ({course['language']})"]
    for module in course["modules"]:
        lines += ["", f"## MODULE {module['index'] + 1}: {module['module_spec']['title']}"]
        for lesson in module["lessons"]:
            lines += ["", f"### LESSON {lesson['position']}: {lesson['title']}", "", lesson["content"]]
        for n, exercise in enumerate(module["exercises"], 1):
            lines += ["", f"### EXERCISE {n} [{exercise['type']}, {exercise['bloom_level']}] {exercise['prompt']}"]
            lines += [f"    {key}: {value}" for key, value in exercise["content"].items()]
            lines.append(f"    explanation: {exercise['explanation']}")
    review = course["review"]
    lines += ["", f"REVIEW score {review['overall_score']} passed {review['passed']}"]
    lines += [f"- [{i['severity']}] {i['code']}: {i['description']}" for i in review["issues"]]
    return "\n".join(lines)


if __name__ == "__main__":
    names = sys.argv[1:] or list(PUBLIC)
    for name in names:
        print(render(offline_course(PUBLIC.get(name) or DEMO.get(name) or Path(name))))
        print("\n" + "=" * 100 + "\n")
