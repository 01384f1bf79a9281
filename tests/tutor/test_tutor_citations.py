"""Citations point at the section a sentence comes from, even where small sections share one chunk."""
from __future__ import annotations

from agents.retrieval import Passage
from agents.tutor.citations import pinpoint
from storage import sources
from storage.ingest import ingest_file
from storage.users import ensure_org

POLICY = """# Uniform Policy

## 1. Badges

Wear your badge at all times inside the store, clipped at chest height.

## 2. Shoes

Closed non-slip shoes are mandatory in the warehouse and the stockroom.

## 3. Lockers

Personal belongings stay in the staff lockers, which are emptied every Friday evening.
"""


def test_a_sentence_from_a_merged_section_is_cited_with_its_own_heading(pool, tmp_path):
    path = tmp_path / "uniform_policy.md"
    path.write_text(POLICY, encoding="utf-8")
    with pool.connection() as conn:
        org = ensure_org(conn, "citations")
    result = ingest_file(pool, org.id, path)
    with pool.connection() as conn:
        chunks = sources.document_chunks_by_document(conn, org.id, result.document_id)
        assert len(chunks) == 1 and len(chunks[0].heading_spans) == 3, "the three sections share one chunk"
        passage = Passage(index=1, document="Uniform Policy", section="1. Badges", page=None,
                          source_type="document_chunk", source_id=str(chunks[0].id), text=chunks[0].content)
        for sentence, heading in (("Closed non-slip shoes are mandatory in the warehouse [1].", "2. Shoes"),
                                  ("Lockers are emptied every Friday evening [1].", "3. Lockers"),
                                  ("Wear your badge at chest height [1].", "1. Badges")):
            [citation] = pinpoint(conn, org.id, sentence, [passage])
            assert citation.section == heading, (sentence, citation)
            assert citation.source_id == str(chunks[0].id)
