package refresh

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"os"
	"path/filepath"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/openprospect/prospectd/index/embedded"
	"github.com/openprospect/prospectd/store/postgres"
)

// TestOneRunAtATimePostgres is TestOneRunAtATime with two stores (as two
// server processes have) on one PostgreSQL database: the lease row is
// what keeps the second run of a source waiting.
func TestOneRunAtATimePostgres(t *testing.T) {
	base := os.Getenv("PROSPECT_TEST_POSTGRES_URL")
	if base == "" {
		t.Skip("PROSPECT_TEST_POSTGRES_URL not set: the PostgreSQL refresh lease test is skipped (scripts/with-postgres.sh sets it)")
	}
	ctx := context.Background()
	admin, err := pgx.Connect(ctx, base)
	if err != nil {
		t.Fatal(err)
	}
	var b [6]byte
	rand.Read(b[:])
	schema := "refresh_test_" + hex.EncodeToString(b[:])
	if _, err := admin.Exec(ctx, `CREATE SCHEMA `+schema); err != nil {
		t.Fatal(err)
	}
	admin.Close(ctx)
	t.Cleanup(func() {
		if c, err := pgx.Connect(context.Background(), base); err == nil {
			c.Exec(context.Background(), `DROP SCHEMA `+schema+` CASCADE`)
			c.Close(context.Background())
		}
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	q.Set("pool_max_conns", "4")
	u.RawQuery = q.Encode()
	open := func() *postgres.Store {
		s, err := postgres.Open(ctx, u.String())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	a, bst := open(), open()
	eng, err := embedded.Open(filepath.Join(t.TempDir(), "index"), embedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	testOneRunAtATime(t, eng, a, bst)
}
