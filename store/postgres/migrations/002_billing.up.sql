-- Records an organization paid for, free again for 90 days from billed_at.
CREATE TABLE billed_records (
    org_id     text NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
    kind       text NOT NULL,
    record_key text NOT NULL,
    billed_at  timestamptz NOT NULL,
    PRIMARY KEY (org_id, kind, record_key)
);

-- One row per kind per billed response.
CREATE TABLE ledger (
    id       bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    org_id   text NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
    at       timestamptz NOT NULL,
    endpoint text NOT NULL,
    kind     text NOT NULL,
    records  integer NOT NULL,
    free     integer NOT NULL,
    credits  integer NOT NULL
);

CREATE INDEX ledger_org_at ON ledger(org_id, at);

CREATE TABLE signups (
    email        text PRIMARY KEY,
    first_name   text NOT NULL,
    last_name    text NOT NULL,
    agent        text NOT NULL,
    token_hash   text NOT NULL UNIQUE,
    created_at   timestamptz NOT NULL,
    confirmed_at timestamptz
);
