"""Streamlit's file uploader reads in the page's language (ui/uploads.py), seen in a real browser.

Streamlit writes its uploader's words in English; the style sheet that covers them depends on where
Streamlit puts them, so this fails when an upgrade moves them. In the same app, a file the retrieval lab
takes goes through the app's queue worker and becomes searchable.
"""

from __future__ import annotations

import re
from pathlib import Path

from agents.i18n import t
from tests.browser import chromium_page, free_port, needs_chromium, running_app, sign_in

SHOTS = Path("/tmp/i18n-shots")
UPLOADER = ".st-key-uploads-0 [data-testid=stFileUploaderDropzone]"
SHOWN = """([selector]) => {
    const element = document.querySelector(selector);
    return [getComputedStyle(element).fontSize, getComputedStyle(element, '::after').content];
}"""


@needs_chromium
def test_the_uploaders_speak_spanish_to_a_spanish_admin_and_the_lab_ingests_what_it_takes(seeded_db_url):
    SHOTS.mkdir(exist_ok=True)
    # a 1 MB limit, so a file Streamlit refuses in the browser is small enough to hand it
    # the app's own queue worker ingests the lab's upload (the test process sets it "off" for everything else)
    with (
        running_app(
            seeded_db_url,
            extra_env={
                "SKILLNET_CHAT_PORT": str(free_port()),
                "SKILLNET_MAX_UPLOAD_MB": "1",
                "SKILLNET_CONTENT_WORKER": "thread",
            },
        ) as base,
        chromium_page() as page,
    ):
        sign_in(page, base, "admin@acme.test", "skillnet-admin")
        page.goto(f"{base}/content_studio")
        page.locator(UPLOADER).wait_for(timeout=120_000)  # the new-job form is open while there are no jobs
        button = f"{UPLOADER} [data-testid=stBaseButton-secondary] p"
        limit = f"{UPLOADER} [data-testid=stFileUploaderDropzoneInstructions] span"
        assert page.evaluate(SHOWN, [button]) == ["0px", f'"{t("uploads.button", "es")}"']  # not "Upload"
        assert page.evaluate(SHOWN, [limit]) == ["0px", f'"{t("uploads.limit", "es", size="1")}"']
        page.screenshot(path=str(SHOTS / "studio_uploader_es.png"))

        dragged = page.evaluate_handle(
            "() => { const d = new DataTransfer(); d.items.add(new File(['# x'], 'x.md')); return d; }"
        )
        page.locator(UPLOADER).dispatch_event("dragenter", {"dataTransfer": dragged})
        drag = f"{UPLOADER} > div:not([data-testid]) > span"
        page.locator(drag).wait_for(timeout=30_000)
        assert page.evaluate(SHOWN, [drag]) == ["0px", f'"{t("uploads.drag_many", "es")}"']
        page.screenshot(path=str(SHOTS / "studio_uploader_dragging_es.png"))

        page.locator(f"{UPLOADER} input[type=file]").set_input_files(
            [{"name": "grande.md", "mimeType": "text/markdown", "buffer": b"# grande\n" + b"x" * 1_200_000}]
        )
        refused = ".st-key-uploads-0 [data-testid=stFileChip][aria-invalid=true] [data-testid=stFileChipName]"
        page.locator(refused).wait_for(timeout=30_000)  # Streamlit refused it in the browser (over 1 MB)
        assert page.evaluate(SHOWN, [refused])[1] == f'" · {t("uploads.rejected_size", "es", size="1")}"'
        page.screenshot(path=str(SHOTS / "studio_uploader_refused_es.png"))

        # a file type a page does not take is refused by our check, in Spanish (Streamlit's says so in English)
        page.goto(f"{base}/retrieval_lab")
        page.get_by_role("tab", name=t("ingestion.tab", "es")).click()
        lab = ".st-key-lab_uploads [data-testid=stFileUploaderDropzone] input[type=file]"
        page.locator(lab).wait_for(state="attached", timeout=120_000)
        page.locator(lab).set_input_files(
            [{"name": "notas.exe", "mimeType": "application/octet-stream", "buffer": b"MZ"}]
        )
        line = t("uploads.refused_type", "es", name="notas.exe", types="PDF, DOCX, MD, TXT, HTML")
        page.get_by_text(line, exact=True).wait_for(timeout=120_000)
        assert not page.locator(".st-key-lab_uploads [data-testid=stFileChip][aria-invalid=true]").count()
        assert not page.get_by_role("button", name=t("ingestion.start", "es")).count()  # nothing to ingest
        page.screenshot(path=str(SHOTS / "lab_uploader_refused_type_es.png"))

        # a document the lab takes: queued, parsed and embedded by the app's worker, then listed as searchable
        counted = re.compile(
            "^" + re.escape(t("admin.lab.documents_heading", "es", n=999)).replace("999", r"(\d+)") + "$"
        )
        page.get_by_text(counted).wait_for(timeout=60_000)
        before = int(counted.match(page.get_by_text(counted).inner_text()).group(1))
        page.locator(lab).set_input_files(
            [
                {
                    "name": "inventario.md",
                    "mimeType": "text/markdown",
                    "buffer": "# Inventario de fin de mes\n\nEl último día hábil se cuentan las "
                    "existencias del almacén y se anotan en la hoja F-ALM-12.".encode(),
                }
            ]
        )
        page.get_by_role("button", name=t("ingestion.start", "es")).click()
        page.get_by_text(t("admin.lab.documents_heading", "es", n=before + 1), exact=True).wait_for(timeout=240_000)
        page.get_by_text("Inventario de fin de mes", exact=True).wait_for(
            state="attached", timeout=30_000
        )  # a grid cell
        page.screenshot(path=str(SHOTS / "lab_upload_searchable_es.png"))
