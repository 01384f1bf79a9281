"""Content studio fixtures: an organisation with an admin, and the fixture documents ingested once."""

from __future__ import annotations

from pathlib import Path

import pytest

from agents.ingestion.pipeline import ingest_file
from storage import users
from tests.people import upsert_user

DATA = Path(__file__).parent / "data"


@pytest.fixture(scope="module")
def studio(pool):
    """(org, admin, {file name: document id}) in this module's fresh database."""
    with pool.connection() as conn:
        org = users.ensure_org(conn, "sol", "Tiendas Sol")
        admin = upsert_user(
            conn, org.id, email="ana@sol.test", full_name="Ana Admin", role="admin", password="secret-pass"
        )
    docs = {
        path.name: ingest_file(pool, org.id, path, uploaded_by=admin.id).document_id
        for path in sorted(DATA.glob("*.md"))
    }
    return org, admin, docs
