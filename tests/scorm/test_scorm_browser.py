"""SCORM 1.2 export against a real runtime: scorm-again's Scorm12API (npm, tests/scorm/package.json)
plays the LMS in headless Chromium; the package is opened in a frame, every exercise answered, and
the runtime must hold passed/failed, the score and the suspend data."""

from __future__ import annotations

import functools
import http.server
import io
import json
import shutil
import subprocess
import threading
import zipfile
from pathlib import Path

import pytest

from agents.content.scorm import MASTERY_SCORE, build_package
from storage import courses as course_store
from storage import lessons as lesson_store
from storage.users import get_org_by_slug
from tests.browser import chromium_page, needs_chromium
from tests.conftest import make_deps

HERE = Path(__file__).parent
RUNTIME = HERE / "node_modules" / "scorm-again" / "dist" / "scorm12.js"
COURSE = "Returns and Refunds Essentials"  # every exercise type
LMS_PAGE = """<!DOCTYPE html><html><head><meta charset="utf-8"><script src="scorm12.js"></script>
<script>window.API = new Scorm12API({autocommit: false, logLevel: 5});</script></head>
<body><iframe id="sco" src="package/index.html" style="width:100%;height:2000px"></iframe></body></html>"""


def _runtime() -> Path:
    if not RUNTIME.exists():
        if shutil.which("npm") is None:
            pytest.skip("npm is not installed: cannot fetch scorm-again")
        done = subprocess.run(["npm", "install", "--no-audit", "--no-fund"], cwd=HERE, capture_output=True, timeout=300)
        if done.returncode != 0 or not RUNTIME.exists():
            pytest.skip(f"npm could not install scorm-again: {done.stderr.decode()[-200:]}")
    return RUNTIME


@pytest.fixture(scope="module")
def course(seeded_pool):
    with seeded_pool.connection() as conn:
        org = get_org_by_slug(conn, "acme")
        found = next(c for c in course_store.list_courses(conn, org.id) if c.title == COURSE)
        outline = lesson_store.get_course_outline(conn, org.id, found.id)
    name, package = build_package(make_deps(seeded_pool), org.id, found.id)
    exercises = [x for m in outline.modules for lesson in m.lessons for x in lesson.exercises]
    return package, exercises


@pytest.fixture(scope="module")
def lms_url(course, tmp_path_factory):
    root = tmp_path_factory.mktemp("lms")
    shutil.copy(_runtime(), root / "scorm12.js")
    (root / "lms.html").write_text(LMS_PAGE, encoding="utf-8")
    zipfile.ZipFile(io.BytesIO(course[0])).extractall(root / "package")
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/lms.html"
    server.shutdown()


def _answer(frame, exercise, right: bool) -> bool:
    """Answer one exercise in the package's page; returns whether the answer is right."""
    box, content = frame.locator(f"#ex-{exercise.id}"), exercise.content
    if exercise.type == "test":
        pick = content["answer"] if right else (content["answer"] + 1) % len(content["options"])
        box.locator(f"input[value='{pick}']").check()
    elif exercise.type == "true_false":
        box.locator(f"input[value='{str(content['answer'] == right).lower()}']").check()
    elif exercise.type == "fill_blank":
        box.locator("input[type=text]").fill(content["answers"][0] if right else "zzz")
    elif exercise.type == "order_steps":
        n = len(content["steps"])
        for step in range(n):
            box.locator(f"select[data-step='{step}']").select_option(str(step + 1 if right else n - step))
    elif exercise.type == "dialogue":
        node = content["start"]
        while node is not None:
            options = content["nodes"][node]["options"]
            option = next((o for o in options if o["correct"] == right), options[0])
            box.get_by_role("button", name=option["text"], exact=True).first.click()
            right = right and option["correct"]
            node = option["next"]
        return right
    else:
        return False  # practical cases are not scored in the package
    return right


