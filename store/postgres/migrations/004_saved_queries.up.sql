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

-- Monitoring of saved discover queries (beyond the spec): one monitor per
-- query; domains are the last run's result; changes and webhook delivery
-- attempts are kept as history.
CREATE TABLE saved_monitors (
    id          text PRIMARY KEY,
    org_id      text NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
    user_id     text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    query_id    text NOT NULL UNIQUE REFERENCES saved_queries(id) ON DELETE CASCADE,
    schedule    text NOT NULL,
    webhook_url text NOT NULL,
    secret      text NOT NULL,
    domains     text,
    last_run_at timestamptz,
    next_run_at timestamptz NOT NULL,
    created_at  timestamptz NOT NULL
);

CREATE INDEX saved_monitors_due ON saved_monitors(next_run_at);

CREATE TABLE saved_monitor_changes (
    id         text PRIMARY KEY,
    monitor_id text NOT NULL REFERENCES saved_monitors(id) ON DELETE CASCADE,
    at         timestamptz NOT NULL,
    added      text NOT NULL,
    dropped    text NOT NULL,
    total      integer NOT NULL
);

CREATE INDEX saved_monitor_changes_monitor ON saved_monitor_changes(monitor_id, at);

CREATE TABLE saved_monitor_deliveries (
    change_id text NOT NULL REFERENCES saved_monitor_changes(id) ON DELETE CASCADE,
    attempt   integer NOT NULL,
    status    integer NOT NULL,
    error     text NOT NULL,
    at        timestamptz NOT NULL,
    PRIMARY KEY (change_id, attempt)
);
