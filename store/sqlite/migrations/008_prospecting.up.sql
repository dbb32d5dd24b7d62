-- Managed prospecting runs. The indexed columns are what the store
-- enforces (idempotency keys, one queued or running run per user of an
-- organization, compare-and-set on rev); the rest of the run is one JSON
-- document package prospecting owns. Times are unix microseconds.
CREATE TABLE prospecting_runs (
    id         TEXT PRIMARY KEY,
    org_id     TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
    user_id    TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    idem_key   TEXT NOT NULL,
    req_hash   TEXT NOT NULL,
    status     TEXT NOT NULL,
    rev        INTEGER NOT NULL DEFAULT 1,
    data       BLOB NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);

CREATE UNIQUE INDEX prospecting_runs_idem ON prospecting_runs(org_id, idem_key);
CREATE UNIQUE INDEX prospecting_runs_active ON prospecting_runs(org_id, user_id) WHERE status IN ('queued', 'running');

-- A run's chat messages; a keyed message is rewritten in place.
CREATE TABLE prospecting_messages (
    run_id     TEXT NOT NULL REFERENCES prospecting_runs(id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL,
    key        TEXT NOT NULL,
    body       BLOB NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (run_id, seq)
);

CREATE UNIQUE INDEX prospecting_messages_key ON prospecting_messages(run_id, key) WHERE key <> '';
