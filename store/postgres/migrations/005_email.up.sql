-- Email lookups: a batch (a single find is a batch of one) runs as one
-- task; each lookup is a job whose result is recorded as soon as it is
-- known, so a batch run again after a crash skips the finished jobs.
CREATE TABLE email_batches (
    id              text PRIMARY KEY,
    org_id          text NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
    task_id         text NOT NULL DEFAULT '',
    source_query_id text NOT NULL DEFAULT '',
    round           text NOT NULL DEFAULT '',
    total           integer NOT NULL,
    created_at      timestamptz NOT NULL
);

CREATE TABLE email_jobs (
    id          text PRIMARY KEY,
    org_id      text NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
    batch_id    text NOT NULL REFERENCES email_batches(id) ON DELETE CASCADE,
    position    integer NOT NULL,
    kind        text NOT NULL,
    ref         text NOT NULL DEFAULT '',
    request     bytea NOT NULL,
    status      text NOT NULL,
    result      bytea,
    error       text NOT NULL DEFAULT '',
    created_at  timestamptz NOT NULL,
    updated_at  timestamptz NOT NULL,
    finished_at timestamptz
);

CREATE INDEX email_jobs_batch ON email_jobs(batch_id, position);
CREATE INDEX email_jobs_active ON email_jobs(org_id) WHERE status IN ('queued', 'processing');

-- Lookup results by key (find: domain and name forms; verify: address),
-- shared by all organizations.
CREATE TABLE email_cache (
    key        text PRIMARY KEY,
    result     bytea NOT NULL,
    checked_at timestamptz NOT NULL
);

CREATE TABLE email_domains (
    domain     text PRIMARY KEY,
    catch_all  boolean NOT NULL,
    provider   text NOT NULL DEFAULT '',
    checked_at timestamptz NOT NULL
);

-- Delivery feedback (bounced or delivered addresses) per domain and
-- template; it moves the template's confidence.
CREATE TABLE email_pattern_feedback (
    domain     text NOT NULL,
    template   text NOT NULL,
    delivered  integer NOT NULL DEFAULT 0,
    bounced    integer NOT NULL DEFAULT 0,
    updated_at timestamptz NOT NULL,
    PRIMARY KEY (domain, template)
);
