-- Content studio: where each heading's text starts inside a chunk. Ingestion packs small sections
-- together into one chunk under the first one's heading; these spans keep the document's own structure
-- ([[offset, heading path, page], ...]) so a course outline can follow it. NULL for older documents.
ALTER TABLE document_chunks ADD COLUMN IF NOT EXISTS heading_spans jsonb;
-- A manual's sections (heading, level, anchor, body, chunk ids) for the Manuals page and its citations.
ALTER TABLE manuals ADD COLUMN IF NOT EXISTS sections jsonb NOT NULL DEFAULT '[]'::jsonb;
