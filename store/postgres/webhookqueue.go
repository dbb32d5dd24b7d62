package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/openprospect/prospectd/saved"
	"github.com/openprospect/prospectd/store"
)

var _ saved.DeliveryQueue = (*Store)(nil)

// ClaimDeliveries implements saved.DeliveryQueue.
func (s *Store) ClaimDeliveries(ctx context.Context, owner string, at time.Time, lease time.Duration, limit int) ([]saved.PendingDelivery, error) {
	return s.claimDeliveries(ctx, owner, at, lease, "", limit)
}

// ClaimDelivery implements saved.DeliveryQueue.
func (s *Store) ClaimDelivery(ctx context.Context, id, owner string, at time.Time, lease time.Duration) (saved.PendingDelivery, bool, error) {
	ps, err := s.claimDeliveries(ctx, owner, at, lease, id, 1)
	if err != nil || len(ps) == 0 {
		return saved.PendingDelivery{}, false, err
	}
	return ps[0], true, nil
}

// claimDeliveries leases due rows with FOR UPDATE SKIP LOCKED, so
// processes claiming at once take different deliveries; a monitor
// change's row comes with its change and monitor.
func (s *Store) claimDeliveries(ctx context.Context, owner string, at time.Time, lease time.Duration, id string, limit int) ([]saved.PendingDelivery, error) {
	t := at.UTC().Truncate(time.Microsecond)
	rows, err := s.pool.Query(ctx, `WITH claimed AS (
			UPDATE webhook_queue q SET lease_owner = $1, lease_until = $2
			WHERE q.event_id IN (SELECT event_id FROM webhook_queue
				WHERE next_at <= $3 AND lease_until <= $3 AND ($4 = '' OR event_id = $4)
				  AND NOT EXISTS (SELECT 1 FROM webhook_queue o WHERE webhook_queue.source <> '' AND o.source = webhook_queue.source AND o.seq < webhook_queue.seq)
				ORDER BY next_at, seq LIMIT $5 FOR UPDATE SKIP LOCKED)
			RETURNING q.event_id, q.change_id, q.source, q.url, q.secret, q.body, q.created_at, q.attempts, q.next_at)
		SELECT q.event_id, q.change_id, q.source, q.url, q.secret, q.body, q.created_at, q.attempts, q.next_at,
			c.at, c.added, c.dropped, c.total,
			m.id, m.org_id, m.user_id, m.query_id, m.schedule, m.webhook_url, m.secret, m.domains, m.last_run_at, m.next_run_at, m.created_at
		FROM claimed q LEFT JOIN saved_monitor_changes c ON c.id = q.change_id LEFT JOIN saved_monitors m ON m.id = c.monitor_id
		ORDER BY q.next_at`,
		owner, t.Add(lease), t, id, limit)
	if err != nil {
		return nil, fmt.Errorf("claim deliveries: %w", err)
	}
	defer rows.Close()
	var out []saved.PendingDelivery
	for rows.Next() {
		var p saved.PendingDelivery
		var e saved.Event
		var change, added, dropped, domains *string
		var cat, nextRun, mCreated *time.Time
		var total *int
		var mID, mOrg, mUser, mQuery, mSched, mURL, mSecret *string
		m := &p.Monitor
		if err := rows.Scan(&e.ID, &change, &e.Source, &e.URL, &e.Secret, &e.Body, &e.At, &p.Attempts, &p.NextAt,
			&cat, &added, &dropped, &total,
			&mID, &mOrg, &mUser, &mQuery, &mSched, &mURL, &mSecret, &domains, &m.LastRunAt, &nextRun, &mCreated); err != nil {
			return nil, fmt.Errorf("claim deliveries: %w", err)
		}
		p.NextAt = p.NextAt.UTC()
		if change == nil {
			e.At = e.At.UTC()
			p.Event = &e
			out = append(out, p)
			continue
		}
		if mID == nil || cat == nil {
			return nil, fmt.Errorf("claim deliveries: change %s: %w", *change, saved.ErrNotFound)
		}
		m.ID, m.OrgID, m.UserID, m.QueryID, m.Schedule, m.WebhookURL, m.Secret = *mID, *mOrg, *mUser, *mQuery, *mSched, *mURL, *mSecret
		if domains != nil {
			m.Domains = saved.DecodeDomains(*domains)
		}
		m.LastRunAt, m.NextRunAt, m.CreatedAt = utcPtr(m.LastRunAt), nextRun.UTC(), mCreated.UTC()
		p.Change.ID, p.Change.MonitorID, p.Change.At, p.Change.Total = *change, m.ID, cat.UTC(), *total
		p.Change.Added, p.Change.Dropped = saved.DecodeDomains(*added), saved.DecodeDomains(*dropped)
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("claim deliveries: %w", err)
	}
	return out, nil
}

// RescheduleDelivery implements saved.DeliveryQueue.
func (s *Store) RescheduleDelivery(ctx context.Context, id, owner string, attempts int, next time.Time) error {
	tag, err := s.pool.Exec(ctx, `UPDATE webhook_queue SET attempts = $1, next_at = $2, lease_owner = '', lease_until = 'epoch'
		WHERE event_id = $3 AND lease_owner = $4`, attempts, next.UTC().Truncate(time.Microsecond), id, owner)
	if err != nil {
		return fmt.Errorf("reschedule delivery %s: %w", id, err)
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("delivery %s: not held: %w", id, saved.ErrNotFound)
	}
	return nil
}

// FinishDelivery implements saved.DeliveryQueue.
func (s *Store) FinishDelivery(ctx context.Context, id, owner string) error {
	tag, err := s.pool.Exec(ctx, `DELETE FROM webhook_queue WHERE event_id = $1 AND lease_owner = $2`, id, owner)
	if err != nil {
		return fmt.Errorf("finish delivery %s: %w", id, err)
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("delivery %s: not held: %w", id, saved.ErrNotFound)
	}
	return nil
}

// queueDelivery queues a recorded change's delivery (RecordRun's
// transaction).
func queueDelivery(ctx context.Context, tx pgx.Tx, c *saved.Change, monitorID string) error {
	at := c.At.UTC().Truncate(time.Microsecond)
	if _, err := tx.Exec(ctx, `INSERT INTO webhook_queue (event_id, change_id, monitor_id, next_at, created_at) VALUES ($1, $1, $2, $3, $3)`,
		c.ID, monitorID, at); err != nil {
		return fmt.Errorf("queue delivery: %w", err)
	}
	return nil
}

// queueEvents queues events sent as they are, due at once (UpdateRun's
// transaction); an event already queued under its id is left as it is.
func queueEvents(ctx context.Context, tx pgx.Tx, evs []store.WebhookEvent) error {
	for _, e := range evs {
		at := e.At.UTC().Truncate(time.Microsecond)
		if _, err := tx.Exec(ctx, `INSERT INTO webhook_queue (event_id, source, url, secret, body, created_at, next_at) VALUES ($1, $2, $3, $4, $5, $6, $6)
			ON CONFLICT (event_id) DO NOTHING`, e.ID, e.Source, e.URL, e.Secret, e.Body, at); err != nil {
			return fmt.Errorf("queue webhook event %s: %w", e.ID, err)
		}
	}
	return nil
}
