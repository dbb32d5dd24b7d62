-- Email lookups: a batch (a single find is a batch of one) runs as one
-- task; each lookup is a job whose result is recorded as soon as it is
-- known, so a batch run again after a crash skips the finished jobs.
CREATE TABLE email_batches (
    id              TEXT PRIMARY KEY,
    org_id          TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
    task_id         TEXT NOT NULL DEFAULT '',
    source_query_id TEXT NOT NULL DEFAULT '',
    round           TEXT NOT NULL DEFAULT '',
    total           INTEGER NOT NULL,
    created_at      INTEGER NOT NULL
);

CREATE TABLE email_jobs (
    id          TEXT PRIMARY KEY,
    org_id      TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
    batch_id    TEXT NOT NULL REFERENCES email_batches(id) ON DELETE CASCADE,
    position    INTEGER NOT NULL,
    kind        TEXT NOT NULL,
    ref         TEXT NOT NULL DEFAULT '',
    request     BLOB NOT NULL,
    status      TEXT NOT NULL,
    result      BLOB,
    error       TEXT NOT NULL DEFAULT '',
    created_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL,
    finished_at INTEGER
);

CREATE INDEX email_jobs_batch ON email_jobs(batch_id, position);
CREATE INDEX email_jobs_active ON email_jobs(org_id) WHERE status IN ('queued', 'processing');

-- Lookup results by key (find: domain and name forms; verify: address),
-- shared by all organizations.
CREATE TABLE email_cache (
    key        TEXT PRIMARY KEY,
    result     BLOB NOT NULL,
    checked_at INTEGER NOT NULL
);

CREATE TABLE email_domains (
    domain     TEXT PRIMARY KEY,
    catch_all  INTEGER NOT NULL,
    provider   TEXT NOT NULL DEFAULT '',
    checked_at INTEGER NOT NULL
);

-- Delivery feedback (bounced or delivered addresses) per domain and
-- template; it moves the template's confidence.
CREATE TABLE email_pattern_feedback (
    domain     TEXT NOT NULL,
    template   TEXT NOT NULL,
    delivered  INTEGER NOT NULL DEFAULT 0,
    bounced    INTEGER NOT NULL DEFAULT 0,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (domain, template)
);
