-- Knowledge gaps: an admin's "missing document" note on a cluster of tutor questions no document
-- answers. It holds the cluster's name and size only: never who asked, never a question's text.
CREATE TABLE knowledge_gap_notes (
    id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    org_id      uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    topic       text NOT NULL,
    questions   integer NOT NULL,
    note        text NOT NULL DEFAULT '',
    created_by  uuid REFERENCES users(id) ON DELETE SET NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    UNIQUE (org_id, topic)
);
