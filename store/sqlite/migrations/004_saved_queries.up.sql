-- Saved queries (saved results and exclusion lists). Lists are one text
-- value each, one item a line (see package saved); domains_head keeps the
-- first domains for listings. Times are unix microseconds.
CREATE TABLE saved_queries (
    id               TEXT PRIMARY KEY,
    org_id           TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
    user_id          TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    name             TEXT NOT NULL,
    action           TEXT NOT NULL,
    params           BLOB,
    domains          TEXT NOT NULL DEFAULT '',
    domains_head     TEXT NOT NULL DEFAULT '',
    persona_ids      TEXT NOT NULL DEFAULT '',
    domain_count     INTEGER NOT NULL DEFAULT 0,
    persona_id_count INTEGER NOT NULL DEFAULT 0,
    row_count        INTEGER NOT NULL DEFAULT 0,
    rows             BLOB,
    created_at       INTEGER NOT NULL,
    updated_at       INTEGER NOT NULL
);

CREATE INDEX saved_queries_org ON saved_queries(org_id, updated_at);

CREATE TABLE saved_query_tags (
    query_id TEXT NOT NULL REFERENCES saved_queries(id) ON DELETE CASCADE,
    pos      INTEGER NOT NULL,
    tag      TEXT NOT NULL,
    PRIMARY KEY (query_id, pos)
);

CREATE INDEX saved_query_tags_tag ON saved_query_tags(tag, query_id);

-- Monitoring of saved discover queries (beyond the spec): one monitor per
-- query; domains are the last run's result; changes and webhook delivery
-- attempts are kept as history.
CREATE TABLE saved_monitors (
    id          TEXT PRIMARY KEY,
    org_id      TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
    user_id     TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    query_id    TEXT NOT NULL UNIQUE REFERENCES saved_queries(id) ON DELETE CASCADE,
    schedule    TEXT NOT NULL,
    webhook_url TEXT NOT NULL,
    secret      TEXT NOT NULL,
    domains     TEXT,
    last_run_at INTEGER,
    next_run_at INTEGER NOT NULL,
    created_at  INTEGER NOT NULL
);

CREATE INDEX saved_monitors_due ON saved_monitors(next_run_at);

CREATE TABLE saved_monitor_changes (
    id         TEXT PRIMARY KEY,
    monitor_id TEXT NOT NULL REFERENCES saved_monitors(id) ON DELETE CASCADE,
    at         INTEGER NOT NULL,
    added      TEXT NOT NULL,
    dropped    TEXT NOT NULL,
    total      INTEGER NOT NULL
);

CREATE INDEX saved_monitor_changes_monitor ON saved_monitor_changes(monitor_id, at);

CREATE TABLE saved_monitor_deliveries (
    change_id TEXT NOT NULL REFERENCES saved_monitor_changes(id) ON DELETE CASCADE,
    attempt   INTEGER NOT NULL,
    status    INTEGER NOT NULL,
    error     TEXT NOT NULL,
    at        INTEGER NOT NULL,
    PRIMARY KEY (change_id, attempt)
);
