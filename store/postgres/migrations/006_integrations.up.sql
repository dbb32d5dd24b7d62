-- LLM and search provider integrations. api keys are sealed with
-- AES-256-GCM by the service (package secrets) before they get here.
CREATE TABLE integrations (
    id                  text PRIMARY KEY,
    seq                 bigint GENERATED ALWAYS AS IDENTITY, -- listing order
    org_id              text NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
    kind                text NOT NULL,
    name                text NOT NULL,
    provider            text NOT NULL,
    model               text NOT NULL,
    base_url            text NOT NULL DEFAULT '',
    sealed_key          text NOT NULL,
    supports_web_search boolean NOT NULL DEFAULT false,
    model_deprecated    boolean NOT NULL DEFAULT false,
    cost_per_query      double precision NOT NULL DEFAULT 0,
    is_default          boolean NOT NULL DEFAULT false,
    created_at          timestamptz NOT NULL,
    updated_at          timestamptz NOT NULL
);

CREATE INDEX integrations_org ON integrations(org_id, kind, seq);
CREATE UNIQUE INDEX integrations_default ON integrations(org_id, kind) WHERE is_default;

-- Per-record results of research tasks, written as each record finishes.
CREATE TABLE research_records (
    task_id text NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
    key     text NOT NULL,
    value   bytea NOT NULL,
    PRIMARY KEY (task_id, key)
);
