package postgres

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/openprospect/prospectd/store"
	"github.com/openprospect/prospectd/store/storetest"
)

// envURL names the database the tests run against. `make test` starts a
// throwaway PostgreSQL and sets it when the server binaries are installed.
const envURL = "PROSPECT_TEST_POSTGRES_URL"

// testURL returns a URL of a fresh, empty schema of the test database (its
// search_path set to that schema only), dropped when t ends.
func testURL(t *testing.T) string {
	t.Helper()
	base := os.Getenv(envURL)
	if base == "" {
		t.Skipf("%s not set: the PostgreSQL store suite is skipped. Run `make test` with the PostgreSQL server "+
			"installed (Debian: apt-get install postgresql), or set %s=postgres://USER:PASS@HOST:5432/DB?sslmode=disable "+
			"(the user must be allowed to create schemas in DB)", envURL, envURL)
	}
	ctx := context.Background()
	admin, err := pgx.Connect(ctx, base)
	if err != nil {
		t.Fatalf("%s: %v", envURL, err)
	}
	defer admin.Close(ctx)
	var b [6]byte
	rand.Read(b[:])
	schema := "prospect_test_" + hex.EncodeToString(b[:])
	if _, err := admin.Exec(ctx, `CREATE SCHEMA `+schema); err != nil {
		t.Fatalf("create schema: %v", err)
	}
	t.Cleanup(func() {
		c, err := pgx.Connect(context.Background(), base)
		if err != nil {
			t.Errorf("drop schema %s: %v", schema, err)
			return
		}
		defer c.Close(context.Background())
		if _, err := c.Exec(context.Background(), `DROP SCHEMA `+schema+` CASCADE`); err != nil {
			t.Errorf("drop schema %s: %v", schema, err)
		}
	})
	// A small pool whatever the machine's CPU count, so several stores fit
	// in a server's default max_connections.
	return withParams(t, base, map[string]string{"search_path": schema, "pool_max_conns": "8"})
}

// withParams adds connection parameters to a URL or key=value string.
func withParams(t *testing.T, base string, params map[string]string) string {
	t.Helper()
	if strings.HasPrefix(base, "postgres://") || strings.HasPrefix(base, "postgresql://") {
		u, err := url.Parse(base)
		if err != nil {
			t.Fatalf("%s: %v", envURL, err)
		}
		q := u.Query()
		for k, v := range params {
			q.Set(k, v)
		}
		u.RawQuery = q.Encode()
		return u.String()
	}
	for k, v := range params {
		base += fmt.Sprintf(" %s=%s", k, v)
	}
	return base
}

