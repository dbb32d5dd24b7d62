-- Same schema as store/sqlite/migrations/010_refresh.up.sql, in
-- PostgreSQL types. Lease times are on the database clock.
CREATE TABLE refresh_sources (
    name        text PRIMARY KEY,
    lease_owner text,
    lease_until timestamptz,
    fired_at    timestamptz,
    cursor      bytea,
    updated_at  timestamptz NOT NULL
);

CREATE TABLE refresh_runs (
    task_id     text PRIMARY KEY,
    source      text NOT NULL,
    trigger     text NOT NULL,
    status      text NOT NULL,
    attempts    integer NOT NULL DEFAULT 0,
    progress    integer NOT NULL DEFAULT 0,
    counts      bytea,
    rejects     bytea,
    error       text NOT NULL DEFAULT '',
    created_at  timestamptz NOT NULL,
    started_at  timestamptz,
    finished_at timestamptz
);

CREATE INDEX refresh_runs_source ON refresh_runs(source, created_at);
CREATE INDEX refresh_runs_created ON refresh_runs(created_at);
