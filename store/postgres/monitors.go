package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/openprospect/prospectd/saved"
	"github.com/openprospect/prospectd/store"
)

var _ saved.MonitorStore = (*Store)(nil)

const monitorColumns = `id, org_id, user_id, query_id, schedule, webhook_url, secret, domains, last_run_at, next_run_at, created_at`

func scanMonitor(r pgx.Row) (saved.Monitor, error) {
	var m saved.Monitor
	var domains *string
	if err := r.Scan(&m.ID, &m.OrgID, &m.UserID, &m.QueryID, &m.Schedule, &m.WebhookURL, &m.Secret, &domains, &m.LastRunAt, &m.NextRunAt, &m.CreatedAt); err != nil {
		return m, err
	}
	if domains != nil {
		m.Domains = saved.DecodeDomains(*domains)
		if m.Domains == nil {
			m.Domains = []string{}
		}
	}
	m.LastRunAt, m.NextRunAt, m.CreatedAt = utcPtr(m.LastRunAt), m.NextRunAt.UTC(), m.CreatedAt.UTC()
	return m, nil
}

// PutMonitor implements saved.MonitorStore.
func (s *Store) PutMonitor(ctx context.Context, m saved.Monitor) (saved.Monitor, error) {
	m.ID, m.CreatedAt = uuid.NewString(), now()
	out, err := scanMonitor(s.pool.QueryRow(ctx, `INSERT INTO saved_monitors (`+monitorColumns+`) VALUES ($1, $2, $3, $4, $5, $6, $7, NULL, NULL, $8, $9)
		ON CONFLICT (query_id) DO UPDATE SET user_id = excluded.user_id, schedule = excluded.schedule, webhook_url = excluded.webhook_url,
			secret = excluded.secret, next_run_at = excluded.next_run_at
		RETURNING `+monitorColumns,
		m.ID, m.OrgID, m.UserID, m.QueryID, m.Schedule, m.WebhookURL, m.Secret, m.NextRunAt.UTC().Truncate(time.Microsecond), m.CreatedAt))
	if pgCode(err) == foreignKeyViolation {
		return saved.Monitor{}, fmt.Errorf("saved query %s: %w", m.QueryID, store.ErrNotFound)
	}
	if err != nil {
		return saved.Monitor{}, fmt.Errorf("put monitor: %w", err)
	}
	return out, nil
}

// MonitorOf implements saved.MonitorStore.
func (s *Store) MonitorOf(ctx context.Context, orgID, queryID string) (saved.Monitor, error) {
	m, err := scanMonitor(s.pool.QueryRow(ctx, `SELECT `+monitorColumns+` FROM saved_monitors WHERE org_id = $1 AND query_id = $2`, orgID, queryID))
	if errors.Is(err, pgx.ErrNoRows) {
		return m, fmt.Errorf("monitor of %q: %w", queryID, saved.ErrNotFound)
	}
	if err != nil {
		return m, fmt.Errorf("get monitor: %w", err)
	}
	return m, nil
}

