-- Uploads ingested in the background (storage/ingestions.py, storage/staged_ingest.py): the upload
-- waits here for a queue worker (which may run on another machine), with its progress for the pages.
CREATE TABLE ingestions (
    id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    org_id          uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    uploaded_by     uuid REFERENCES users(id) ON DELETE SET NULL,
    source_name     text NOT NULL,
    data            bytea,                 -- the uploaded file until it is ingested
    status          text NOT NULL DEFAULT 'queued'
                    CHECK (status IN ('queued', 'parsing', 'embedding', 'done', 'unchanged', 'failed')),
    document_id     uuid REFERENCES documents(id) ON DELETE SET NULL,
    replaces        boolean NOT NULL DEFAULT false,   -- a previous version stays until this one is settled
    pages           integer,
    chunks_total    integer,
    chunks_embedded integer NOT NULL DEFAULT 0,
    error           text,
    error_code      text,
    error_params    jsonb,
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX ingestions_org ON ingestions (org_id, created_at DESC);

-- A version being ingested: its chunks are searchable by full text before they have a vector, and
-- carry the ingestion's id until they become the document's chunks (or are discarded on failure).
ALTER TABLE document_chunks ALTER COLUMN embedding DROP NOT NULL;
ALTER TABLE document_chunks ADD COLUMN ingestion_id uuid REFERENCES ingestions(id) ON DELETE CASCADE;
CREATE INDEX document_chunks_ingestion ON document_chunks (ingestion_id) WHERE ingestion_id IS NOT NULL;
-- positions are unique within the document's settled chunks and within one ingestion's staged ones
ALTER TABLE document_chunks DROP CONSTRAINT document_chunks_document_id_position_key;
CREATE UNIQUE INDEX document_chunks_settled_position ON document_chunks (document_id, position)
    WHERE ingestion_id IS NULL;
CREATE UNIQUE INDEX document_chunks_staged_position ON document_chunks (ingestion_id, position)
    WHERE ingestion_id IS NOT NULL;