func open(t *testing.T, url string) *Store {
	t.Helper()
	s, err := Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestConformance(t *testing.T) {
	storetest.RunAll(t, func(t *testing.T) store.Store { return open(t, testURL(t)) })
}

func TestReopenKeepsData(t *testing.T) {
	ctx := context.Background()
	url := testURL(t)
	s, err := Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	o, _ := s.CreateOrg(ctx, "Acme", store.PlanTeam)
	u, _ := s.CreateUser(ctx, o.ID, "a@acme.test", store.RoleAdmin)
	secret, _, _ := s.CreateAPIKey(ctx, u.ID)
	s.Close()
	s = open(t, url) // migrations must be idempotent
	if p, err := s.Authenticate(ctx, secret); err != nil || p.Org.Plan != store.PlanTeam {
		t.Fatalf("after reopen: %+v %v", p, err)
	}
	files, _ := fs.Glob(migrations, "migrations/*.up.sql")
	var n int
	if err := s.pool.QueryRow(ctx, `SELECT COUNT(*) FROM schema_migrations`).Scan(&n); err != nil || n != len(files) {
		t.Fatalf("schema_migrations has %d rows (%v), want one per migration file (%d)", n, err, len(files))
	}
}

// TestConcurrentOpen: processes starting together on an empty database
// apply the migrations once, under the advisory lock, without failing.
func TestConcurrentOpen(t *testing.T) {
	url := testURL(t)
	var wg sync.WaitGroup
	errs := make(chan error, 6)
	for i := 0; i < 6; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, err := Open(context.Background(), url)
			if err != nil {
				errs <- err
				return
			}
			s.Close()
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestTwoProcesses: two stores (two pools, as two prospectd processes would
// have) on one database share accounts and keys, and 200 parallel bills
// split across both never overspend and never bill a record twice.
func TestTwoProcesses(t *testing.T) {
	ctx := context.Background()
	url := testURL(t)
	a, b := open(t, url), open(t, url)

	o, err := a.CreateOrg(ctx, "Acme", store.PlanStarter)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.CreateOrg(ctx, "acme ", store.PlanTeam); err != nil {
		t.Fatal(err) // names are case-sensitive, as in SQLite
	}
	if _, err := b.CreateOrg(ctx, "Acme", store.PlanTeam); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("duplicate org across processes: %v", err)
	}
	u, err := b.CreateUser(ctx, o.ID, "Ops@Acme.test", store.RoleAdmin)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := a.UserByEmail(ctx, "ops@acme.test"); err != nil || got.ID != u.ID {
		t.Fatalf("user created by b, seen by a: %+v %v", got, err)
	}
	secret, k, err := a.CreateAPIKey(ctx, u.ID)
	if err != nil {
		t.Fatal(err)
	}
	if p, err := b.Authenticate(ctx, secret); err != nil || p.KeyID != k.ID || p.Org.ID != o.ID {
		t.Fatalf("key of a, authenticated by b: %+v %v", p, err)
	}
	if err := b.SetOrgPlan(ctx, o.ID, store.PlanTeam); err != nil {
		t.Fatal(err)
	}
	if p, err := a.Authenticate(ctx, secret); err != nil || p.Org.Plan != store.PlanTeam {
		t.Fatalf("plan set by b, seen by a: %+v %v", p, err)
	}
	if err := b.RevokeAPIKey(ctx, k.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Authenticate(ctx, secret); !errors.Is(err, store.ErrUnauthorized) {
		t.Fatalf("key revoked by b still works on a: %v", err)
	}

	// A quota below the 100 distinct records, so bills race for the last
	// credits; and one above, as in storetest.
	BillConcurrently(t, []store.Store{a, b}, o.ID, 200, 60)
	o2, err := b.CreateOrg(ctx, "Other", store.PlanTeam)
	if err != nil {
		t.Fatal(err)
	}
	BillConcurrently(t, []store.Store{b, a}, o2.ID, 200, 150)
}

// TestBillMissingOrg: billing an unknown organization is ErrNotFound.
func TestBillMissingOrg(t *testing.T) {
	s := open(t, testURL(t))
	_, err := s.Bill(context.Background(), store.BillRequest{OrgID: "nope", Endpoint: "test",
		Charges: []store.Charge{{Kind: store.KindCompany, Key: "a.com"}}, Quota: 10, Now: time.Now()})
	if !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("Bill(unknown org) = %v", err)
	}
}

// BillConcurrently sends n parallel bills for org, round-robin over stores
// (each its own pool: its own "process"), each asking for 3 of 100
// overlapping company records with the given quota, and checks that they
// never overspend and never bill a record twice, and that the ledger
// agrees. It is storetest's testBillingConcurrent across processes.
func BillConcurrently(t *testing.T, stores []store.Store, orgID string, n, quota int) {
	t.Helper()
	ctx := context.Background()
	period := time.Now().UTC().Add(-time.Hour)
	var wg sync.WaitGroup
	var mu sync.Mutex
	billed, covered := 0, map[string]int{}
	perStore := make([]int, len(stores))
	errs := make(chan error, n)
	start := make(chan struct{})
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			<-start
			keys := []string{fmt.Sprintf("d%d.com", i%100), fmt.Sprintf("d%d.com", (i*7)%100), fmt.Sprintf("d%d.com", (i*13+5)%100)}
			charges := make([]store.Charge, len(keys))
			for j, k := range keys {
				charges[j] = store.Charge{Kind: store.KindCompany, Key: k}
			}
			s := stores[i%len(stores)]
			r, err := s.Bill(ctx, store.BillRequest{OrgID: orgID, Endpoint: "test", Charges: charges, Quota: quota, PeriodStart: period, Now: time.Now()})
			if err != nil {
				errs <- err
				return
			}
			mu.Lock()
			defer mu.Unlock()
			billed += r.Billed
			perStore[i%len(stores)] += r.Billed
			for j, c := range r.Covered {
				if c {
					covered[keys[j]]++
				}
			}
		}(i)
	}
	close(start)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if billed > quota {
		t.Fatalf("billed %d credits with a quota of %d", billed, quota)
	}
	if billed != len(covered) {
		t.Fatalf("billed %d credits for %d distinct records: a record was billed twice", billed, len(covered))
	}
	// Every one of the 100 records is asked for, so the bills spend the
	// quota or cover them all.
	if want := min(quota, 100); billed != want {
		t.Fatalf("billed %d credits, want %d", billed, want)
	}
	for i, s := range stores {
		u, err := s.Usage(ctx, orgID, period, time.Now().Add(time.Hour))
		if err != nil || u.Credits != billed {
			t.Fatalf("store %d: usage %+v (%v), billed %d", i, u, err, billed)
		}
	}
	t.Logf("%d bills over %d stores: %d credits billed (per store %v), %d distinct records", n, len(stores), billed, perStore, len(covered))
}

// TestTwoProcessesShareTasks: workers of two stores (two processes) claim
// from one queue at once; FOR UPDATE SKIP LOCKED gives each task to one
// worker only, and together they take every task.
func TestTwoProcessesShareTasks(t *testing.T) {
	ctx := context.Background()
	url := testURL(t)
	a, b := open(t, url), open(t, url)
	o, err := a.CreateOrg(ctx, "Acme", store.PlanTeam)
	if err != nil {
		t.Fatal(err)
	}
	const tasks = 60
	for i := 0; i < tasks; i++ {
		if _, err := b.CreateTask(ctx, o.ID, "match", nil); err != nil {
			t.Fatal(err)
		}
	}
	var mu sync.Mutex
	claimed := map[string]string{}
	var wg sync.WaitGroup
	errs := make(chan error, 2*tasks)
	for w := 0; w < 8; w++ {
		s := []*Store{a, b}[w%2]
		worker := fmt.Sprintf("p%d/w%d", w%2, w)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				task, ok, err := s.ClaimTask(ctx, worker, []string{"match"}, time.Minute)
				if err != nil || !ok {
					if err != nil {
						errs <- err
					}
					return
				}
				mu.Lock()
				if prev, dup := claimed[task.ID]; dup {
					errs <- fmt.Errorf("task %s claimed by %s and %s", task.ID, prev, worker)
				}
				claimed[task.ID] = worker
				mu.Unlock()
				if err := s.CompleteTask(ctx, task.ID, worker, []byte(`{}`)); err != nil {
					errs <- err
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if len(claimed) != tasks {
		t.Fatalf("%d tasks claimed, want %d", len(claimed), tasks)
	}
}
