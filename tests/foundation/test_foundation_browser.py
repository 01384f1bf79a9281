"""Sign-in for each role in a real browser (headless Chromium)."""

from tests.browser import chromium_page, needs_chromium, running_app, sign_in, sign_out


@needs_chromium
def test_admin_and_employee_sign_in_in_a_real_browser(seeded_db_url, tmp_path):
    with running_app(seeded_db_url) as base, chromium_page() as page:
        page.goto(base)
        page.get_by_label("Email").wait_for(timeout=180_000)
        page.get_by_label("Email").fill("admin@acme.test")
        page.get_by_label("Password", exact=True).fill("wrong")
        page.get_by_role("button", name="Sign in").click()
        page.get_by_text("Wrong email or password").wait_for(timeout=30_000)

        sign_in(page, base, "admin@acme.test", "skillnet-admin")
        page.get_by_role("link", name="Resumen").wait_for(timeout=30_000)  # the admin reads Spanish
        page.screenshot(path=str(tmp_path / "admin.png"))
        sign_out(page, "Salir")

        sign_in(page, base, "lucia@acme.test", "skillnet-demo")
        page.get_by_role("link", name="Inicio").wait_for(timeout=30_000)
        assert page.get_by_role("link", name="Resumen").count() == 0
        page.screenshot(path=str(tmp_path / "employee.png"))
