-- Same schema as store/sqlite/migrations/001_accounts.up.sql, in PostgreSQL
-- types: every instant is a timestamptz (microsecond precision, like the
-- SQLite store's integer microseconds).
CREATE TABLE orgs (
    id         text PRIMARY KEY,
    name       text NOT NULL UNIQUE,
    plan       text NOT NULL CHECK (plan IN ('none', 'starter', 'team')),
    created_at timestamptz NOT NULL
);

CREATE TABLE users (
    id         text PRIMARY KEY,
    org_id     text NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
    email      text NOT NULL UNIQUE,
    role       text NOT NULL CHECK (role IN ('admin', 'member')),
    created_at timestamptz NOT NULL
);

CREATE INDEX users_org ON users(org_id);

CREATE TABLE api_keys (
    id           text PRIMARY KEY,
    org_id       text NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
    user_id      text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    prefix       text NOT NULL,
    hash         text NOT NULL UNIQUE,
    created_at   timestamptz NOT NULL,
    last_used_at timestamptz,
    revoked_at   timestamptz
);

CREATE INDEX api_keys_org ON api_keys(org_id);
CREATE INDEX api_keys_user ON api_keys(user_id);
