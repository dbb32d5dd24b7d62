package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/openprospect/prospectd/store"
)

// OrgByID implements store.Store.
func (s *Store) OrgByID(ctx context.Context, orgID string) (store.Org, error) {
	var o store.Org
	var created int64
	err := s.r.QueryRowContext(ctx, `SELECT id, name, plan, created_at FROM orgs WHERE id = ?`, orgID).Scan(&o.ID, &o.Name, &o.Plan, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return o, fmt.Errorf("organization %s: %w", orgID, store.ErrNotFound)
	}
	if err != nil {
		return o, fmt.Errorf("look up organization: %w", err)
	}
	o.CreatedAt = ts(created)
	return o, nil
}

// Bill implements store.Store. The write connection is the only writer
// and transactions begin IMMEDIATE, so concurrent bills of any
// organization are serialized: the period's usage read inside the
// transaction cannot change before the commit.
func (s *Store) Bill(ctx context.Context, req store.BillRequest) (store.BillResult, error) {
	if len(req.Charges) == 0 {
		return store.BillResult{Covered: []bool{}}, nil
	}
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return store.BillResult{}, fmt.Errorf("bill: %w", err)
	}
	defer tx.Rollback()
	var used int
	if err := tx.QueryRowContext(ctx, `SELECT COALESCE(SUM(credits), 0) FROM ledger WHERE org_id = ? AND at >= ?`,
		req.OrgID, req.PeriodStart.UnixMicro()).Scan(&used); err != nil {
		return store.BillResult{}, fmt.Errorf("bill: period usage: %w", err)
	}
	fresh, err := freshRecords(ctx, tx, req)
	if err != nil {
		return store.BillResult{}, err
	}
	a := store.Allocate(req.Charges, fresh, req.Quota, used)
	at := req.Now.UnixMicro()
	if err := rememberBilled(ctx, tx, req.OrgID, a.Paid, at); err != nil {
		return store.BillResult{}, err
	}
	if err := insertLedger(ctx, tx, req, a, at); err != nil {
		return store.BillResult{}, err
	}
	if err := tx.Commit(); err != nil {
		return store.BillResult{}, fmt.Errorf("bill: commit: %w", err)
	}
	return a.Result, nil
}

// billedRows is how many records one INSERT of rememberBilled writes (4
// parameters each, well under SQLite's limit of 32,766).
const billedRows = 200

