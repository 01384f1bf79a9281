-- Retrieval: one HNSW index per product language (agents/retrieval searches each language's chunks
-- separately so a cross-lingual answer is never crowded out). Filtering the shared index by language
-- makes a Spanish question wade through every nearby Spanish chunk before it reaches an English one:
-- measured at 100k chunks, 300 ms and half the recall; a partial index holds only its language.
CREATE INDEX IF NOT EXISTS document_chunks_embedding_spanish ON document_chunks
    USING hnsw (embedding vector_cosine_ops) WHERE ts_config = 'spanish'::regconfig;
CREATE INDEX IF NOT EXISTS document_chunks_embedding_english ON document_chunks
    USING hnsw (embedding vector_cosine_ops) WHERE ts_config = 'english'::regconfig;
