"""The first screens say what they are waiting for (session 16's walk): after "Sign in" the form showed nothing
for 2-4 s on a busy machine, then the sidebar appeared beside the faded form until the home page's data had
loaded. Now the sign-in says it is signing in, and each home shows its title (replacing the form) and what it
is loading before it waits for the database.

The waits are made real and long here: the test holds a lock on the table the step reads or writes, checks
the screen, then lets go."""

import contextlib

import psycopg

from tests.browser import STEP, chromium_page, needs_chromium, running_app


@contextlib.contextmanager
def table_locked(database_url: str, table: str):
    """Every read and write of ``table`` waits until the block ends."""
    with psycopg.connect(database_url) as conn, conn.transaction():
        conn.execute(f"LOCK TABLE {table} IN ACCESS EXCLUSIVE MODE")
        yield


def sign_in_waiting_on(page, base: str, email: str, password: str, labels: dict[str, str], database_url: str):
    page.goto(base)
    page.get_by_label(labels["email"]).wait_for(timeout=STEP)
    box = page.locator('[data-testid="stForm"]').bounding_box()
    assert box is not None and box["width"] <= 520, f"the sign-in form is {box} wide: a form, not the screen"
    page.get_by_label(labels["email"]).fill(email)
    page.get_by_label(labels["password"], exact=True).fill(password)
    with table_locked(database_url, "user_sessions"):  # the sign-in stores its session there
        page.get_by_role("button", name=labels["sign_in"]).click()
        page.get_by_text(labels["signing_in"]).wait_for(timeout=STEP)
        assert page.get_by_label(labels["email"]).is_visible(), "the form stays until the sign-in is done"


@needs_chromium
def test_signing_in_and_each_home_say_what_they_wait_for(seeded_db_url):
    spanish = {"email": "Correo electrónico", "password": "Contraseña", "sign_in": "Entrar", "signing_in": "Entrando…"}
    english = {"email": "Email", "password": "Password", "sign_in": "Sign in", "signing_in": "Signing you in…"}
    with running_app(seeded_db_url) as base:
        with chromium_page(locale="es-ES") as page:
            loading = page.get_by_text("Cargando tus cursos, repasos y conversaciones…")
            with table_locked(seeded_db_url, "enrollments"):  # the employee's home lists her courses
                sign_in_waiting_on(page, base, "lucia@acme.test", "skillnet-demo", spanish, seeded_db_url)
                page.get_by_role("heading", name="Hola, Lucía 👋").wait_for(timeout=STEP)
                loading.wait_for(timeout=STEP)
                assert not page.get_by_label("Correo electrónico").is_visible(), "the title replaced the form"
            page.get_by_text("Cursos pendientes").wait_for(timeout=STEP)
            loading.wait_for(state="detached", timeout=STEP)

        with chromium_page(locale="en-GB") as page:
            loading = page.get_by_text("Counting people, courses, skills and alerts…")
            with table_locked(seeded_db_url, "enrollments"):  # the admin's overview counts open enrollments
                sign_in_waiting_on(page, base, "oliver@acme.test", "skillnet-admin", english, seeded_db_url)
                page.get_by_role("heading", name="🏢 Overview").wait_for(timeout=STEP)
                loading.wait_for(timeout=STEP)
            page.get_by_text("Open enrollments").wait_for(timeout=STEP)
            loading.wait_for(state="detached", timeout=STEP)