// rememberBilled records that refs were billed at at, a multi-row INSERT
// per billedRows records: a discovery page bills up to 100 new records,
// and one statement each cost about as much as the rest of the bill
// (BenchmarkBill).
func rememberBilled(ctx context.Context, tx *sql.Tx, orgID string, refs []store.RecordRef, at int64) error {
	for start := 0; start < len(refs); start += billedRows {
		part := refs[start:min(start+billedRows, len(refs))]
		args := make([]any, 0, 4*len(part))
		for _, ref := range part {
			args = append(args, orgID, ref.Kind, ref.Key, at)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO billed_records (org_id, kind, record_key, billed_at) VALUES (?, ?, ?, ?)`+
			strings.Repeat(", (?, ?, ?, ?)", len(part)-1)+`
			ON CONFLICT (org_id, kind, record_key) DO UPDATE SET billed_at = excluded.billed_at`, args...); err != nil {
			return fmt.Errorf("bill: remember %d records (first %s %s): %w", len(part), part[0].Kind, part[0].Key, err)
		}
	}
	return nil
}

// freshRecords returns the requested records billed within the window.
func freshRecords(ctx context.Context, tx *sql.Tx, req store.BillRequest) (map[store.RecordRef]bool, error) {
	fresh := map[store.RecordRef]bool{}
	since := req.Now.Add(-store.NoRebillWindow).UnixMicro()
	byKind := map[string][]any{}
	for _, c := range req.Charges {
		if !c.NoCache {
			byKind[c.Kind] = append(byKind[c.Kind], c.Key)
		}
	}
	for kind, keys := range byKind {
		for start := 0; start < len(keys); start += 500 {
			part := keys[start:min(start+500, len(keys))]
			args := append([]any{req.OrgID, kind, since}, part...)
			rows, err := tx.QueryContext(ctx, `SELECT record_key FROM billed_records WHERE org_id = ? AND kind = ? AND billed_at > ? AND record_key IN (?`+
				strings.Repeat(",?", len(part)-1)+`)`, args...)
			if err != nil {
				return nil, fmt.Errorf("bill: cached records: %w", err)
			}
			for rows.Next() {
				var k string
				if err := rows.Scan(&k); err != nil {
					rows.Close()
					return nil, fmt.Errorf("bill: cached records: %w", err)
				}
				fresh[store.RecordRef{Kind: kind, Key: k}] = true
			}
			rows.Close()
			if err := rows.Err(); err != nil {
				return nil, fmt.Errorf("bill: cached records: %w", err)
			}
		}
	}
	return fresh, nil
}

func insertLedger(ctx context.Context, tx *sql.Tx, req store.BillRequest, a store.Allocation, at int64) error {
	kinds := map[string]bool{}
	for k := range a.ByKind {
		kinds[k] = true
	}
	for k := range a.FreeByKind {
		kinds[k] = true
	}
	for kind := range kinds {
		n, free := a.ByKind[kind], a.FreeByKind[kind]
		if _, err := tx.ExecContext(ctx, `INSERT INTO ledger (org_id, at, endpoint, kind, records, free, credits) VALUES (?, ?, ?, ?, ?, ?, ?)`,
			req.OrgID, at, req.Endpoint, kind, n, free, n); err != nil {
			return fmt.Errorf("bill: ledger: %w", err)
		}
	}
	return nil
}

// Usage implements store.Store.
func (s *Store) Usage(ctx context.Context, orgID string, from, to time.Time) (store.Usage, error) {
	u := store.Usage{Records: map[string]int{}, Free: map[string]int{}}
	rows, err := s.r.QueryContext(ctx, `SELECT kind, SUM(records), SUM(free), SUM(credits) FROM ledger WHERE org_id = ? AND at >= ? AND at < ? GROUP BY kind`,
		orgID, from.UnixMicro(), to.UnixMicro())
	if err != nil {
		return u, fmt.Errorf("usage: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var kind string
		var n, free, credits int
		if err := rows.Scan(&kind, &n, &free, &credits); err != nil {
			return u, fmt.Errorf("usage: %w", err)
		}
		u.Records[kind], u.Free[kind] = n, free
		u.Credits += credits
	}
	return u, rows.Err()
}

// SaveSignup implements store.Store.
func (s *Store) SaveSignup(ctx context.Context, su store.Signup, tokenHash string) error {
	email := strings.ToLower(strings.TrimSpace(su.Email))
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("signup: %w", err)
	}
	defer tx.Rollback()
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT (SELECT COUNT(*) FROM users WHERE email = ?) + (SELECT COUNT(*) FROM signups WHERE email = ? AND confirmed_at IS NOT NULL)`,
		email, email).Scan(&n); err != nil {
		return fmt.Errorf("signup: %w", err)
	}
	if n > 0 {
		return fmt.Errorf("account %s: %w", email, store.ErrConflict)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO signups (email, first_name, last_name, agent, token_hash, created_at) VALUES (?, ?, ?, ?, ?, ?)
		ON CONFLICT (email) DO UPDATE SET first_name = excluded.first_name, last_name = excluded.last_name, agent = excluded.agent,
		token_hash = excluded.token_hash, created_at = excluded.created_at`,
		email, su.FirstName, su.LastName, su.Agent, tokenHash, now()); err != nil {
		return fmt.Errorf("signup: %w", err)
	}
	return tx.Commit()
}

// ConfirmSignup implements store.Store.
func (s *Store) ConfirmSignup(ctx context.Context, tokenHash string, maxAge time.Duration) (store.User, error) {
	var u store.User
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return u, fmt.Errorf("confirm signup: %w", err)
	}
	defer tx.Rollback()
	var email string
	err = tx.QueryRowContext(ctx, `SELECT email FROM signups WHERE token_hash = ? AND confirmed_at IS NULL AND created_at > ?`,
		tokenHash, now()-maxAge.Microseconds()).Scan(&email)
	if errors.Is(err, sql.ErrNoRows) {
		return u, fmt.Errorf("signup token: %w", store.ErrNotFound)
	}
	if err != nil {
		return u, fmt.Errorf("confirm signup: %w", err)
	}
	t := now()
	orgID, userID := newID(), newID()
	if _, err := tx.ExecContext(ctx, `INSERT INTO orgs (id, name, plan, created_at) VALUES (?, ?, 'none', ?)`, orgID, email, t); err != nil {
		if isUnique(err) {
			return u, fmt.Errorf("organization %q: %w", email, store.ErrConflict)
		}
		return u, fmt.Errorf("confirm signup: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO users (id, org_id, email, role, created_at) VALUES (?, ?, ?, 'admin', ?)`, userID, orgID, email, t); err != nil {
		if isUnique(err) {
			return u, fmt.Errorf("user %q: %w", email, store.ErrConflict)
		}
		return u, fmt.Errorf("confirm signup: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE signups SET confirmed_at = ? WHERE email = ?`, t, email); err != nil {
		return u, fmt.Errorf("confirm signup: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return u, fmt.Errorf("confirm signup: %w", err)
	}
	return store.User{ID: userID, OrgID: orgID, Email: email, Role: store.RoleAdmin, CreatedAt: ts(t)}, nil
}

func newID() string { return uuid.NewString() }
