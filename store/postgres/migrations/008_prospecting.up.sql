-- Managed prospecting runs. The indexed columns are what the store
-- enforces (idempotency keys, one queued or running run per user of an
-- organization, compare-and-set on rev); the rest of the run is one JSON
-- document package prospecting owns.
CREATE TABLE prospecting_runs (
    id         text PRIMARY KEY,
    org_id     text NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
    user_id    text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    idem_key   text NOT NULL,
    req_hash   text NOT NULL,
    status     text NOT NULL,
    rev        bigint NOT NULL DEFAULT 1,
    data       bytea NOT NULL,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL
);

CREATE UNIQUE INDEX prospecting_runs_idem ON prospecting_runs(org_id, idem_key);
CREATE UNIQUE INDEX prospecting_runs_active ON prospecting_runs(org_id, user_id) WHERE status IN ('queued', 'running');

-- A run's chat messages; a keyed message is rewritten in place.
CREATE TABLE prospecting_messages (
    run_id     text NOT NULL REFERENCES prospecting_runs(id) ON DELETE CASCADE,
    seq        bigint NOT NULL,
    key        text NOT NULL,
    body       bytea NOT NULL,
    created_at timestamptz NOT NULL,
    PRIMARY KEY (run_id, seq)
);

CREATE UNIQUE INDEX prospecting_messages_key ON prospecting_messages(run_id, key) WHERE key <> '';
