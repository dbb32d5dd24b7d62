package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/openprospect/prospectd/saved"
	"github.com/openprospect/prospectd/store"
)

var _ saved.MonitorStore = (*Store)(nil)

const monitorColumns = `id, org_id, user_id, query_id, schedule, webhook_url, secret, domains, last_run_at, next_run_at, created_at`

func scanMonitor(r rowScanner) (saved.Monitor, error) {
	var m saved.Monitor
	var domains sql.NullString
	var last sql.NullInt64
	var next, created int64
	if err := r.Scan(&m.ID, &m.OrgID, &m.UserID, &m.QueryID, &m.Schedule, &m.WebhookURL, &m.Secret, &domains, &last, &next, &created); err != nil {
		return m, err
	}
	if domains.Valid {
		m.Domains = saved.DecodeDomains(domains.String)
		if m.Domains == nil {
			m.Domains = []string{}
		}
	}
	m.LastRunAt, m.NextRunAt, m.CreatedAt = tsPtr(last), ts(next), ts(created)
	return m, nil
}

// PutMonitor implements saved.MonitorStore.
func (s *Store) PutMonitor(ctx context.Context, m saved.Monitor) (saved.Monitor, error) {
	m.ID, m.CreatedAt = uuid.NewString(), ts(now())
	out, err := scanMonitor(s.w.QueryRowContext(ctx, `INSERT INTO saved_monitors (`+monitorColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, NULL, NULL, ?, ?)
		ON CONFLICT (query_id) DO UPDATE SET user_id = excluded.user_id, schedule = excluded.schedule, webhook_url = excluded.webhook_url,
			secret = excluded.secret, next_run_at = excluded.next_run_at
		RETURNING `+monitorColumns,
		m.ID, m.OrgID, m.UserID, m.QueryID, m.Schedule, m.WebhookURL, m.Secret, m.NextRunAt.UnixMicro(), m.CreatedAt.UnixMicro()))
	if err != nil && strings.Contains(err.Error(), "FOREIGN KEY") {
		return saved.Monitor{}, fmt.Errorf("saved query %s: %w", m.QueryID, store.ErrNotFound)
	}
	if err != nil {
		return saved.Monitor{}, fmt.Errorf("put monitor: %w", err)
	}
	return out, nil
}

// MonitorOf implements saved.MonitorStore.
func (s *Store) MonitorOf(ctx context.Context, orgID, queryID string) (saved.Monitor, error) {
	m, err := scanMonitor(s.r.QueryRowContext(ctx, `SELECT `+monitorColumns+` FROM saved_monitors WHERE org_id = ? AND query_id = ?`, orgID, queryID))
	if errors.Is(err, sql.ErrNoRows) {
		return m, fmt.Errorf("monitor of %q: %w", queryID, saved.ErrNotFound)
	}
	if err != nil {
		return m, fmt.Errorf("get monitor: %w", err)
	}
	return m, nil
}

// DeleteMonitor implements saved.MonitorStore.
func (s *Store) DeleteMonitor(ctx context.Context, orgID, queryID string) error {
	res, err := s.w.ExecContext(ctx, `DELETE FROM saved_monitors WHERE org_id = ? AND query_id = ?`, orgID, queryID)
	if err != nil {
		return fmt.Errorf("delete monitor: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("monitor of %q: %w", queryID, saved.ErrNotFound)
	}
	return nil
}

// DueMonitors implements saved.MonitorStore.
func (s *Store) DueMonitors(ctx context.Context, t time.Time, limit int) ([]saved.Monitor, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+monitorColumns+` FROM saved_monitors WHERE next_run_at <= ? ORDER BY next_run_at LIMIT ?`, t.UnixMicro(), limit)
	if err != nil {
		return nil, fmt.Errorf("due monitors: %w", err)
	}
	defer rows.Close()
	var out []saved.Monitor
	for rows.Next() {
		m, err := scanMonitor(rows)
		if err != nil {
			return nil, fmt.Errorf("due monitors: %w", err)
		}
		out = append(out, m)
	}
	return out, rows.Err()
}

// RecordRun implements saved.MonitorStore.
func (s *Store) RecordRun(ctx context.Context, id string, prev time.Time, r saved.Run) (bool, error) {
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return false, fmt.Errorf("record run: %w", err)
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `UPDATE saved_monitors SET domains = ?, last_run_at = ?, next_run_at = ? WHERE id = ? AND next_run_at = ?`,
		saved.EncodeDomains(r.Domains), r.At.UnixMicro(), r.Next.UnixMicro(), id, prev.UnixMicro())
	if err != nil {
		return false, fmt.Errorf("record run: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return false, nil
	}
	if c := r.Change; c != nil {
		c.ID = uuid.NewString()
		if _, err := tx.ExecContext(ctx, `INSERT INTO saved_monitor_changes (id, monitor_id, at, added, dropped, total) VALUES (?, ?, ?, ?, ?, ?)`,
			c.ID, id, c.At.UnixMicro(), saved.EncodeDomains(c.Added), saved.EncodeDomains(c.Dropped), c.Total); err != nil {
			return false, fmt.Errorf("record change: %w", err)
		}
		if err := queueDelivery(ctx, tx, c, id); err != nil {
			return false, err
		}
	}
	if err := tx.Commit(); err != nil {
		return false, fmt.Errorf("record run: %w", err)
	}
	return true, nil
}

// AddDelivery implements saved.MonitorStore.
func (s *Store) AddDelivery(ctx context.Context, d saved.Delivery) error {
	if _, err := s.w.ExecContext(ctx, `INSERT INTO saved_monitor_deliveries (change_id, attempt, status, error, at) VALUES (?, ?, ?, ?, ?)`,
		d.ChangeID, d.Attempt, d.Status, d.Error, d.At.UnixMicro()); err != nil {
		return fmt.Errorf("log delivery: %w", err)
	}
	return nil
}

// Changes implements saved.MonitorStore.
func (s *Store) Changes(ctx context.Context, orgID, queryID string, limit int) ([]saved.Change, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT c.id, c.monitor_id, c.at, c.added, c.dropped, c.total FROM saved_monitor_changes c
		JOIN saved_monitors m ON m.id = c.monitor_id WHERE m.org_id = ? AND m.query_id = ? ORDER BY c.at DESC, c.rowid DESC LIMIT ?`, orgID, queryID, limit)
	if err != nil {
		return nil, fmt.Errorf("changes: %w", err)
	}
	var out []saved.Change
	for rows.Next() {
		var c saved.Change
		var at int64
		var added, dropped string
		if err := rows.Scan(&c.ID, &c.MonitorID, &at, &added, &dropped, &c.Total); err != nil {
			rows.Close()
			return nil, fmt.Errorf("changes: %w", err)
		}
		c.At, c.Added, c.Dropped, c.Deliveries = ts(at), saved.DecodeDomains(added), saved.DecodeDomains(dropped), []saved.Delivery{}
		out = append(out, c)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("changes: %w", err)
	}
	for i := range out {
		drows, err := s.r.QueryContext(ctx, `SELECT change_id, attempt, status, error, at FROM saved_monitor_deliveries WHERE change_id = ? ORDER BY attempt`, out[i].ID)
		if err != nil {
			return nil, fmt.Errorf("deliveries: %w", err)
		}
		for drows.Next() {
			var d saved.Delivery
			var at int64
			if err := drows.Scan(&d.ChangeID, &d.Attempt, &d.Status, &d.Error, &at); err != nil {
				drows.Close()
				return nil, fmt.Errorf("deliveries: %w", err)
			}
			d.At = ts(at)
			out[i].Deliveries = append(out[i].Deliveries, d)
		}
		drows.Close()
	}
	return out, nil
}
