-- Saved queries (saved results and exclusion lists). Lists are one text
-- value each, one item a line (see package saved); domains_head keeps the
-- first domains for listings.
CREATE TABLE saved_queries (
    id               text PRIMARY KEY,
    seq              bigint GENERATED ALWAYS AS IDENTITY, -- tie-break of listings
    org_id           text NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
    user_id          text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    name             text NOT NULL,
    action           text NOT NULL,
    params           bytea,
    domains          text NOT NULL DEFAULT '',
    domains_head     text NOT NULL DEFAULT '',
    persona_ids      text NOT NULL DEFAULT '',
    domain_count     integer NOT NULL DEFAULT 0,
    persona_id_count integer NOT NULL DEFAULT 0,
    row_count        integer NOT NULL DEFAULT 0,
    rows             bytea,
    created_at       timestamptz NOT NULL,
    updated_at       timestamptz NOT NULL
);

CREATE INDEX saved_queries_org ON saved_queries(org_id, updated_at);

CREATE TABLE saved_query_tags (
    query_id text NOT NULL REFERENCES saved_queries(id) ON DELETE CASCADE,
    pos      integer NOT NULL,
    tag      text NOT NULL,
    PRIMARY KEY (query_id, pos)
);

CREATE INDEX saved_query_tags_tag ON saved_query_tags(tag, query_id);
