"""SCORM 1.2 export of a published course: one SCO any SCORM 1.2 LMS can run.

The zip holds ``imsmanifest.xml`` (IMS Content Packaging 1.1.4 with the ADL SCORM 1.2 extensions),
``index.html`` (every lesson as sanitised HTML, images inlined or reduced to their alt text, then
the course's exercises as a quiz) and ``scorm.js`` (finds the LMS's ``API`` object, restores
answers from ``cmi.suspend_data``, and on submit reports ``cmi.core.score.raw`` and
``cmi.core.lesson_status`` passed/failed against the mastery score). Exercises that need a human
or a model to grade (practical cases) are shown with their model answer and not scored.
"""

from __future__ import annotations

import html
import io
import json
import re
import unicodedata
import zipfile
from pathlib import Path
from uuid import UUID
from xml.etree import ElementTree as ET

from agents.i18n import t
from agents.runtime.deps import AppDeps
from core.markup import markdown_html
from storage import courses as course_store
from storage import exercises as exercise_store
from storage import lessons as lesson_store

MASTERY_SCORE = 80
GRADED_TYPES = ("test", "true_false", "fill_blank", "order_steps", "dialogue")
ASSETS = Path(__file__).parent / "scorm_assets"
_IMAGE = re.compile(r"!\[([^\]]*)\]\(([^)\s]+)[^)]*\)")
NS = {
    "": "http://www.imsproject.org/xsd/imscp_rootv1p1p2",
    "adlcp": "http://www.adlnet.org/xsd/adlcp_rootv1p2",
    "xsi": "http://www.w3.org/2001/XMLSchema-instance",
}


class ExportError(ValueError):
    """A course that cannot be exported; one line."""


def lesson_html(markdown: str) -> str:
    """A lesson's Markdown as safe HTML: no scripts or handlers; images only as inlined data URIs."""
    inlined = _IMAGE.sub(lambda m: m.group(0) if m.group(2).startswith("data:image/") else m.group(1), markdown)
    return markdown_html(inlined, embedded_images=True)


def _quiz_item(exercise: exercise_store.Exercise) -> dict:
    """What the in-package quiz needs of one exercise (its answer key travels with it: SCORM 1.2 SCOs
    grade in the browser)."""
    item = {
        "id": str(exercise.id),
        "type": exercise.type,
        "prompt": exercise.prompt,
        "explanation": exercise.explanation,
        "graded": exercise.type in GRADED_TYPES,
    }
    return {**item, **exercise.content}


def _manifest(course: course_store.Course, identifier: str, files: list[str]) -> bytes:
    for prefix, uri in NS.items():
        ET.register_namespace(prefix, uri)
    q = lambda tag, ns="": f"{{{NS[ns]}}}{tag}"  # noqa: E731 (ElementTree's qualified names)
    root = ET.Element(
        q("manifest"),
        {
            "identifier": identifier,
            "version": "1.0",
            q("schemaLocation", "xsi"): (
                "http://www.imsproject.org/xsd/imscp_rootv1p1p2 imscp_rootv1p1p2.xsd "
                "http://www.adlnet.org/xsd/adlcp_rootv1p2 adlcp_rootv1p2.xsd"
            ),
        },
    )
    metadata = ET.SubElement(root, q("metadata"))
    ET.SubElement(metadata, q("schema")).text = "ADL SCORM"
    ET.SubElement(metadata, q("schemaversion")).text = "1.2"
    organizations = ET.SubElement(root, q("organizations"), {"default": "ORG-1"})
    organization = ET.SubElement(organizations, q("organization"), {"identifier": "ORG-1"})
    ET.SubElement(organization, q("title")).text = course.title
    item = ET.SubElement(
        organization, q("item"), {"identifier": "ITEM-1", "identifierref": "SCO-1", "isvisible": "true"}
    )
    ET.SubElement(item, q("title")).text = course.title
    ET.SubElement(item, q("masteryscore", "adlcp")).text = str(MASTERY_SCORE)
    resources = ET.SubElement(root, q("resources"))
    resource = ET.SubElement(
        resources,
        q("resource"),
        {"identifier": "SCO-1", "type": "webcontent", q("scormtype", "adlcp"): "sco", "href": "index.html"},
    )
    for name in files:
        ET.SubElement(resource, q("file"), {"href": name})
    return ET.tostring(root, encoding="utf-8", xml_declaration=True)


def _page(outline: lesson_store.CourseOutline, lang: str) -> str:
    course = outline.course
    sections = []
    for module in outline.modules:
        lessons = "".join(
            f'<section class="lesson"><h3>{html.escape(lesson.title)}</h3>{lesson_html(lesson.content_md)}</section>'
            for lesson in module.lessons
        )
        sections.append(f"<article><h2>{html.escape(module.title)}</h2>{lessons}</article>")
    quiz = [_quiz_item(x) for m in outline.modules for lesson in m.lessons for x in lesson.exercises]
    words = {
        key: t(f"insights.scorm.{key}", lang)
        for key in (
            "quiz",
            "submit",
            "passed",
            "failed",
            "score",
            "not_graded",
            "model_answer",
            "restart_dialogue",
            "your_order",
            "true",
            "false",
            "answer_all",
            "correct",
            "wrong",
        )
    }
    template = (ASSETS / "index.html").read_text(encoding="utf-8")
    return (
        template.replace("{{lang}}", html.escape(lang))
        .replace("{{title}}", html.escape(course.title))
        .replace("{{description}}", html.escape(course.description))
        .replace("{{lessons}}", "".join(sections))
        .replace(
            "{{data}}",
            json.dumps({"mastery": MASTERY_SCORE, "quiz": quiz, "words": words}, ensure_ascii=False).replace(
                "</", "<\\/"
            ),
        )
    )


def build_package(deps: AppDeps, org_id: UUID | None, course_id: UUID | str) -> tuple[str, bytes]:
    """(file name, zip bytes) of the course's SCORM 1.2 package; ``org_id`` None (the operator's CLI)
    exports from whichever organisation holds the course."""
    try:
        course_uuid = UUID(str(course_id))
    except ValueError:
        raise ExportError(f"not a course id: {course_id}") from None
    with deps.pool.connection() as conn:
        org_id = org_id or course_store.course_org_id(conn, course_uuid)
        outline = lesson_store.get_course_outline(conn, org_id, course_uuid) if org_id else None
    if outline is None:
        raise ExportError(f"no course {course_id} in this organisation")
    if outline.course.status != "published":
        raise ExportError("only published courses can be exported")
    lang = outline.course.language
    files = {
        "index.html": _page(outline, lang).encode("utf-8"),
        "scorm.js": (ASSETS / "scorm.js").read_bytes(),
        "style.css": (ASSETS / "style.css").read_bytes(),
    }
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as package:
        package.writestr("imsmanifest.xml", _manifest(outline.course, f"skillnet-{course_uuid}", list(files)))
        for name, data in files.items():
            package.writestr(name, data)
    plain = unicodedata.normalize("NFKD", outline.course.title).encode("ascii", "ignore").decode().lower()
    slug = re.sub(r"[^a-z0-9]+", "-", plain).strip("-")[:60] or "course"
    return f"{slug}-scorm12.zip", buffer.getvalue()
