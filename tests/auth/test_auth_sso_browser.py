"""Company SSO in a real browser: Streamlit's st.login against a real OpenID Connect provider
(npm oidc-provider, tests/oidc) on 127.0.0.1, started here. Skips when node/npm can't provide it."""

from __future__ import annotations

import shutil
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

from tests.browser import chromium_page, free_port, needs_chromium, running_app

OIDC_DIR = Path(__file__).resolve().parents[1] / "oidc"


def _provider_installed() -> bool:
    if (OIDC_DIR / "node_modules" / "oidc-provider").exists():
        return True
    if not (shutil.which("node") and shutil.which("npm")):
        return False
    done = subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=OIDC_DIR, capture_output=True, timeout=600)
    return done.returncode == 0


@pytest.fixture
def provider(tmp_path):
    """(issuer URL, the app's port, secrets.toml path) with the provider running."""
    if not _provider_installed():
        pytest.skip("node/npm unavailable: the OpenID Connect provider for the SSO test can't be installed")
    op_port, app_port = free_port(), free_port()
    issuer = f"http://127.0.0.1:{op_port}"
    process = subprocess.Popen(
        ["node", "provider.mjs", str(op_port), f"http://127.0.0.1:{app_port}/oauth2callback"],
        cwd=OIDC_DIR,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(f"{issuer}/.well-known/openid-configuration", timeout=2):
                break
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(process.stderr.read().decode()[-2000:]) from None
            time.sleep(0.3)
    secrets = tmp_path / "secrets.toml"
    secrets.write_text(f'''[auth]
redirect_uri = "http://127.0.0.1:{app_port}/oauth2callback"
cookie_secret = "a-test-only-cookie-secret-of-enough-length"
client_id = "skillnet"
client_secret = "skillnet-test-secret"
server_metadata_url = "{issuer}/.well-known/openid-configuration"

[auth.client_kwargs]
prompt = "login"  # Streamlit asks for select_account, which this provider does not offer
''')
    yield issuer, app_port, secrets
    process.terminate()
    process.wait(timeout=10)


def _sso(page, base: str, email: str) -> None:
    """Open the app, take the SSO button, and sign in at the provider as ``email``."""
    page.goto(base)
    page.get_by_role("button", name="Sign in with your company account").click(timeout=180_000)
    page.locator("input[name=login]").fill(email, timeout=60_000)
    page.locator("input[name=password]").fill("any")
    page.locator("button[type=submit]").click()
    consent = page.get_by_role("button", name="Continue")
    try:
        consent.click(timeout=10_000)  # the provider's consent step, when it asks
    except Exception:
        pass


@needs_chromium
def test_oidc_sign_in_maps_the_email_to_its_user_and_refuses_strangers(seeded_db_url, provider):
    _, app_port, secrets = provider
    with running_app(
        seeded_db_url,
        port=app_port,
        extra_args=["--secrets.files", str(secrets)],
        extra_env={"SKILLNET_CHAT_PORT": str(free_port())},
    ) as base:
        with chromium_page() as page:
            _sso(page, base, "lucia@acme.test")
            page.get_by_text("lucia@acme.test").wait_for(timeout=60_000)
            page.get_by_role("link", name="Inicio").wait_for(timeout=30_000)  # her home, in Spanish
            page.screenshot(path="/tmp/auth-shots/sso_lucia.png")
        with chromium_page() as page:
            _sso(page, base, "stranger@acme.test")
            page.get_by_text("has no active SkillNet user").wait_for(timeout=60_000)
            assert page.get_by_text("stranger@acme.test").count() == 0
            page.screenshot(path="/tmp/auth-shots/sso_stranger.png")
