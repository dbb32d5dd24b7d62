package api

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/openprospect/prospectd/index/embedded"
	"github.com/openprospect/prospectd/ingest/refresh"
	"github.com/openprospect/prospectd/jobs"
	"github.com/openprospect/prospectd/store"
	"github.com/openprospect/prospectd/store/sqlite"
)

func TestRefreshAdminRoutes(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	eng, err := embedded.Open(filepath.Join(dir, "index"), embedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eng.Close() })
	st, err := sqlite.Open(ctx, filepath.Join(dir, "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	file := filepath.Join(dir, "companies.csv")
	os.WriteFile(file, []byte("domain,name,employees\nalpha.com,Alpha,11-50\nbeta.com,Beta,1-10\n,No Domain,1-10\n"), 0o600)
	cfg, err := refresh.ParseConfig([]byte(fmt.Sprintf(`{"operator_orgs": ["ops"], "sources": [
		{"name": "registry", "kind": "file", "path": %q, "mode": "snapshot", "schedule": "0 3 * * *"}]}`, file)), refresh.DefaultKinds())
	if err != nil {
		t.Fatal(err)
	}
	svc := &refresh.Service{Config: cfg, Kinds: refresh.DefaultKinds(), State: st, Engine: eng, Env: refresh.Env{DataDir: dir}, Log: zerolog.Nop()}
	runner := jobs.New(jobs.Config{State: st, Engine: eng, Log: zerolog.Nop(), Workers: 1, Refresh: svc})
	srv := newServer(Deps{Engine: eng, Store: st, Tasks: runner, Refresh: svc, Log: zerolog.Nop()})
	jctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if err := srv.StartJobs(jctx); err != nil {
		t.Fatal(err)
	}
	defer srv.StopJobs()
	f := fixture{srv: srv, st: st}

	key := func(org string, role store.Role) string {
		o, err := st.OrgByName(ctx, org)
		if err != nil {
			o, _ = st.CreateOrg(ctx, org, store.PlanTeam)
		}
		u, err := st.CreateUser(ctx, o.ID, string(role)+"@"+org+".test", role)
		if err != nil {
			t.Fatal(err)
		}
		k, _, err := st.CreateAPIKey(ctx, u.ID)
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	operator, member, otherAdmin := key("ops", store.RoleAdmin), key("ops", store.RoleMember), key("customer", store.RoleAdmin)

	for _, tc := range []struct {
		name, method, path, key string
		want                    int
	}{
		{"no key", http.MethodGet, "/v1/admin/refreshes", "", http.StatusUnauthorized},
		{"member of the operator org", http.MethodGet, "/v1/admin/refreshes", member, http.StatusForbidden},
		{"admin of another org", http.MethodGet, "/v1/admin/refreshes", otherAdmin, http.StatusForbidden},
		{"admin of another org runs", http.MethodPost, "/v1/admin/refreshes/registry/run", otherAdmin, http.StatusForbidden},
		{"admin of another org history", http.MethodGet, "/v1/admin/refreshes/registry", otherAdmin, http.StatusForbidden},
		{"operator", http.MethodGet, "/v1/admin/refreshes", operator, http.StatusOK},
		{"unknown source", http.MethodGet, "/v1/admin/refreshes/nope", operator, http.StatusNotFound},
		{"run unknown source", http.MethodPost, "/v1/admin/refreshes/nope/run", operator, http.StatusNotFound},
		{"bad limit", http.MethodGet, "/v1/admin/refreshes/registry?limit=0", operator, http.StatusUnprocessableEntity},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hdr := map[string]string{}
			if tc.key != "" {
				hdr["X-API-Key"] = tc.key
			}
			res, body := f.do(t, tc.method, tc.path, hdr)
			if res.StatusCode != tc.want {
				t.Fatalf("%s %s = %d %v, want %d", tc.method, tc.path, res.StatusCode, body, tc.want)
			}
		})
	}

	hdr := map[string]string{"X-API-Key": operator}
	res, body := f.do(t, http.MethodPost, "/v1/admin/refreshes/registry/run", hdr)
	if res.StatusCode != http.StatusAccepted || body["status"] != store.RefreshQueued || body["task_id"] == "" {
		t.Fatalf("run = %d %v", res.StatusCode, body)
	}
	deadline := time.Now().Add(20 * time.Second)
	var run map[string]any
	for time.Now().Before(deadline) {
		_, body = f.do(t, http.MethodGet, "/v1/admin/refreshes/registry?limit=5", hdr)
		runs, _ := body["runs"].([]any)
		if len(runs) == 1 {
			run = runs[0].(map[string]any)
			if run["status"] == store.RefreshCompleted || run["status"] == store.RefreshFailed {
				break
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	counts, _ := run["counts"].(map[string]any)
	rejects, _ := run["rejects"].([]any)
	if run["status"] != store.RefreshCompleted || counts["changed"] != 2.0 || counts["rejected"] != 1.0 || len(rejects) != 1 || body["next_run_at"] == nil {
		t.Fatalf("history after the run = %v", body)
	}
	_, body = f.do(t, http.MethodGet, "/v1/admin/refreshes", hdr)
	srcs, _ := body["sources"].([]any)
	if len(srcs) != 1 || srcs[0].(map[string]any)["name"] != "registry" || len(srcs[0].(map[string]any)["runs"].([]any)) != 1 {
		t.Fatalf("list = %v", body)
	}
	if cs, _ := eng.GetCompanies(ctx, []string{"alpha.com", "beta.com"}); len(cs) != 2 {
		t.Fatalf("companies after the run: %d", len(cs))
	}
}

func TestRefreshRunByTask(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	st, err := sqlite.Open(ctx, filepath.Join(dir, "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	eng, err := embedded.Open(filepath.Join(dir, "index"), embedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eng.Close() })
	cfg, _ := refresh.ParseConfig([]byte(`{"operator_orgs": ["ops"], "sources": [{"name": "r", "kind": "file", "path": "/nonexistent.jsonl", "mode": "incremental"}]}`), refresh.DefaultKinds())
	svc := &refresh.Service{Config: cfg, Kinds: refresh.DefaultKinds(), State: st, Engine: eng, Log: zerolog.Nop()}
	srv := newServer(Deps{Engine: eng, Store: st, Refresh: svc, Log: zerolog.Nop()})
	o, _ := st.CreateOrg(ctx, "ops", store.PlanTeam)
	u, _ := st.CreateUser(ctx, o.ID, "a@ops.test", store.RoleAdmin)
	k, _, _ := st.CreateAPIKey(ctx, u.ID)
	f := fixture{srv: srv, st: st}
	r, err := svc.Submit(ctx, "r", refresh.TriggerManual)
	if err != nil {
		t.Fatal(err)
	}
	res, body := f.do(t, http.MethodGet, "/v1/admin/refresh-runs/"+r.TaskID, map[string]string{"X-API-Key": k})
	if res.StatusCode != http.StatusOK || body["status"] != store.RefreshQueued || body["source"] != "r" {
		t.Fatalf("run = %d %v", res.StatusCode, body)
	}
	if res, _ := f.do(t, http.MethodGet, "/v1/admin/refresh-runs/nope", map[string]string{"X-API-Key": k}); res.StatusCode != http.StatusNotFound {
		t.Fatalf("unknown run = %d", res.StatusCode)
	}
}
