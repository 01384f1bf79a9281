"""A first start in a real browser: the server prepares an empty database (migrations, the demo
organisation) in the background while the visitor sees a "preparing…" page in their browser's
language, with no page list in the sidebar; then the sign-in form replaces it by itself, at the same
address, and the demo admin can sign in."""

import time

from storage import users
from tests.browser import STEP, chromium_page, needs_chromium, running_app


@needs_chromium
def test_a_first_start_shows_the_preparing_page_then_the_form(db_url, pool, tmp_path):
    with pool.connection() as conn:
        assert users.get_org_by_slug(conn, "acme") is None, "an empty database: the app loads the demo itself"
    with running_app(db_url) as base, chromium_page(locale="es-ES") as page:
        started = time.perf_counter()
        page.goto(f"{base}/my_tickets?ticket=7")
        page.get_by_text("Preparando SkillNet").wait_for(timeout=STEP)
        preparing = time.perf_counter() - started
        page.screenshot(path=str(tmp_path / "preparing.png"))
        assert page.locator('[data-testid="stSidebarNav"]').count() == 0, "no page list while preparing"
        assert "my_tickets" not in page.inner_text("body") and "Preparing" not in page.inner_text("body")

        page.get_by_label("Correo electrónico").wait_for(timeout=STEP)  # by itself: no reload
        form = time.perf_counter() - started
        page.screenshot(path=str(tmp_path / "form.png"))
        assert page.get_by_text("Preparando SkillNet").count() == 0
        assert page.url.endswith("/my_tickets?ticket=7"), "the address survives the wait"

        page.get_by_label("Correo electrónico").fill("oliver@acme.test")
        page.get_by_label("Contraseña", exact=True).fill("skillnet-admin")
        page.get_by_role("button", name="Entrar").click()
        page.get_by_text("oliver@acme.test").wait_for(timeout=STEP)
    with pool.connection() as conn:
        assert users.get_org_by_slug(conn, "acme") is not None
    print(
        f"\nfirst start on an empty database: preparing page {preparing:.1f} s, sign-in form {form:.1f} s "
        "after the first visit"
    )
