package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

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

func (s *Store) claimDeliveries(ctx context.Context, owner string, at time.Time, lease time.Duration, id string, limit int) ([]saved.PendingDelivery, error) {
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("claim deliveries: %w", err)
	}
	defer tx.Rollback()
	t := at.UnixMicro()
	where, args := `q.next_at <= ? AND q.lease_until <= ?`, []any{t, t}
	if id != "" {
		where, args = where+` AND q.event_id = ?`, append(args, id)
	}
	// An event of a source waits for the earlier ones of its source.
	where += ` AND NOT EXISTS (SELECT 1 FROM webhook_queue o WHERE q.source <> '' AND o.source = q.source AND o.rowid < q.rowid)`
	rows, err := tx.QueryContext(ctx, `UPDATE webhook_queue SET lease_owner = ?, lease_until = ?
		WHERE event_id IN (SELECT q.event_id FROM webhook_queue q WHERE `+where+` ORDER BY q.next_at, q.rowid LIMIT ?)
		RETURNING event_id, change_id, source, url, secret, body, created_at, attempts, next_at`, append(append([]any{owner, t + lease.Microseconds()}, args...), limit)...)
	if err != nil {
		return nil, fmt.Errorf("claim deliveries: %w", err)
	}
	var out []saved.PendingDelivery
	for rows.Next() {
		var p saved.PendingDelivery
		var e saved.Event
		var change sql.NullString
		var next, created int64
		if err := rows.Scan(&e.ID, &change, &e.Source, &e.URL, &e.Secret, &e.Body, &created, &p.Attempts, &next); err != nil {
			rows.Close()
			return nil, fmt.Errorf("claim deliveries: %w", err)
		}
		p.NextAt = ts(next)
		if change.Valid {
			p.Change.ID = change.String
		} else {
			e.At = ts(created)
			p.Event = &e
		}
		out = append(out, p)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("claim deliveries: %w", err)
	}
	for i := range out {
		p := &out[i]
		if p.Event != nil {
			continue
		}
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
func (s *Store) RescheduleDelivery(ctx context.Context, id, owner string, attempts int, next time.Time) error {
	return s.ownDelivery(ctx, id, `UPDATE webhook_queue SET attempts = ?, next_at = ?, lease_owner = '', lease_until = 0
		WHERE event_id = ? AND lease_owner = ?`, attempts, next.UnixMicro(), id, owner)
}

// FinishDelivery implements saved.DeliveryQueue.
func (s *Store) FinishDelivery(ctx context.Context, id, owner string) error {
	return s.ownDelivery(ctx, id, `DELETE FROM webhook_queue WHERE event_id = ? AND lease_owner = ?`, id, owner)
}

func (s *Store) ownDelivery(ctx context.Context, id, q string, args ...any) error {
	verb, _, _ := strings.Cut(q, " ")
	res, err := s.w.ExecContext(ctx, q, args...)
	if err != nil {
		return fmt.Errorf("%s delivery %s: %w", strings.ToLower(verb), id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("delivery %s: not held: %w", id, saved.ErrNotFound)
	}
	return nil
}

// queueDelivery queues a recorded change's delivery (RecordRun's
// transaction).
func queueDelivery(ctx context.Context, tx *sql.Tx, c *saved.Change, monitorID string) error {
	if _, err := tx.ExecContext(ctx, `INSERT INTO webhook_queue (event_id, change_id, monitor_id, next_at, created_at) VALUES (?, ?, ?, ?, ?)`,
		c.ID, c.ID, monitorID, c.At.UnixMicro(), c.At.UnixMicro()); err != nil {
		return fmt.Errorf("queue delivery: %w", err)
	}
	return nil
}

// queueEvents queues events sent as they are, due at once (UpdateRun's
// transaction); an event already queued under its id is left as it is.
func queueEvents(ctx context.Context, tx *sql.Tx, evs []store.WebhookEvent) error {
	for _, e := range evs {
		if _, err := tx.ExecContext(ctx, `INSERT INTO webhook_queue (event_id, source, url, secret, body, created_at, next_at) VALUES (?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (event_id) DO NOTHING`, e.ID, e.Source, e.URL, e.Secret, e.Body, e.At.UnixMicro(), e.At.UnixMicro()); err != nil {
			return fmt.Errorf("queue webhook event %s: %w", e.ID, err)
		}
	}
	return nil
}
