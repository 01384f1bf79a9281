-- Skills and skill categories carry their name in each language ({"es": ..., "en": ...}); the name
-- column stays the organisation's canonical name (unique, what CSVs and tools key on).
ALTER TABLE skills ADD COLUMN names jsonb NOT NULL DEFAULT '{}'::jsonb;
ALTER TABLE skill_categories ADD COLUMN names jsonb NOT NULL DEFAULT '{}'::jsonb;
