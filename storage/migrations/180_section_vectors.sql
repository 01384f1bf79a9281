-- One vector per section of a chunk that packs several small sections (heading_spans with two or more
-- entries, each embedded as its own text at ingestion): a question about one of those sections is
-- compared with that section, not only with the chunk's vector, which averages all of their topics
-- (agents/retrieval/fusion.py). NULL for a one-section chunk (its own vector is its section's) and for
-- chunks stored before this migration until their document is ingested again.
ALTER TABLE document_chunks ADD COLUMN IF NOT EXISTS section_embeddings vector[];
