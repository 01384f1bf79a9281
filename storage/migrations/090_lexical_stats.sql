-- Real lexical statistics for BM25 (ts_rank has no inverse document frequency): per organisation and
-- text-search configuration, how many chunks hold each lexeme, and how many chunks and lexemes there
-- are. Statement-level triggers keep them in step with document_chunks whoever writes it (ingestion,
-- re-ingestion, deletes, cascades), one aggregated upsert per statement.
CREATE TABLE lexeme_stats (
    org_id    uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    ts_config regconfig NOT NULL,
    lexeme    text NOT NULL,
    chunks    integer NOT NULL,
    PRIMARY KEY (org_id, ts_config, lexeme)
);

CREATE TABLE lexeme_corpus (
    org_id    uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    ts_config regconfig NOT NULL,
    chunks    integer NOT NULL,
    lexemes   bigint NOT NULL,   -- sum of length(tsv): distinct lexemes per chunk, BM25's document length
    PRIMARY KEY (org_id, ts_config)
);

CREATE FUNCTION lexeme_stats_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO lexeme_stats (org_id, ts_config, lexeme, chunks)
    SELECT a.org_id, a.ts_config, u.lexeme, count(*) FROM added a, unnest(a.tsv) u
    GROUP BY 1, 2, 3 ORDER BY 1, 2, 3   -- one lock order, so concurrent ingestions don't deadlock
    ON CONFLICT (org_id, ts_config, lexeme) DO UPDATE SET chunks = lexeme_stats.chunks + EXCLUDED.chunks;
    INSERT INTO lexeme_corpus (org_id, ts_config, chunks, lexemes)
    SELECT org_id, ts_config, count(*), sum(length(tsv)) FROM added GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (org_id, ts_config) DO UPDATE SET chunks = lexeme_corpus.chunks + EXCLUDED.chunks,
                                                  lexemes = lexeme_corpus.lexemes + EXCLUDED.lexemes;
    RETURN NULL;
END $$;

CREATE FUNCTION lexeme_stats_remove() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE lexeme_stats s SET chunks = s.chunks - r.n
    FROM (SELECT o.org_id, o.ts_config, u.lexeme, count(*) AS n FROM removed o, unnest(o.tsv) u
          GROUP BY 1, 2, 3 ORDER BY 1, 2, 3) r
    WHERE s.org_id = r.org_id AND s.ts_config = r.ts_config AND s.lexeme = r.lexeme;
    UPDATE lexeme_corpus c SET chunks = c.chunks - r.n, lexemes = c.lexemes - r.total
    FROM (SELECT org_id, ts_config, count(*) AS n, sum(length(tsv)) AS total FROM removed GROUP BY 1, 2) r
    WHERE c.org_id = r.org_id AND c.ts_config = r.ts_config;
    DELETE FROM lexeme_stats s USING (SELECT DISTINCT org_id, ts_config FROM removed) r
    WHERE s.org_id = r.org_id AND s.ts_config = r.ts_config AND s.chunks <= 0;
    RETURN NULL;
END $$;

CREATE TRIGGER document_chunks_lexemes_insert AFTER INSERT ON document_chunks
    REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION lexeme_stats_add();
CREATE TRIGGER document_chunks_lexemes_delete AFTER DELETE ON document_chunks
    REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION lexeme_stats_remove();
CREATE TRIGGER document_chunks_lexemes_update_old AFTER UPDATE ON document_chunks
    REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION lexeme_stats_remove();
CREATE TRIGGER document_chunks_lexemes_update_new AFTER UPDATE ON document_chunks
    REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION lexeme_stats_add();

-- What is already there (the triggers keep it from now on).
INSERT INTO lexeme_stats (org_id, ts_config, lexeme, chunks)
SELECT c.org_id, c.ts_config, u.lexeme, count(*) FROM document_chunks c, unnest(c.tsv) u GROUP BY 1, 2, 3
ON CONFLICT (org_id, ts_config, lexeme) DO NOTHING;
INSERT INTO lexeme_corpus (org_id, ts_config, chunks, lexemes)
SELECT org_id, ts_config, count(*), sum(length(tsv)) FROM document_chunks GROUP BY 1, 2
ON CONFLICT (org_id, ts_config) DO NOTHING;

-- Vietnamese gets its own configuration: tokens as 'simple' (syllables, no stemming, no stop words;
-- unaccented and bigram variants measured in agents/retrieval/fusion.py), but its own
-- language group, so its centroid is centred apart from other languages and it has its own HNSW index.
DO $$ BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_ts_config WHERE cfgname = 'vietnamese') THEN
        CREATE TEXT SEARCH CONFIGURATION vietnamese (COPY = simple);
    END IF;
END $$;
CREATE INDEX IF NOT EXISTS document_chunks_embedding_vietnamese ON document_chunks
    USING hnsw (embedding vector_cosine_ops) WHERE ts_config = 'vietnamese'::regconfig;
UPDATE document_chunks c SET ts_config = 'vietnamese'
FROM documents d WHERE d.id = c.document_id AND d.language = 'vi' AND c.ts_config = 'simple'::regconfig;

