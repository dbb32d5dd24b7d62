-- LLM and search provider integrations. api keys are sealed with
-- AES-256-GCM by the service (package secrets) before they get here.
CREATE TABLE integrations (
    id                  TEXT PRIMARY KEY,
    org_id              TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
    kind                TEXT NOT NULL,
    name                TEXT NOT NULL,
    provider            TEXT NOT NULL,
    model               TEXT NOT NULL,
    base_url            TEXT NOT NULL DEFAULT '',
    sealed_key          TEXT NOT NULL,
    supports_web_search INTEGER NOT NULL DEFAULT 0,
    model_deprecated    INTEGER NOT NULL DEFAULT 0,
    cost_per_query      REAL NOT NULL DEFAULT 0,
    is_default          INTEGER NOT NULL DEFAULT 0,
    created_at          INTEGER NOT NULL,
    updated_at          INTEGER NOT NULL
);

CREATE INDEX integrations_org ON integrations(org_id, kind, created_at);
CREATE UNIQUE INDEX integrations_default ON integrations(org_id, kind) WHERE is_default = 1;

-- Per-record results of research tasks, written as each record finishes.
CREATE TABLE research_records (
    task_id TEXT NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
    key     TEXT NOT NULL,
    value   BLOB NOT NULL,
    PRIMARY KEY (task_id, key)
);
