-- The lexical statistics of migration 090 move only when a chunk's text does, and always lock lexeme
-- rows in one order. Before: every UPDATE of document_chunks (a background ingestion storing a batch of
-- vectors, settling its staged chunks, a flag) took every lexeme of the updated chunks out and put it
-- back, and the taking out (UPDATE … FROM) locked them in whatever order its join produced, so two
-- documents ingested at once deadlocked on their shared lexemes ("deadlock detected" failed a studio job).
-- Now an update counts only the chunks whose tsv, configuration or organisation changed, as one net
-- change per lexeme, and a delete uses the same ordered upsert as an insert. Counts of an organisation
-- being deleted are left out: its cascade removes its lexeme_stats rows before its chunks' statement
-- trigger runs, and the upsert would insert rows naming an organisation that no longer exists.
DROP TRIGGER document_chunks_lexemes_update_old ON document_chunks;
DROP TRIGGER document_chunks_lexemes_update_new ON document_chunks;

-- Applies signed chunk counts (the i-th chunk's org, configuration, tsv and +1/-1): one net count per
-- lexeme, upserted in key order (the lock order every writer shares); lexemes no chunk holds any more go.
CREATE FUNCTION lexeme_stats_apply(orgs uuid[], configs regconfig[], tsvs tsvector[], signs integer[])
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO lexeme_stats (org_id, ts_config, lexeme, chunks)
    SELECT c.org_id, c.ts_config, u.lexeme, sum(c.sign)
    FROM unnest(orgs, configs, tsvs, signs) AS c(org_id, ts_config, tsv, sign)
         JOIN organizations o ON o.id = c.org_id, unnest(c.tsv) u
    GROUP BY 1, 2, 3 HAVING sum(c.sign) <> 0 ORDER BY 1, 2, 3
    ON CONFLICT (org_id, ts_config, lexeme) DO UPDATE SET chunks = lexeme_stats.chunks + EXCLUDED.chunks;
    INSERT INTO lexeme_corpus (org_id, ts_config, chunks, lexemes)
    SELECT c.org_id, c.ts_config, sum(c.sign), sum(c.sign * length(c.tsv))
    FROM unnest(orgs, configs, tsvs, signs) AS c(org_id, ts_config, tsv, sign)
         JOIN organizations o ON o.id = c.org_id
    GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (org_id, ts_config) DO UPDATE SET chunks = lexeme_corpus.chunks + EXCLUDED.chunks,
                                                  lexemes = lexeme_corpus.lexemes + EXCLUDED.lexemes;
    DELETE FROM lexeme_stats s
    USING (SELECT DISTINCT c.org_id, c.ts_config FROM unnest(orgs, configs, signs) AS c(org_id, ts_config, sign)
           WHERE c.sign < 0) r
    WHERE s.org_id = r.org_id AND s.ts_config = r.ts_config AND s.chunks <= 0;
END $$;

CREATE OR REPLACE FUNCTION lexeme_stats_remove() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM lexeme_stats_apply(array_agg(org_id), array_agg(ts_config), array_agg(tsv), array_agg(-1))
    FROM removed;
    RETURN NULL;
END $$;

CREATE FUNCTION lexeme_stats_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM lexeme_stats_apply(array_agg(c.org_id), array_agg(c.ts_config), array_agg(c.tsv), array_agg(c.sign))
    FROM removed o JOIN added n ON n.id = o.id,
         LATERAL (VALUES (o.org_id, o.ts_config, o.tsv, -1), (n.org_id, n.ts_config, n.tsv, 1))
             AS c(org_id, ts_config, tsv, sign)
    WHERE (o.org_id, o.ts_config, o.tsv) IS DISTINCT FROM (n.org_id, n.ts_config, n.tsv);
    RETURN NULL;
END $$;

CREATE TRIGGER document_chunks_lexemes_update AFTER UPDATE ON document_chunks
    REFERENCING OLD TABLE AS removed NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION lexeme_stats_update();
