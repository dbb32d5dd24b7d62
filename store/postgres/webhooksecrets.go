package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/openprospect/prospectd/store"
)

var _ store.WebhookSecretSealer = (*Store)(nil)

// ResealWebhookSecrets implements store.WebhookSecretSealer. One query
// reads every secret (a run's as its data, taken apart in Go); each
// rewrite is its own compare-and-set.
func (s *Store) ResealWebhookSecrets(ctx context.Context, fix func(stored, aad string) (string, bool, error)) (int, error) {
	rows, err := s.pool.Query(ctx, `
		SELECT 'monitor', id, 0::bigint, secret, query_id, NULL::bytea FROM saved_monitors
		UNION ALL SELECT 'event', event_id, 0, secret, source, NULL FROM webhook_queue WHERE secret <> ''
		UNION ALL SELECT 'run', id, rev, '', '', data FROM prospecting_runs WHERE position('"webhook_secret"'::bytea IN data) > 0`)
	if err != nil {
		return 0, fmt.Errorf("read webhook secrets: %w", err)
	}
	held, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (store.HeldSecret, error) {
		var kind, id, value, owner string
		var rev int64
		var data []byte
		if err := r.Scan(&kind, &id, &rev, &value, &owner, &data); err != nil {
			return store.HeldSecret{}, err
		}
		return store.HoldSecret(kind, id, rev, value, owner, data)
	})
	if err != nil {
		return 0, fmt.Errorf("read webhook secrets: %w", err)
	}
	return store.ResealSecrets(ctx, held, fix, func(ctx context.Context, h store.HeldSecret, v string, data []byte) (bool, error) {
		q, args := `UPDATE saved_monitors SET secret = $1 WHERE id = $2 AND secret = $3`, []any{v, h.ID, h.Value}
		switch h.Kind {
		case store.SecretOfEvent:
			q = `UPDATE webhook_queue SET secret = $1 WHERE event_id = $2 AND secret = $3`
		case store.SecretOfRun:
			// The run's content is unchanged: its revision stays, so no
			// writer holding it loses a compare-and-set.
			q, args = `UPDATE prospecting_runs SET data = $1 WHERE id = $2 AND rev = $3`, []any{data, h.ID, h.Rev}
		}
		tag, err := s.pool.Exec(ctx, q, args...)
		if err != nil {
			return false, fmt.Errorf("reseal: %w", err)
		}
		return tag.RowsAffected() == 1, nil
	})
}
