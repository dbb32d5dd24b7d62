-- Same schema as store/sqlite/migrations/007_auth.up.sql, in PostgreSQL
-- types.
CREATE TABLE user_passwords (
    user_id    text PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    hash       text NOT NULL,
    updated_at timestamptz NOT NULL
);

CREATE TABLE web_sessions (
    id_hash    text PRIMARY KEY,
    user_id    text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    csrf       text NOT NULL,
    created_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL
);

CREATE INDEX web_sessions_user ON web_sessions(user_id);

CREATE TABLE oauth_clients (
    id            text PRIMARY KEY,
    secret_hash   text NOT NULL,
    name          text NOT NULL,
    redirect_uris jsonb NOT NULL,
    scopes        jsonb NOT NULL,
    auth_method   text NOT NULL,
    created_at    timestamptz NOT NULL
);

CREATE TABLE oauth_tokens (
    kind       text NOT NULL CHECK (kind IN ('code', 'pkce', 'access', 'refresh')),
    signature  text NOT NULL,
    request_id text NOT NULL,
    client_id  text NOT NULL REFERENCES oauth_clients(id) ON DELETE CASCADE,
    user_id    text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    active     boolean NOT NULL,
    data       bytea NOT NULL,
    expires_at timestamptz NOT NULL,
    created_at timestamptz NOT NULL,
    PRIMARY KEY (kind, signature)
);

CREATE INDEX oauth_tokens_request ON oauth_tokens(request_id);
CREATE INDEX oauth_tokens_user ON oauth_tokens(user_id);