// DeleteMonitor implements saved.MonitorStore.
func (s *Store) DeleteMonitor(ctx context.Context, orgID, queryID string) error {
	tag, err := s.pool.Exec(ctx, `DELETE FROM saved_monitors WHERE org_id = $1 AND query_id = $2`, orgID, queryID)
	if err != nil {
		return fmt.Errorf("delete monitor: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("monitor of %q: %w", queryID, saved.ErrNotFound)
	}
	return nil
}

// DueMonitors implements saved.MonitorStore.
func (s *Store) DueMonitors(ctx context.Context, t time.Time, limit int) ([]saved.Monitor, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+monitorColumns+` FROM saved_monitors WHERE next_run_at <= $1 ORDER BY next_run_at LIMIT $2`, t, limit)
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
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return false, fmt.Errorf("record run: %w", err)
	}
	defer tx.Rollback(ctx)
	tag, err := tx.Exec(ctx, `UPDATE saved_monitors SET domains = $1, last_run_at = $2, next_run_at = $3 WHERE id = $4 AND next_run_at = $5`,
		saved.EncodeDomains(r.Domains), r.At.UTC().Truncate(time.Microsecond), r.Next.UTC().Truncate(time.Microsecond), id, prev)
	if err != nil {
		return false, fmt.Errorf("record run: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return false, nil
	}
	if c := r.Change; c != nil {
		c.ID = uuid.NewString()
		if _, err := tx.Exec(ctx, `INSERT INTO saved_monitor_changes (id, monitor_id, at, added, dropped, total) VALUES ($1, $2, $3, $4, $5, $6)`,
			c.ID, id, c.At.UTC().Truncate(time.Microsecond), saved.EncodeDomains(c.Added), saved.EncodeDomains(c.Dropped), c.Total); err != nil {
			return false, fmt.Errorf("record change: %w", err)
		}
		if err := queueDelivery(ctx, tx, c, id); err != nil {
			return false, err
		}
	}
	if err := tx.Commit(ctx); err != nil {
		return false, fmt.Errorf("record run: %w", err)
	}
	return true, nil
}

// AddDelivery implements saved.MonitorStore.
func (s *Store) AddDelivery(ctx context.Context, d saved.Delivery) error {
	if _, err := s.pool.Exec(ctx, `INSERT INTO saved_monitor_deliveries (change_id, attempt, status, error, at) VALUES ($1, $2, $3, $4, $5)`,
		d.ChangeID, d.Attempt, d.Status, d.Error, d.At.UTC().Truncate(time.Microsecond)); err != nil {
		return fmt.Errorf("log delivery: %w", err)
	}
	return nil
}

// Changes implements saved.MonitorStore.
func (s *Store) Changes(ctx context.Context, orgID, queryID string, limit int) ([]saved.Change, error) {
	rows, err := s.pool.Query(ctx, `SELECT c.id, c.monitor_id, c.at, c.added, c.dropped, c.total FROM saved_monitor_changes c
		JOIN saved_monitors m ON m.id = c.monitor_id WHERE m.org_id = $1 AND m.query_id = $2 ORDER BY c.at DESC, c.id LIMIT $3`, orgID, queryID, limit)
	if err != nil {
		return nil, fmt.Errorf("changes: %w", err)
	}
	var out []saved.Change
	var ids []string
	for rows.Next() {
		var c saved.Change
		var added, dropped string
		if err := rows.Scan(&c.ID, &c.MonitorID, &c.At, &added, &dropped, &c.Total); err != nil {
			rows.Close()
			return nil, fmt.Errorf("changes: %w", err)
		}
		c.At, c.Added, c.Dropped, c.Deliveries = c.At.UTC(), saved.DecodeDomains(added), saved.DecodeDomains(dropped), []saved.Delivery{}
		out = append(out, c)
		ids = append(ids, c.ID)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("changes: %w", err)
	}
	if len(ids) == 0 {
		return out, nil
	}
	drows, err := s.pool.Query(ctx, `SELECT change_id, attempt, status, error, at FROM saved_monitor_deliveries WHERE change_id = ANY($1) ORDER BY change_id, attempt`, ids)
	if err != nil {
		return nil, fmt.Errorf("deliveries: %w", err)
	}
	defer drows.Close()
	byID := map[string]int{}
	for i, c := range out {
		byID[c.ID] = i
	}
	for drows.Next() {
		var d saved.Delivery
		if err := drows.Scan(&d.ChangeID, &d.Attempt, &d.Status, &d.Error, &d.At); err != nil {
			return nil, fmt.Errorf("deliveries: %w", err)
		}
		d.At = d.At.UTC()
		out[byID[d.ChangeID]].Deliveries = append(out[byID[d.ChangeID]].Deliveries, d)
	}
	return out, drows.Err()
}
