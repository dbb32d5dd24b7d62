-- Sign-in state: password hashes, web sessions (keyed by the hash of the
-- cookie), and the OAuth 2.1 authorization server's clients and tokens
-- (keyed by the token library's HMAC signature, never the token).
CREATE TABLE user_passwords (
    user_id    TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    hash       TEXT NOT NULL,
    updated_at INTEGER NOT NULL
);

CREATE TABLE web_sessions (
    id_hash    TEXT PRIMARY KEY,
    user_id    TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    csrf       TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
);

CREATE INDEX web_sessions_user ON web_sessions(user_id);

CREATE TABLE oauth_clients (
    id            TEXT PRIMARY KEY,
    secret_hash   TEXT NOT NULL,
    name          TEXT NOT NULL,
    redirect_uris TEXT NOT NULL, -- JSON array
    scopes        TEXT NOT NULL, -- JSON array
    auth_method   TEXT NOT NULL,
    created_at    INTEGER NOT NULL
);

CREATE TABLE oauth_tokens (
    kind       TEXT NOT NULL CHECK (kind IN ('code', 'pkce', 'access', 'refresh')),
    signature  TEXT NOT NULL,
    request_id TEXT NOT NULL,
    client_id  TEXT NOT NULL REFERENCES oauth_clients(id) ON DELETE CASCADE,
    user_id    TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    active     INTEGER NOT NULL,
    data       BLOB NOT NULL,
    expires_at INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (kind, signature)
);

CREATE INDEX oauth_tokens_request ON oauth_tokens(request_id);
CREATE INDEX oauth_tokens_user ON oauth_tokens(user_id);