@needs_chromium
@pytest.mark.parametrize("right", [True, False], ids=["all-right", "all-wrong"])
def test_the_runtime_records_status_score_and_suspend_data(course, lms_url, right):
    package, exercises = course
    graded = [x for x in exercises if x.type != "practical_case"]
    with chromium_page(height=1000) as page:
        page.goto(lms_url)
        frame = page.frame_locator("#sco")
        frame.locator("#submit").wait_for(timeout=60_000)
        assert page.evaluate("window.API.cmi.core.lesson_status") == "incomplete"  # the SCO initialised
        results = [_answer(frame, x, right) for x in graded]
        frame.locator("#submit").click()
        frame.locator("#result").filter(has_text="·").wait_for(timeout=30_000)
        status = page.evaluate("window.API.LMSGetValue('cmi.core.lesson_status')")
        score = page.evaluate("window.API.LMSGetValue('cmi.core.score.raw')")
        suspend = json.loads(page.evaluate("window.API.LMSGetValue('cmi.suspend_data')"))
    expected = round(100 * sum(results) / len(graded))
    assert int(score) == expected == (100 if right else 0)
    assert status == ("passed" if expected >= MASTERY_SCORE else "failed")
    assert {str(x.id) for x in graded} <= set(suspend)


def test_manifest_is_a_well_formed_scorm12_package(course):
    from xml.etree import ElementTree as ET

    package, exercises = course
    archive = zipfile.ZipFile(io.BytesIO(package))
    names = set(archive.namelist())
    ns = {"cp": "http://www.imsproject.org/xsd/imscp_rootv1p1p2", "adlcp": "http://www.adlnet.org/xsd/adlcp_rootv1p2"}
    root = ET.fromstring(archive.read("imsmanifest.xml"))
    assert root.tag == f"{{{ns['cp']}}}manifest" and root.get("identifier")
    assert root.findtext("cp:metadata/cp:schema", namespaces=ns) == "ADL SCORM"
    assert root.findtext("cp:metadata/cp:schemaversion", namespaces=ns) == "1.2"
    organizations = root.find("cp:organizations", ns)
    default = organizations.get("default")
    organization = next(o for o in organizations.findall("cp:organization", ns) if o.get("identifier") == default)
    assert organization.findtext("cp:title", namespaces=ns) == COURSE
    resources = {r.get("identifier"): r for r in root.findall("cp:resources/cp:resource", ns)}
    items = organization.findall(".//cp:item", ns)
    assert items
    for item in items:
        resource = resources[item.get("identifierref")]
        assert resource.get(f"{{{ns['adlcp']}}}scormtype") == "sco" and resource.get("type") == "webcontent"
        assert resource.get("href") in names
        assert 0 <= int(item.findtext("adlcp:masteryscore", namespaces=ns)) <= 100
    listed = {f.get("href") for r in resources.values() for f in r.findall("cp:file", ns)}
    assert listed == names - {"imsmanifest.xml"}
    page = archive.read("index.html").decode()
    assert all(x.prompt.replace("'", "&#x27;").split("“")[0][:20] in page or x.prompt[:20] in page for x in exercises)


def test_lesson_html_is_sanitised_and_images_are_inlined():
    from agents.content.scorm import lesson_html

    out = lesson_html(
        "# T\n\n<script>alert(1)</script>\n\n![chart](https://example.com/x.png) "
        "![dot](data:image/png;base64,iVBORw0KGgo=)\n\n[link](javascript:alert(1))"
    )
    assert "<script" not in out and 'href="javascript' not in out and "example.com" not in out
    assert "chart" in out and 'src="data:image/png;base64,iVBORw0KGgo="' in out


def test_cli_exports_and_refuses_bad_input(course, seeded_pool, tmp_path, capsys):
    from agents.content.__main__ import main

    with seeded_pool.connection() as conn:
        org = get_org_by_slug(conn, "acme")
        draft = next(c for c in course_store.list_courses(conn, org.id) if c.status == "draft")
        published = next(c for c in course_store.list_courses(conn, org.id) if c.title == COURSE)
    out = tmp_path / "course.zip"
    assert main(["export", str(published.id), "--format", "scorm12", "-o", str(out)]) == 0
    assert zipfile.is_zipfile(out) and "imsmanifest.xml" in zipfile.ZipFile(out).namelist()
    assert main(["export", str(draft.id), "--format", "scorm12", "-o", str(out)]) == 2
    assert main(["export", "not-an-id", "--format", "scorm12", "-o", str(out)]) == 2
    assert "error:" in capsys.readouterr().err
