-- Stale lessons: when a re-ingested document changes or drops a passage, every lesson and exercise
-- that cited it gets a flag holding the old passage (and the new one, when the section still exists)
-- until an admin regenerates its module (resolved) or decides to keep it (kept).
CREATE TABLE stale_sources (
    id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    org_id        uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    document_id   uuid NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    course_id     uuid NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
    module_id     uuid NOT NULL REFERENCES modules(id) ON DELETE CASCADE,
    entity_type   text NOT NULL CHECK (entity_type IN ('lesson', 'exercise')),
    entity_id     uuid NOT NULL,
    change        text NOT NULL CHECK (change IN ('changed', 'removed')),
    old_chunk_id  uuid NOT NULL,
    heading       text NOT NULL DEFAULT '',
    old_content   text NOT NULL,
    new_chunk_id  uuid,
    new_content   text,
    status        text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'kept', 'resolved')),
    decided_by    uuid REFERENCES users(id) ON DELETE SET NULL,
    decided_at    timestamptz,
    created_at    timestamptz NOT NULL DEFAULT now(),
    UNIQUE (entity_type, entity_id, old_chunk_id)
);
CREATE INDEX stale_sources_open ON stale_sources (org_id, status, module_id);
