package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/openprospect/prospectd/saved"
)

var _ saved.DeliveryQueue = (*Store)(nil)

// ClaimDeliveries implements saved.DeliveryQueue.
func (s *Store) ClaimDeliveries(ctx context.Context, owner string, at time.Time, lease time.Duration, limit int) ([]saved.PendingDelivery, error) {
	return s.claimDeliveries(ctx, owner, at, lease, "", limit)
}

// ClaimDelivery implements saved.DeliveryQueue.
func (s *Store) ClaimDelivery(ctx context.Context, changeID, owner string, at time.Time, lease time.Duration) (saved.PendingDelivery, bool, error) {
	ps, err := s.claimDeliveries(ctx, owner, at, lease, changeID, 1)
	if err != nil || len(ps) == 0 {
		return saved.PendingDelivery{}, false, err
	}
	return ps[0], true, nil
}

// claimDeliveries leases due rows with FOR UPDATE SKIP LOCKED, so
// processes claiming at once take different deliveries.
func (s *Store) claimDeliveries(ctx context.Context, owner string, at time.Time, lease time.Duration, changeID string, limit int) ([]saved.PendingDelivery, error) {
	t := at.UTC().Truncate(time.Microsecond)
	rows, err := s.pool.Query(ctx, `UPDATE saved_webhook_queue q SET lease_owner = $1, lease_until = $2
		FROM saved_monitor_changes c, saved_monitors m
		WHERE q.change_id IN (SELECT change_id FROM saved_webhook_queue
			WHERE next_at <= $3 AND lease_until <= $3 AND ($4 = '' OR change_id = $4)
			ORDER BY next_at LIMIT $5 FOR UPDATE SKIP LOCKED)
		  AND c.id = q.change_id AND m.id = q.monitor_id
		RETURNING q.attempts, q.next_at, c.id, c.at, c.added, c.dropped, c.total,
			m.id, m.org_id, m.user_id, m.query_id, m.schedule, m.webhook_url, m.secret, m.domains, m.last_run_at, m.next_run_at, m.created_at`,
		owner, t.Add(lease), t, changeID, limit)
	if err != nil {
		return nil, fmt.Errorf("claim deliveries: %w", err)
	}
	defer rows.Close()
	var out []saved.PendingDelivery
	for rows.Next() {
		var p saved.PendingDelivery
		var added, dropped string
		var domains *string
		m := &p.Monitor
		if err := rows.Scan(&p.Attempts, &p.NextAt, &p.Change.ID, &p.Change.At, &added, &dropped, &p.Change.Total,
			&m.ID, &m.OrgID, &m.UserID, &m.QueryID, &m.Schedule, &m.WebhookURL, &m.Secret, &domains, &m.LastRunAt, &m.NextRunAt, &m.CreatedAt); err != nil {
			return nil, fmt.Errorf("claim deliveries: %w", err)
		}
		if domains != nil {
			m.Domains = saved.DecodeDomains(*domains)
		}
		m.LastRunAt, m.NextRunAt, m.CreatedAt = utcPtr(m.LastRunAt), m.NextRunAt.UTC(), m.CreatedAt.UTC()
		p.Change.MonitorID, p.Change.At, p.NextAt = m.ID, p.Change.At.UTC(), p.NextAt.UTC()
		p.Change.Added, p.Change.Dropped = saved.DecodeDomains(added), saved.DecodeDomains(dropped)
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("claim deliveries: %w", err)
	}
	return out, nil
}

// RescheduleDelivery implements saved.DeliveryQueue.
func (s *Store) RescheduleDelivery(ctx context.Context, changeID, owner string, attempts int, next time.Time) error {
	tag, err := s.pool.Exec(ctx, `UPDATE saved_webhook_queue SET attempts = $1, next_at = $2, lease_owner = '', lease_until = 'epoch'
		WHERE change_id = $3 AND lease_owner = $4`, attempts, next.UTC().Truncate(time.Microsecond), changeID, owner)
	if err != nil {
		return fmt.Errorf("reschedule delivery %s: %w", changeID, err)
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("delivery %s: not held: %w", changeID, saved.ErrNotFound)
	}
	return nil
}

// FinishDelivery implements saved.DeliveryQueue.
func (s *Store) FinishDelivery(ctx context.Context, changeID, owner string) error {
	tag, err := s.pool.Exec(ctx, `DELETE FROM saved_webhook_queue WHERE change_id = $1 AND lease_owner = $2`, changeID, owner)
	if err != nil {
		return fmt.Errorf("finish delivery %s: %w", changeID, err)
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("delivery %s: not held: %w", changeID, saved.ErrNotFound)
	}
	return nil
}

// queueDelivery queues a recorded change's delivery (RecordRun's
// transaction).
func queueDelivery(ctx context.Context, tx pgx.Tx, c *saved.Change, monitorID string) error {
	if _, err := tx.Exec(ctx, `INSERT INTO saved_webhook_queue (change_id, monitor_id, next_at) VALUES ($1, $2, $3)`,
		c.ID, monitorID, c.At.UTC().Truncate(time.Microsecond)); err != nil {
		return fmt.Errorf("queue delivery: %w", err)
	}
	return nil
}
