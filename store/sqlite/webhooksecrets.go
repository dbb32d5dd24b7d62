package sqlite

import (
	"context"
	"fmt"

	"github.com/openprospect/prospectd/store"
)

var _ store.WebhookSecretSealer = (*Store)(nil)

// ResealWebhookSecrets implements store.WebhookSecretSealer. One query
// reads every secret (a run's as its data, taken apart in Go); each
// rewrite is its own compare-and-set.
func (s *Store) ResealWebhookSecrets(ctx context.Context, fix func(stored, aad string) (string, bool, error)) (int, error) {
	rows, err := s.r.QueryContext(ctx, `
		SELECT 'monitor', id, 0, secret, query_id, NULL FROM saved_monitors
		UNION ALL SELECT 'event', event_id, 0, secret, source, NULL FROM webhook_queue WHERE secret <> ''
		UNION ALL SELECT 'run', id, rev, '', '', data FROM prospecting_runs WHERE CAST(data AS TEXT) LIKE '%"webhook_secret"%'`)
	if err != nil {
		return 0, fmt.Errorf("read webhook secrets: %w", err)
	}
	var held []store.HeldSecret
	for rows.Next() {
		var kind, id, value, owner string
		var rev int64
		var data []byte
		if err := rows.Scan(&kind, &id, &rev, &value, &owner, &data); err != nil {
			rows.Close()
			return 0, fmt.Errorf("read webhook secrets: %w", err)
		}
		h, err := store.HoldSecret(kind, id, rev, value, owner, data)
		if err != nil {
			rows.Close()
			return 0, fmt.Errorf("read webhook secrets: %w", err)
		}
		held = append(held, h)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, fmt.Errorf("read webhook secrets: %w", err)
	}
	return store.ResealSecrets(ctx, held, fix, func(ctx context.Context, h store.HeldSecret, v string, data []byte) (bool, error) {
		q, args := `UPDATE saved_monitors SET secret = ? WHERE id = ? AND secret = ?`, []any{v, h.ID, h.Value}
		switch h.Kind {
		case store.SecretOfEvent:
			q = `UPDATE webhook_queue SET secret = ? WHERE event_id = ? AND secret = ?`
		case store.SecretOfRun:
			// The run's content is unchanged: its revision stays, so no
			// writer holding it loses a compare-and-set.
			q, args = `UPDATE prospecting_runs SET data = ? WHERE id = ? AND rev = ?`, []any{data, h.ID, h.Rev}
		}
		res, err := s.w.ExecContext(ctx, q, args...)
		if err != nil {
			return false, fmt.Errorf("reseal: %w", err)
		}
		n, _ := res.RowsAffected()
		return n == 1, nil
	})
}
