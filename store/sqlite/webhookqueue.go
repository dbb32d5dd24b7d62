package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

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

func (s *Store) claimDeliveries(ctx context.Context, owner string, at time.Time, lease time.Duration, changeID string, limit int) ([]saved.PendingDelivery, error) {
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("claim deliveries: %w", err)
	}
	defer tx.Rollback()
	t := at.UnixMicro()
	where, args := `next_at <= ? AND lease_until <= ?`, []any{t, t}
	if changeID != "" {
		where, args = where+` AND change_id = ?`, append(args, changeID)
	}
	rows, err := tx.QueryContext(ctx, `UPDATE saved_webhook_queue SET lease_owner = ?, lease_until = ?
		WHERE change_id IN (SELECT change_id FROM saved_webhook_queue WHERE `+where+` ORDER BY next_at LIMIT ?)
		RETURNING change_id, attempts, next_at`, append(append([]any{owner, t + lease.Microseconds()}, args...), limit)...)
	if err != nil {
		return nil, fmt.Errorf("claim deliveries: %w", err)
	}
	var out []saved.PendingDelivery
	for rows.Next() {
		var p saved.PendingDelivery
		var next int64
		if err := rows.Scan(&p.Change.ID, &p.Attempts, &next); err != nil {
			rows.Close()
			return nil, fmt.Errorf("claim deliveries: %w", err)
		}
		p.NextAt = ts(next)
		out = append(out, p)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("claim deliveries: %w", err)
	}
	for i := range out {
		p := &out[i]
		var cat int64
		var added, dropped string
		err := tx.QueryRowContext(ctx, `SELECT c.monitor_id, c.at, c.added, c.dropped, c.total FROM saved_monitor_changes c WHERE c.id = ?`, p.Change.ID).
			Scan(&p.Change.MonitorID, &cat, &added, &dropped, &p.Change.Total)
		if err != nil {
			return nil, fmt.Errorf("claim deliveries: change %s: %w", p.Change.ID, err)
		}
		p.Change.At, p.Change.Added, p.Change.Dropped = ts(cat), saved.DecodeDomains(added), saved.DecodeDomains(dropped)
		if p.Monitor, err = scanMonitor(tx.QueryRowContext(ctx, `SELECT `+monitorColumns+` FROM saved_monitors WHERE id = ?`, p.Change.MonitorID)); err != nil {
			return nil, fmt.Errorf("claim deliveries: monitor %s: %w", p.Change.MonitorID, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("claim deliveries: %w", err)
	}
	return out, nil
}

// RescheduleDelivery implements saved.DeliveryQueue.
func (s *Store) RescheduleDelivery(ctx context.Context, changeID, owner string, attempts int, next time.Time) error {
	return s.ownDelivery(ctx, changeID, `UPDATE saved_webhook_queue SET attempts = ?, next_at = ?, lease_owner = '', lease_until = 0
		WHERE change_id = ? AND lease_owner = ?`, attempts, next.UnixMicro(), changeID, owner)
}

// FinishDelivery implements saved.DeliveryQueue.
func (s *Store) FinishDelivery(ctx context.Context, changeID, owner string) error {
	return s.ownDelivery(ctx, changeID, `DELETE FROM saved_webhook_queue WHERE change_id = ? AND lease_owner = ?`, changeID, owner)
}

func (s *Store) ownDelivery(ctx context.Context, changeID, q string, args ...any) error {
	verb, _, _ := strings.Cut(q, " ")
	res, err := s.w.ExecContext(ctx, q, args...)
	if err != nil {
		return fmt.Errorf("%s delivery %s: %w", strings.ToLower(verb), changeID, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("delivery %s: not held: %w", changeID, saved.ErrNotFound)
	}
	return nil
}

// queueDelivery queues a recorded change's delivery (RecordRun's
// transaction).
func queueDelivery(ctx context.Context, tx *sql.Tx, c *saved.Change, monitorID string) error {
	if _, err := tx.ExecContext(ctx, `INSERT INTO saved_webhook_queue (change_id, monitor_id, next_at) VALUES (?, ?, ?)`,
		c.ID, monitorID, c.At.UnixMicro()); err != nil {
		return fmt.Errorf("queue delivery: %w", err)
	}
	return nil
}
