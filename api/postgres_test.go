package api

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/rs/zerolog"

	"github.com/openprospect/prospectd/account"
	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/index/embedded"
	"github.com/openprospect/prospectd/index/enginetest"
	"github.com/openprospect/prospectd/store"
	"github.com/openprospect/prospectd/store/postgres"
)

// TestTwoServersShareState runs two API servers, each with its own
// PostgreSQL pool (as two processes would), on one database: a key issued
// through one works on the other, and they draw on one credit balance.
func TestTwoServersShareState(t *testing.T) {
	url := os.Getenv("PROSPECT_TEST_POSTGRES_URL")
	if url == "" {
		t.Skip("PROSPECT_TEST_POSTGRES_URL not set: the two-server PostgreSQL test is skipped (make test sets it when PostgreSQL is installed)")
	}
	ctx := context.Background()
	plans := account.DefaultPlans()
	plans[store.PlanStarter] = account.PlanConfig{Credits: 3, RateMultiplier: 1}
	server := func() (*Server, store.Store) {
		st, err := postgres.Open(ctx, url)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		eng, err := embedded.Open(filepath.Join(t.TempDir(), "index"), embedded.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { eng.Close() })
		eng.SetMeta(ctx, index.Meta{EmbedderID: "test", Dimension: enginetest.Dim})
		eng.UpsertCompanies(ctx, enginetest.Fixtures())
		return newServer(Deps{Engine: eng, Store: st, Log: zerolog.Nop(), Plans: plans}), st
	}
	a, stA := server()
	b, _ := server()
	var suffix [4]byte
	rand.Read(suffix[:])
	org, err := stA.CreateOrg(ctx, "two-servers-"+hex.EncodeToString(suffix[:]), store.PlanStarter)
	if err != nil {
		t.Fatal(err)
	}
	u, _ := stA.CreateUser(ctx, org.ID, "ops@"+org.Name+".test", store.RoleAdmin)
	key, _, _ := stA.CreateAPIKey(ctx, u.ID)
	get := func(s *Server, target string) *http.Response {
		req := httptest.NewRequest(http.MethodGet, target, nil)
		req.Header.Set("X-API-Key", key)
		res, err := s.App().Test(req, -1)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	if res := get(a, "/v1/bizdata?domain=acme.com"); res.StatusCode != http.StatusOK || res.Header.Get("X-Credits-Remaining") != "2" {
		t.Fatalf("server A: %d, remaining %s", res.StatusCode, res.Header.Get("X-Credits-Remaining"))
	}
	// Server B knows the key, sees the record as already paid, and shares
	// the balance.
	if res := get(b, "/v1/bizdata?domain=acme.com"); res.StatusCode != http.StatusOK || res.Header.Get("X-Credits-Billed") != "0" {
		t.Fatalf("server B, cached record: %d, billed %s", res.StatusCode, res.Header.Get("X-Credits-Billed"))
	}
	get(b, "/v1/bizdata?domain=wachdienst.de")
	get(a, "/v1/bizdata?domain=brightbank.co.uk")
	if res := get(b, "/v1/bizdata?domain=cloudguard.io"); res.StatusCode != http.StatusPaymentRequired {
		t.Fatalf("the fourth record on a quota of 3: %d", res.StatusCode)
	}
	var u1, u2 UsageBody
	for _, x := range []struct {
		s   *Server
		out *UsageBody
	}{{a, &u1}, {b, &u2}} {
		f := fixture{srv: x.s, key: key}
		f.getJSON(t, "/v1/usage", x.out)
	}
	if u1.CreditsUsed != 3 || u2.CreditsUsed != 3 || u1.CreditsLeft != 0 {
		t.Fatalf("usage A %+v, B %+v", u1, u2)
	}
}
