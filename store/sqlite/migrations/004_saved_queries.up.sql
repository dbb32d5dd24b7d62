-- Saved queries (saved results and exclusion lists). Lists are one text
-- value each, one item a line (see package saved); domains_head keeps the
-- first domains for listings. Times are unix microseconds.
CREATE TABLE saved_queries (
    id               TEXT PRIMARY KEY,
    org_id           TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
    user_id          TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    name             TEXT NOT NULL,
    action           TEXT NOT NULL,
    params           BLOB,
    domains          TEXT NOT NULL DEFAULT '',
    domains_head     TEXT NOT NULL DEFAULT '',
    persona_ids      TEXT NOT NULL DEFAULT '',
    domain_count     INTEGER NOT NULL DEFAULT 0,
    persona_id_count INTEGER NOT NULL DEFAULT 0,
    row_count        INTEGER NOT NULL DEFAULT 0,
    rows             BLOB,
    created_at       INTEGER NOT NULL,
    updated_at       INTEGER NOT NULL
);

CREATE INDEX saved_queries_org ON saved_queries(org_id, updated_at);

CREATE TABLE saved_query_tags (
    query_id TEXT NOT NULL REFERENCES saved_queries(id) ON DELETE CASCADE,
    pos      INTEGER NOT NULL,
    tag      TEXT NOT NULL,
    PRIMARY KEY (query_id, pos)
);

CREATE INDEX saved_query_tags_tag ON saved_query_tags(tag, query_id);
