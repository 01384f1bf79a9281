"""Published manuals for people to read (employees and admins): list, one manual with its sections and
sources, and the downloads (Markdown as stored, PDF rendered here)."""

from __future__ import annotations

import re
from pathlib import Path
from uuid import UUID

from agents.i18n import t
from agents.runtime.deps import AppDeps
from core.markup import safe_markdown
from storage import manuals
from storage.users import User

_FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")  # Debian's fonts-dejavu, as seeds/ uses


def list_for(deps: AppDeps, user: User) -> list[manuals.Manual]:
    with deps.pool.connection() as conn:
        return manuals.list_manuals(conn, user.org_id)


def get_for(deps: AppDeps, user: User, manual_id: UUID | str) -> manuals.Manual | None:
    """The manual, or None (another organisation's id reads as not found)."""
    try:
        manual_id = UUID(str(manual_id))
    except ValueError:
        return None
    with deps.pool.connection() as conn:
        return manuals.get_manual(conn, user.org_id, manual_id)


def sections_of(manual: manuals.Manual) -> list[dict]:
    """The manual's sections; an older manual without stored sections is split at its headings."""
    if manual.sections:
        return [{**s, "body": safe_markdown(s.get("body") or "")} for s in manual.sections]
    parts = re.split(r"^(#{2,6}) (.+)$", safe_markdown(manual.content_md), flags=re.M)
    return [
        {"heading": parts[i + 1].strip(), "level": len(parts[i]) - 1, "body": parts[i + 2].strip(), "chunk_ids": []}
        for i in range(1, len(parts) - 2, 3)
    ]


def pdf_bytes(manual: manuals.Manual) -> bytes:
    """The manual as a PDF: title, contents, then each section (plain text, in the manual's language)."""
    from fpdf import FPDF

    pdf = FPDF()
    pdf.set_auto_page_break(True, margin=15)
    family = "Helvetica"
    if _FONT.exists():  # Unicode text (accents, quotes); without it, Latin-1 only
        pdf.add_font("DejaVu", "", str(_FONT))
        family = "DejaVu"
    pdf.add_page()

    def write(text: str, size: int, gap: float = 2) -> None:
        pdf.set_font(family, size=size)
        clean = re.sub(r"[*_`#>]", "", text)
        if family != "DejaVu":
            clean = clean.encode("latin-1", "replace").decode("latin-1")
        pdf.multi_cell(0, size * 0.5, clean)
        pdf.ln(gap)

    sections = sections_of(manual)
    write(manual.title, 18, 4)
    write(t("content.manual.toc", manual.language), 13)
    for section in sections:
        write(("   " * (section.get("level", 1) - 1)) + section["heading"], 10, 0)
    pdf.ln(4)
    for section in sections:
        write(section["heading"], 13)
        write(section["body"], 10, 4)
    return bytes(pdf.output())
