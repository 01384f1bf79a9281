-- Instruction-like passages found at ingestion (storage/instructions.py): taken out of the chunk text
-- and recorded here, so the admin sees per document what was held back and why.
ALTER TABLE document_chunks ADD COLUMN flagged boolean NOT NULL DEFAULT false;
CREATE TABLE flagged_passages (
    id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    org_id      uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    document_id uuid NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    heading     text NOT NULL DEFAULT '',
    page        integer,
    family      text NOT NULL,
    text        text NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX flagged_passages_document ON flagged_passages (org_id, document_id);
