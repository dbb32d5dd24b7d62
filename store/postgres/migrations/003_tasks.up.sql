-- Asynchronous tasks. A worker holds a task while lease_until is in the
-- future; an expired lease is free to claim again. Input and result are
-- JSON kept byte for byte.
CREATE TABLE tasks (
    id          text PRIMARY KEY,
    seq         bigint GENERATED ALWAYS AS IDENTITY, -- claim order
    org_id      text NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
    kind        text NOT NULL,
    status      text NOT NULL,
    progress    integer NOT NULL DEFAULT 0,
    input       bytea,
    result      bytea,
    error       text NOT NULL DEFAULT '',
    attempts    integer NOT NULL DEFAULT 0,
    lease_owner text,
    lease_until timestamptz,
    created_at  timestamptz NOT NULL,
    updated_at  timestamptz NOT NULL,
    finished_at timestamptz
);

CREATE INDEX tasks_org ON tasks(org_id, created_at);
CREATE INDEX tasks_queue ON tasks(kind, seq) WHERE status IN ('in_progress', 'cancelling');
