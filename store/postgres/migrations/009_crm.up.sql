-- CRM connections (one per organization and provider; tokens sealed by
-- the service with package secrets), pending authorizations (the state
-- token's hash, single use) and the progress of suppression snapshots
-- (the next cursor and the items read so far, written page by page so a
-- snapshot interrupted by a restart resumes).
CREATE TABLE crm_connections (
    org_id             text NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
    provider           text NOT NULL,
    user_id            text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    status             text NOT NULL,
    status_reason      text NOT NULL DEFAULT '',
    sealed_access      text NOT NULL,
    sealed_refresh     text NOT NULL,
    token_expiry       timestamptz,
    api_base           text NOT NULL DEFAULT '',
    companies_query_id text REFERENCES saved_queries(id) ON DELETE SET NULL,
    contacts_query_id  text REFERENCES saved_queries(id) ON DELETE SET NULL,
    connected_at       timestamptz NOT NULL,
    updated_at         timestamptz NOT NULL,
    PRIMARY KEY (org_id, provider)
);

CREATE TABLE crm_oauth_states (
    state_hash text PRIMARY KEY,
    org_id     text NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
    user_id    text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    provider   text NOT NULL,
    expires_at timestamptz NOT NULL
);

CREATE TABLE crm_snapshot_progress (
    task_id text PRIMARY KEY REFERENCES tasks(id) ON DELETE CASCADE,
    cursor  text NOT NULL DEFAULT '',
    pages   integer NOT NULL DEFAULT 0,
    done    boolean NOT NULL DEFAULT false
);

CREATE TABLE crm_snapshot_items (
    task_id text NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
    seq     bigint GENERATED ALWAYS AS IDENTITY, -- order stored
    item    text NOT NULL,
    PRIMARY KEY (task_id, item)
);

CREATE INDEX crm_snapshot_items_seq ON crm_snapshot_items(task_id, seq);
