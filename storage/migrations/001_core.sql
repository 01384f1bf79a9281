-- SkillNet core data model. Every row that belongs to an organisation carries org_id.
CREATE EXTENSION IF NOT EXISTS vector;

CREATE TABLE organizations (
    id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    slug        text NOT NULL UNIQUE CHECK (slug ~ '^[a-z0-9][a-z0-9-]{0,62}$'),
    name        text NOT NULL,
    default_language text NOT NULL DEFAULT 'es',
    created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE users (
    id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    org_id        uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    email         text NOT NULL UNIQUE CHECK (email = lower(email)),
    full_name     text NOT NULL,
    role          text NOT NULL CHECK (role IN ('admin', 'employee')),
    is_active     boolean NOT NULL DEFAULT true,
    password_hash text NOT NULL,
    department    text,
    job_title     text,
    language      text NOT NULL DEFAULT 'es',
    created_at    timestamptz NOT NULL DEFAULT now(),
    last_active_at timestamptz
);
CREATE INDEX users_org ON users (org_id, department);

CREATE TABLE skill_categories (
    id      uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    org_id  uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    name    text NOT NULL,
    UNIQUE (org_id, name)
);

CREATE TABLE skills (
    id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    org_id      uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    category_id uuid NOT NULL REFERENCES skill_categories(id) ON DELETE CASCADE,
    name        text NOT NULL,
    description text,
    UNIQUE (org_id, name)
);

CREATE TABLE user_skills (
    org_id           uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    user_id          uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    skill_id         uuid NOT NULL REFERENCES skills(id) ON DELETE CASCADE,
    level            text NOT NULL CHECK (level IN ('low', 'medium', 'high')),
    source           text NOT NULL CHECK (source IN ('checkpoint', 'admin')),
    verified_by      uuid REFERENCES users(id) ON DELETE SET NULL,
    last_assessed_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, skill_id)
);
CREATE INDEX user_skills_org_skill ON user_skills (org_id, skill_id);

CREATE TABLE documents (
    id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    org_id       uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    source_name  text NOT NULL,            -- file name: identifies "the same document" across re-ingests
    title        text NOT NULL,
    mime_type    text NOT NULL,
    full_text    text NOT NULL,
    page_count   integer NOT NULL DEFAULT 1,
    language     text NOT NULL,
    content_hash text NOT NULL,
    token_count  integer NOT NULL DEFAULT 0,
    uploaded_by  uuid REFERENCES users(id) ON DELETE SET NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    updated_at   timestamptz NOT NULL DEFAULT now(),
    UNIQUE (org_id, source_name)
);

CREATE TABLE document_chunks (
    id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    org_id      uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    document_id uuid NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    position    integer NOT NULL,
    heading     text NOT NULL DEFAULT '',
    page_start  integer,
    page_end    integer,
    content     text NOT NULL,
    token_count integer NOT NULL,
    ts_config   regconfig NOT NULL DEFAULT 'simple',
    embedding   vector(384) NOT NULL,
    tsv         tsvector GENERATED ALWAYS AS (
                    setweight(to_tsvector(ts_config, heading), 'A') || to_tsvector(ts_config, content)
                ) STORED,
    UNIQUE (document_id, position)
);
CREATE INDEX document_chunks_org_doc ON document_chunks (org_id, document_id);
CREATE INDEX document_chunks_embedding ON document_chunks USING hnsw (embedding vector_cosine_ops);
CREATE INDEX document_chunks_tsv ON document_chunks USING gin (tsv);

CREATE TABLE courses (
    id                 uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    org_id             uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    title              text NOT NULL,
    description        text NOT NULL DEFAULT '',
    outcome            text NOT NULL DEFAULT '',
    status             text NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'published', 'archived')),
    language           text NOT NULL DEFAULT 'es',
    source_document_id uuid REFERENCES documents(id) ON DELETE SET NULL,
    generation_job_id  uuid,
    created_by         uuid REFERENCES users(id) ON DELETE SET NULL,
    created_at         timestamptz NOT NULL DEFAULT now(),
    published_at       timestamptz,
    UNIQUE (org_id, title)
);

