package postgres

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/openprospect/prospectd/store"
)

// Bill implements store.Store. Concurrent bills of one organization, from
// this process or another, are serialized by the lock on the organization's
// row, taken first in the transaction: under READ COMMITTED every later
// statement sees the ledger and billed records committed by the previous
// holder, so the period's usage and the fresh records cannot change before
// the commit. Bills of different organizations do not wait for each other.
func (s *Store) Bill(ctx context.Context, req store.BillRequest) (store.BillResult, error) {
	if len(req.Charges) == 0 {
		return store.BillResult{Covered: []bool{}}, nil
	}
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return store.BillResult{}, fmt.Errorf("bill: %w", err)
	}
	defer tx.Rollback(ctx)
	var id string
	err = tx.QueryRow(ctx, `SELECT id FROM orgs WHERE id = $1 FOR UPDATE`, req.OrgID).Scan(&id)
	if errors.Is(err, pgx.ErrNoRows) {
		return store.BillResult{}, fmt.Errorf("bill: organization %s: %w", req.OrgID, store.ErrNotFound)
	}
	if err != nil {
		return store.BillResult{}, fmt.Errorf("bill: lock organization: %w", err)
	}
	var used int64
	if err := tx.QueryRow(ctx, `SELECT COALESCE(SUM(credits), 0)::bigint FROM ledger WHERE org_id = $1 AND at >= $2`,
		req.OrgID, req.PeriodStart).Scan(&used); err != nil {
		return store.BillResult{}, fmt.Errorf("bill: period usage: %w", err)
	}
	fresh, err := freshRecords(ctx, tx, req)
	if err != nil {
		return store.BillResult{}, err
	}
	a := store.Allocate(req.Charges, fresh, req.Quota, int(used))

	var b pgx.Batch
	for _, ref := range a.Paid {
		b.Queue(`INSERT INTO billed_records (org_id, kind, record_key, billed_at) VALUES ($1, $2, $3, $4)
			ON CONFLICT (org_id, kind, record_key) DO UPDATE SET billed_at = excluded.billed_at`, req.OrgID, ref.Kind, ref.Key, req.Now)
	}
	for _, kind := range ledgerKinds(a) {
		n, free := a.ByKind[kind], a.FreeByKind[kind]
		b.Queue(`INSERT INTO ledger (org_id, at, endpoint, kind, records, free, credits) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
			req.OrgID, req.Now, req.Endpoint, kind, n, free, n)
	}
	if b.Len() > 0 {
		if err := tx.SendBatch(ctx, &b).Close(); err != nil {
			return store.BillResult{}, fmt.Errorf("bill: record: %w", err)
		}
	}
	if err := tx.Commit(ctx); err != nil {
		return store.BillResult{}, fmt.Errorf("bill: commit: %w", err)
	}
	return a.Result, nil
}

// freshRecords returns the requested records billed within the window.
func freshRecords(ctx context.Context, tx pgx.Tx, req store.BillRequest) (map[store.RecordRef]bool, error) {
	fresh := map[store.RecordRef]bool{}
	byKind := map[string][]string{}
	for _, c := range req.Charges {
		if !c.NoCache {
			byKind[c.Kind] = append(byKind[c.Kind], c.Key)
		}
	}
	since := req.Now.Add(-store.NoRebillWindow)
	for kind, keys := range byKind {
		rows, err := tx.Query(ctx, `SELECT record_key FROM billed_records WHERE org_id = $1 AND kind = $2 AND billed_at > $3 AND record_key = ANY($4)`,
			req.OrgID, kind, since, keys)
		if err != nil {
			return nil, fmt.Errorf("bill: cached records: %w", err)
		}
		got, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			return nil, fmt.Errorf("bill: cached records: %w", err)
		}
		for _, k := range got {
			fresh[store.RecordRef{Kind: kind, Key: k}] = true
		}
	}
	return fresh, nil
}

// ledgerKinds lists the kinds with a ledger row, sorted so the inserts run
// in a stable order.
func ledgerKinds(a store.Allocation) []string {
	var kinds []string
	for k := range a.ByKind {
		kinds = append(kinds, k)
	}
	for k := range a.FreeByKind {
		if _, ok := a.ByKind[k]; !ok {
			kinds = append(kinds, k)
		}
	}
	sort.Strings(kinds)
	return kinds
}

// Usage implements store.Store.
func (s *Store) Usage(ctx context.Context, orgID string, from, to time.Time) (store.Usage, error) {
	u := store.Usage{Records: map[string]int{}, Free: map[string]int{}}
	rows, err := s.pool.Query(ctx, `SELECT kind, SUM(records)::bigint, SUM(free)::bigint, SUM(credits)::bigint FROM ledger
		WHERE org_id = $1 AND at >= $2 AND at < $3 GROUP BY kind`, orgID, from, to)
	if err != nil {
		return u, fmt.Errorf("usage: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var kind string
		var n, free, credits int64
		if err := rows.Scan(&kind, &n, &free, &credits); err != nil {
			return u, fmt.Errorf("usage: %w", err)
		}
		u.Records[kind], u.Free[kind] = int(n), int(free)
		u.Credits += int(credits)
	}
	if err := rows.Err(); err != nil {
		return u, fmt.Errorf("usage: %w", err)
	}
	return u, nil
}

// SaveSignup implements store.Store.
func (s *Store) SaveSignup(ctx context.Context, su store.Signup, tokenHash string) error {
	email := strings.ToLower(strings.TrimSpace(su.Email))
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return fmt.Errorf("signup: %w", err)
	}
	defer tx.Rollback(ctx)
	var exists bool
	if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM users WHERE email = $1)`, email).Scan(&exists); err != nil {
		return fmt.Errorf("signup: %w", err)
	}
	if exists {
		return fmt.Errorf("account %s: %w", email, store.ErrConflict)
	}
	// A confirmed signup is never replaced: the upsert's WHERE leaves it
	// alone, and no row comes back.
	tag, err := tx.Exec(ctx, `INSERT INTO signups (email, first_name, last_name, agent, token_hash, created_at) VALUES ($1, $2, $3, $4, $5, $6)
		ON CONFLICT (email) DO UPDATE SET first_name = excluded.first_name, last_name = excluded.last_name, agent = excluded.agent,
		token_hash = excluded.token_hash, created_at = excluded.created_at
		WHERE signups.confirmed_at IS NULL`,
		email, su.FirstName, su.LastName, su.Agent, tokenHash, now())
	if err != nil {
		return fmt.Errorf("signup: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("account %s: %w", email, store.ErrConflict)
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("signup: %w", err)
	}
	return nil
}

// ConfirmSignup implements store.Store. Marking the signup confirmed comes
// first and claims it: a concurrent confirmation of the same token waits
// for the row, then finds it confirmed.
func (s *Store) ConfirmSignup(ctx context.Context, tokenHash string, maxAge time.Duration) (store.User, error) {
	var u store.User
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return u, fmt.Errorf("confirm signup: %w", err)
	}
	defer tx.Rollback(ctx)
	t := now()
	var email string
	err = tx.QueryRow(ctx, `UPDATE signups SET confirmed_at = $1 WHERE token_hash = $2 AND confirmed_at IS NULL AND created_at > $3 RETURNING email`,
		t, tokenHash, t.Add(-maxAge)).Scan(&email)
	if errors.Is(err, pgx.ErrNoRows) {
		return u, fmt.Errorf("signup token: %w", store.ErrNotFound)
	}
	if err != nil {
		return u, fmt.Errorf("confirm signup: %w", err)
	}
	orgID, userID := uuid.NewString(), uuid.NewString()
	if _, err := tx.Exec(ctx, `INSERT INTO orgs (id, name, plan, created_at) VALUES ($1, $2, 'none', $3)`, orgID, email, t); err != nil {
		if pgCode(err) == uniqueViolation {
			return u, fmt.Errorf("organization %q: %w", email, store.ErrConflict)
		}
		return u, fmt.Errorf("confirm signup: %w", err)
	}
	if _, err := tx.Exec(ctx, `INSERT INTO users (id, org_id, email, role, created_at) VALUES ($1, $2, $3, 'admin', $4)`, userID, orgID, email, t); err != nil {
		if pgCode(err) == uniqueViolation {
			return u, fmt.Errorf("user %q: %w", email, store.ErrConflict)
		}
		return u, fmt.Errorf("confirm signup: %w", err)
	}
	if err := tx.Commit(ctx); err != nil {
		return u, fmt.Errorf("confirm signup: %w", err)
	}
	return store.User{ID: userID, OrgID: orgID, Email: email, Role: store.RoleAdmin, CreatedAt: t}, nil
}
