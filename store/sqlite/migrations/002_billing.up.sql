-- Records an organization paid for, free again for 90 days from billed_at.
CREATE TABLE billed_records (
    org_id     TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
    kind       TEXT NOT NULL,
    record_key TEXT NOT NULL,
    billed_at  INTEGER NOT NULL,
    PRIMARY KEY (org_id, kind, record_key)
);

-- One row per kind per billed response.
CREATE TABLE ledger (
    id       INTEGER PRIMARY KEY AUTOINCREMENT,
    org_id   TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
    at       INTEGER NOT NULL,
    endpoint TEXT NOT NULL,
    kind     TEXT NOT NULL,
    records  INTEGER NOT NULL,
    free     INTEGER NOT NULL,
    credits  INTEGER NOT NULL
);

CREATE INDEX ledger_org_at ON ledger(org_id, at);

CREATE TABLE signups (
    email        TEXT PRIMARY KEY,
    first_name   TEXT NOT NULL,
    last_name    TEXT NOT NULL,
    agent        TEXT NOT NULL,
    token_hash   TEXT NOT NULL UNIQUE,
    created_at   INTEGER NOT NULL,
    confirmed_at INTEGER
);
