-- Migration 171's ordered upsert inserted a lexeme's (negative) count when its row was gone, which an
-- organisation's deletion does first: its cascade removes lexeme_stats before the chunks' statement
-- trigger runs, and the insert then named an organisation that no longer exists (the seed CLI's --reset
-- failed on lexeme_stats_org_id_fkey). Counts of organisations being deleted are left out.
CREATE OR REPLACE FUNCTION lexeme_stats_apply(orgs uuid[], configs regconfig[], tsvs tsvector[], signs integer[])
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
