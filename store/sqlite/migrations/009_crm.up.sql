-- CRM connections (one per organization and provider; tokens sealed by
-- the service with package secrets), pending authorizations (the state
-- token's hash, single use) and the progress of suppression snapshots
-- (the next cursor and the items read so far, written page by page so a
-- snapshot interrupted by a restart resumes). Times are unix microseconds.
CREATE TABLE crm_connections (
    org_id             TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
    provider           TEXT NOT NULL,
    user_id            TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    status             TEXT NOT NULL,
    status_reason      TEXT NOT NULL DEFAULT '',
    sealed_access      TEXT NOT NULL,
    sealed_refresh     TEXT NOT NULL,
    token_expiry       INTEGER NOT NULL DEFAULT 0,
    api_base           TEXT NOT NULL DEFAULT '',
    companies_query_id TEXT REFERENCES saved_queries(id) ON DELETE SET NULL,
    contacts_query_id  TEXT REFERENCES saved_queries(id) ON DELETE SET NULL,
    connected_at       INTEGER NOT NULL,
    updated_at         INTEGER NOT NULL,
    PRIMARY KEY (org_id, provider)
);

CREATE TABLE crm_oauth_states (
    state_hash TEXT PRIMARY KEY,
    org_id     TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
    user_id    TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    provider   TEXT NOT NULL,
    expires_at INTEGER NOT NULL
);

CREATE TABLE crm_snapshot_progress (
    task_id TEXT PRIMARY KEY REFERENCES tasks(id) ON DELETE CASCADE,
    cursor  TEXT NOT NULL DEFAULT '',
    pages   INTEGER NOT NULL DEFAULT 0,
    done    INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE crm_snapshot_items (
    task_id TEXT NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
    item    TEXT NOT NULL,
    PRIMARY KEY (task_id, item)
);
