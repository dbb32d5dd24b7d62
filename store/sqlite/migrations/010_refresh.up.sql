-- Scheduled refresh sources. A run of a source holds its lease while
-- lease_until (unix microseconds) is in the future; fired_at is the last
-- schedule firing a process claimed; cursor is what the last completed
-- run left for the next (validators, file fingerprints).
CREATE TABLE refresh_sources (
    name        TEXT PRIMARY KEY,
    lease_owner TEXT,
    lease_until INTEGER,
    fired_at    INTEGER,
    cursor      BLOB,
    updated_at  INTEGER NOT NULL
);

-- One row per refresh task, written by the run as it goes.
CREATE TABLE refresh_runs (
    task_id     TEXT PRIMARY KEY,
    source      TEXT NOT NULL,
    trigger     TEXT NOT NULL,
    status      TEXT NOT NULL,
    attempts    INTEGER NOT NULL DEFAULT 0,
    progress    INTEGER NOT NULL DEFAULT 0,
    counts      BLOB,
    rejects     BLOB,
    error       TEXT NOT NULL DEFAULT '',
    created_at  INTEGER NOT NULL,
    started_at  INTEGER,
    finished_at INTEGER
);

CREATE INDEX refresh_runs_source ON refresh_runs(source, created_at);
CREATE INDEX refresh_runs_created ON refresh_runs(created_at);
