-- Asynchronous tasks. A worker holds a task while lease_until (unix
-- microseconds) is in the future; an expired lease is free to claim again.
CREATE TABLE tasks (
    id          TEXT PRIMARY KEY,
    org_id      TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
    kind        TEXT NOT NULL,
    status      TEXT NOT NULL,
    progress    INTEGER NOT NULL DEFAULT 0,
    input       BLOB,
    result      BLOB,
    error       TEXT NOT NULL DEFAULT '',
    attempts    INTEGER NOT NULL DEFAULT 0,
    lease_owner TEXT,
    lease_until INTEGER,
    created_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL,
    finished_at INTEGER
);

CREATE INDEX tasks_org ON tasks(org_id, created_at);
CREATE INDEX tasks_queue ON tasks(kind, created_at) WHERE status IN ('in_progress', 'cancelling');