-- every document a course was built from (the grounding ladder's "whole document" rung)
CREATE TABLE course_documents (
    course_id   uuid NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
    document_id uuid NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    org_id      uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    PRIMARY KEY (course_id, document_id)
);

CREATE TABLE course_skills (
    course_id    uuid NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
    skill_id     uuid NOT NULL REFERENCES skills(id) ON DELETE CASCADE,
    org_id       uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    target_level text NOT NULL DEFAULT 'medium' CHECK (target_level IN ('low', 'medium', 'high')),
    PRIMARY KEY (course_id, skill_id)
);

CREATE TABLE modules (
    id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    org_id           uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    course_id        uuid NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
    position         integer NOT NULL,
    title            text NOT NULL,
    summary          text NOT NULL DEFAULT '',
    bloom_level      text,
    skill_id         uuid REFERENCES skills(id) ON DELETE SET NULL,  -- skill evidenced by passing it
    version          integer NOT NULL DEFAULT 1,
    source_chunk_ids uuid[] NOT NULL DEFAULT '{}',
    UNIQUE (course_id, position)
);

CREATE TABLE lessons (
    id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    org_id           uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    module_id        uuid NOT NULL REFERENCES modules(id) ON DELETE CASCADE,
    position         integer NOT NULL,
    title            text NOT NULL,
    content_type     text NOT NULL CHECK (content_type IN ('theory', 'example', 'exercise', 'summary')),
    content_md       text NOT NULL DEFAULT '',
    citations        jsonb NOT NULL DEFAULT '[]',
    source_chunk_ids uuid[] NOT NULL DEFAULT '{}',
    UNIQUE (module_id, position)
);

CREATE TABLE exercises (
    id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    org_id           uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    lesson_id        uuid NOT NULL REFERENCES lessons(id) ON DELETE CASCADE,
    position         integer NOT NULL DEFAULT 1,
    type             text NOT NULL CHECK (type IN ('test', 'true_false', 'fill_blank', 'order_steps',
                                                   'practical_case', 'dialogue')),
    bloom_level      text NOT NULL CHECK (bloom_level IN ('remember', 'understand', 'apply', 'analyze',
                                                          'evaluate', 'create')),
    prompt           text NOT NULL,
    content          jsonb NOT NULL,   -- per-type payload: options/answer/steps/rubric/branches
    explanation      text NOT NULL DEFAULT '',
    source_chunk_ids uuid[] NOT NULL DEFAULT '{}',
    UNIQUE (lesson_id, position)
);

CREATE TABLE enrollments (
    id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    org_id       uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    user_id      uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    course_id    uuid NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
    status       text NOT NULL DEFAULT 'assigned'
                 CHECK (status IN ('assigned', 'in_progress', 'completed', 'cancelled')),
    deadline     date,
    progress     real NOT NULL DEFAULT 0 CHECK (progress BETWEEN 0 AND 1),
    score        real,
    assigned_by  uuid REFERENCES users(id) ON DELETE SET NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    started_at   timestamptz,
    completed_at timestamptz,
    last_activity_at timestamptz,
    UNIQUE (user_id, course_id)
);
CREATE INDEX enrollments_org_course ON enrollments (org_id, course_id);

CREATE TABLE lesson_completions (
    enrollment_id uuid NOT NULL REFERENCES enrollments(id) ON DELETE CASCADE,
    lesson_id     uuid NOT NULL REFERENCES lessons(id) ON DELETE CASCADE,
    org_id        uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    completed_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (enrollment_id, lesson_id)
);

-- submitted_at IS NULL marks an active attempt: the tutor's guardrails read it.
CREATE TABLE exercise_attempts (
    id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    org_id          uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    user_id         uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    exercise_id     uuid NOT NULL REFERENCES exercises(id) ON DELETE CASCADE,
    enrollment_id   uuid REFERENCES enrollments(id) ON DELETE CASCADE,
    answer          jsonb,
    is_correct      boolean,
    score           real,
    feedback        text,
    idempotency_key text UNIQUE,
    started_at      timestamptz NOT NULL DEFAULT now(),
    submitted_at    timestamptz
);
CREATE INDEX exercise_attempts_user ON exercise_attempts (org_id, user_id, exercise_id, started_at);

CREATE TABLE review_cards (
    id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    org_id      uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    user_id     uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    exercise_id uuid NOT NULL REFERENCES exercises(id) ON DELETE CASCADE,
    card        jsonb NOT NULL,          -- fsrs.Card.to_dict()
    due         timestamptz NOT NULL,
    last_review timestamptz,
    reps        integer NOT NULL DEFAULT 0,
    UNIQUE (user_id, exercise_id)
);
CREATE INDEX review_cards_due ON review_cards (org_id, user_id, due);

CREATE TABLE generation_jobs (
    id                  uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    org_id              uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    triggered_by        uuid REFERENCES users(id) ON DELETE SET NULL,
    status              text NOT NULL DEFAULT 'pending' CHECK (status IN (
                            'pending', 'extracting', 'structuring', 'awaiting_structure_review',
                            'generating', 'reviewing', 'awaiting_final_review', 'publishing',
                            'published', 'rejected', 'failed', 'cancelled')),
    output_type         text NOT NULL DEFAULT 'course_and_manual',
    source_document_ids uuid[] NOT NULL,
    options             jsonb NOT NULL DEFAULT '{}',
    progress            jsonb NOT NULL DEFAULT '{}',
    review_report       jsonb,
    result_course_id    uuid REFERENCES courses(id) ON DELETE SET NULL,
    result_manual_id    uuid,
    error               text,
    attempts            integer NOT NULL DEFAULT 0,
    claimed_by          text,
    heartbeat_at        timestamptz,
    created_at          timestamptz NOT NULL DEFAULT now(),
    updated_at          timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX generation_jobs_org ON generation_jobs (org_id, created_at DESC);
CREATE INDEX generation_jobs_runnable ON generation_jobs (status, heartbeat_at);

CREATE TABLE generation_events (
    id         bigserial PRIMARY KEY,
    org_id     uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    job_id     uuid NOT NULL REFERENCES generation_jobs(id) ON DELETE CASCADE,
    event_type text NOT NULL,
    data       jsonb NOT NULL DEFAULT '{}',
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX generation_events_job ON generation_events (job_id, id);

CREATE TABLE manuals (
    id                  uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    org_id              uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    course_id           uuid REFERENCES courses(id) ON DELETE SET NULL,
    generation_job_id   uuid REFERENCES generation_jobs(id) ON DELETE SET NULL,
    title               text NOT NULL,
    content_md          text NOT NULL,
    toc                 jsonb NOT NULL DEFAULT '[]',
    source_document_ids uuid[] NOT NULL DEFAULT '{}',
    language            text NOT NULL DEFAULT 'es',
    created_at          timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE chat_sessions (
    id                 uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    org_id             uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    user_id            uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    agent_type         text NOT NULL CHECK (agent_type IN ('tutor', 'admin', 'helpdesk')),
    title              text,
    summary            text,
    summary_turn_count integer NOT NULL DEFAULT 0,
    context            jsonb NOT NULL DEFAULT '{}',
    is_active          boolean NOT NULL DEFAULT true,
    created_at         timestamptz NOT NULL DEFAULT now(),
    updated_at         timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX chat_sessions_user ON chat_sessions (org_id, user_id, agent_type, updated_at DESC);

CREATE TABLE chat_messages (
    id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    org_id     uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    session_id uuid NOT NULL REFERENCES chat_sessions(id) ON DELETE CASCADE,
    role       text NOT NULL CHECK (role IN ('user', 'assistant')),
    content    text NOT NULL,
    metadata   jsonb NOT NULL DEFAULT '{}',
    created_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX chat_messages_session ON chat_messages (session_id, created_at);

-- The local ticket store the helpdesk searches and files into.
CREATE TABLE tickets (
    id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    org_id       uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    number       bigserial UNIQUE,
    title        text NOT NULL,
    body         text NOT NULL,
    status       text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'in_progress', 'resolved', 'closed')),
    severity     text NOT NULL DEFAULT 'medium' CHECK (severity IN ('low', 'medium', 'high', 'critical')),
    category     text NOT NULL DEFAULT 'other',
    resolution   text,
    created_by   uuid REFERENCES users(id) ON DELETE SET NULL,
    source       text NOT NULL DEFAULT 'manual' CHECK (source IN ('manual', 'helpdesk', 'seed', 'github')),
    external_url text,
    idempotency_key text UNIQUE,
    embedding    vector(384),
    tsv          tsvector GENERATED ALWAYS AS (to_tsvector('simple', title || ' ' || body)) STORED,
    created_at   timestamptz NOT NULL DEFAULT now(),
    updated_at   timestamptz NOT NULL DEFAULT now(),
    closed_at    timestamptz
);
CREATE INDEX tickets_org ON tickets (org_id, status, created_at DESC);
CREATE INDEX tickets_tsv ON tickets USING gin (tsv);

CREATE TABLE audit_log (
    id          bigserial PRIMARY KEY,
    org_id      uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    actor_id    uuid REFERENCES users(id) ON DELETE SET NULL,
    action      text NOT NULL,
    entity_type text NOT NULL,
    entity_id   text,
    before      jsonb,
    after       jsonb,
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX audit_log_org ON audit_log (org_id, created_at DESC);
