-- One durable webhook queue for every source (issue 21, durable run
-- webhooks): monitor changes as before (change_id and monitor_id set: the
-- body is built from the change, the URL and secret read from the monitor
-- at each attempt), and events queued as they are (url, secret and body
-- set: a prospecting run's status events, queued in the transaction that
-- records the run's change). event_id is the webhook-id. Events with a
-- source (a run's id) leave in order: one is claimed only when no earlier
-- event of its source (by seq) is still queued.
CREATE TABLE webhook_queue (
    event_id    TEXT PRIMARY KEY,
    change_id   TEXT REFERENCES saved_monitor_changes(id) ON DELETE CASCADE,
    monitor_id  TEXT REFERENCES saved_monitors(id) ON DELETE CASCADE,
    source      TEXT NOT NULL DEFAULT '',
    url         TEXT NOT NULL DEFAULT '',
    secret      TEXT NOT NULL DEFAULT '',
    body        BLOB,
    created_at  INTEGER NOT NULL DEFAULT 0,
    attempts    INTEGER NOT NULL DEFAULT 0,
    next_at     INTEGER NOT NULL,
    lease_owner TEXT NOT NULL DEFAULT '',
    lease_until INTEGER NOT NULL DEFAULT 0
);

INSERT INTO webhook_queue (event_id, change_id, monitor_id, attempts, next_at, lease_owner, lease_until)
    SELECT change_id, change_id, monitor_id, attempts, next_at, lease_owner, lease_until FROM saved_webhook_queue;

DROP TABLE saved_webhook_queue;

CREATE INDEX webhook_queue_due ON webhook_queue(next_at);
CREATE INDEX webhook_queue_source ON webhook_queue(source);
