-- Monitor change events still to be delivered (issue 15, durable webhook
-- retries): a run that records a change queues its delivery in the same
-- transaction; a delivery attempt leases the row, a failed one records the
-- attempts made and when the next is due, a delivered (or given up) event
-- leaves the queue. Retries survive a restart: any process claims a due
-- row whose lease has expired.
CREATE TABLE saved_webhook_queue (
    change_id   TEXT PRIMARY KEY REFERENCES saved_monitor_changes(id) ON DELETE CASCADE,
    monitor_id  TEXT NOT NULL REFERENCES saved_monitors(id) ON DELETE CASCADE,
    attempts    INTEGER NOT NULL DEFAULT 0,
    next_at     INTEGER NOT NULL,
    lease_owner TEXT NOT NULL DEFAULT '',
    lease_until INTEGER NOT NULL DEFAULT 0
);

CREATE INDEX saved_webhook_queue_due ON saved_webhook_queue(next_at);
