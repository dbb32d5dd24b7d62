package api

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/openprospect/prospectd/account"
	"github.com/openprospect/prospectd/email"
	"github.com/openprospect/prospectd/export"
	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/index/embedded"
	"github.com/openprospect/prospectd/index/enginetest"
	"github.com/openprospect/prospectd/jobs"
	"github.com/openprospect/prospectd/namematch"
	"github.com/openprospect/prospectd/prospecting"
	"github.com/openprospect/prospectd/query"
	"github.com/openprospect/prospectd/saved"
	"github.com/openprospect/prospectd/secrets"
	"github.com/openprospect/prospectd/store"
	"github.com/openprospect/prospectd/store/sqlite"
)

type fixture struct {
	srv *Server
	key string
	st  store.Store
}

func newFixture(t *testing.T) fixture { return newFixtureWith(t, nil) }

// keyFor issues a key of a new organization on plan.
func (f fixture) keyFor(t *testing.T, org string, plan store.Plan) string {
	t.Helper()
	ctx := context.Background()
	o, err := f.st.CreateOrg(ctx, org, plan)
	if err != nil {
		t.Fatal(err)
	}
	u, err := f.st.CreateUser(ctx, o.ID, "ops@"+org+".test", store.RoleMember)
	if err != nil {
		t.Fatal(err)
	}
	key, _, err := f.st.CreateAPIKey(ctx, u.ID)
	if err != nil {
		t.Fatal(err)
	}
	return key
}

func newFixtureWith(t *testing.T, configure func(*Deps)) fixture {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	eng, err := embedded.Open(filepath.Join(dir, "index"), embedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eng.Close() })
	if err := eng.SetMeta(ctx, index.Meta{EmbedderID: "test", Dimension: enginetest.Dim}); err != nil {
		t.Fatal(err)
	}
	if _, err := eng.UpsertCompanies(ctx, enginetest.Fixtures()); err != nil {
		t.Fatal(err)
	}
	st, err := sqlite.Open(ctx, filepath.Join(dir, "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	org, err := st.CreateOrg(ctx, "acme", store.PlanStarter)
	if err != nil {
		t.Fatal(err)
	}
	u, err := st.CreateUser(ctx, org.ID, "ops@acme.test", store.RoleAdmin)
	if err != nil {
		t.Fatal(err)
	}
	key, _, err := st.CreateAPIKey(ctx, u.ID)
	if err != nil {
		t.Fatal(err)
	}
	d := Deps{Engine: eng, Store: st, Log: zerolog.Nop(), Exports: &export.Files{Dir: filepath.Join(dir, "exports")}}
	if configure != nil {
		configure(&d)
	}
	return fixture{srv: newServer(d), key: key, st: st}
}

// newServer builds the server as cmd/prospectd does: with a task runner
// that has every task kind wired to its body, and the name index it shares
// with the server's warm-up.
func newServer(d Deps) *Server {
	if d.Webhooks == nil {
		// One sender, its secrets key made here, as cmd/prospectd wires it.
		box, err := secrets.New(bytes.Repeat([]byte{4}, 32))
		if err != nil {
			panic(err)
		}
		d.Webhooks = &saved.Webhooks{Client: saved.WebhookClient(d.WebhookPrivateHosts), Secrets: box, Log: d.Log}
	}
	if d.Plans == nil {
		d.Plans = account.DefaultPlans() // as New and cmd/prospectd: the services bill against the same plans
	}
	if d.Tasks == nil {
		d.Names = &namematch.Service{Engine: d.Engine, Now: d.Now}
		jc := jobs.Config{State: d.Store.(jobs.State), Engine: d.Engine, Names: d.Names,
			Plans: d.Plans, Now: d.Now, Log: d.Log, Workers: 2, Research: d.Research, Exports: d.Exports, CRM: d.CRM}
		if ss, ok := d.Store.(saved.Store); ok {
			jc.Saved = saved.NewService(ss)
		}
		if pst, ok := d.Store.(prospecting.State); ok && d.Prospecting == nil && d.Integrations != nil {
			companies := &query.Companies{Engine: d.Engine}
			d.Prospecting = &prospecting.Service{State: pst, Biller: &account.Biller{Store: d.Store, Plans: d.Plans, Now: d.Now}, Plans: d.Plans,
				Engine: d.Engine, Companies: companies, Contacts: &query.ContactService{Engine: d.Engine, Companies: companies}, Names: d.Names,
				Integrations: d.Integrations, Research: d.Research, Log: d.Log, Now: d.Now, Poll: 20 * time.Millisecond}
		}
		jc.Prospecting = d.Prospecting
		d.Tasks = jobs.New(jc)
	}
	if d.Email == nil {
		var err error
		d.EmailTasks, d.Email, err = jobs.NewEmail(jobs.Config{Engine: d.Engine, Plans: d.Plans, Now: d.Now, Log: d.Log}, d.Store.(jobs.EmailState), email.Config{})
		if err != nil {
			panic(err)
		}
	}
	if d.Prospecting != nil && d.Prospecting.Email == nil {
		d.Prospecting.Email = d.Email
	}
	return New(d)
}

func (f fixture) do(t *testing.T, method, target string, hdr map[string]string) (*http.Response, map[string]any) {
	t.Helper()
	req := httptest.NewRequest(method, target, nil)
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	res, err := f.srv.App().Test(req, -1)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	var body map[string]any
	if len(b) > 0 && b[0] == '{' {
		if err := json.Unmarshal(b, &body); err != nil {
			t.Fatalf("%s %s: body is not JSON: %s", method, target, b)
		}
	}
	return res, body
}

func TestAuthHeaders(t *testing.T) {
	f := newFixture(t)
	for _, tc := range []struct {
		name string
		hdr  map[string]string
		want int
	}{
		{"none", nil, 401},
		{"x-api-key", map[string]string{"X-API-Key": f.key}, 200},
		{"bearer", map[string]string{"Authorization": "Bearer " + f.key}, 200},
		{"bearer lower-case scheme", map[string]string{"Authorization": "bearer " + f.key}, 200},
		{"x-service-key", map[string]string{"x-service-key": f.key}, 200},
		{"wrong key", map[string]string{"X-API-Key": "pk_live_nope"}, 401},
		{"basic auth is not a key", map[string]string{"Authorization": "Basic " + f.key}, 401},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, body := f.do(t, "GET", "/v1/bizdata?domain=acme.com", tc.hdr)
			if res.StatusCode != tc.want {
				t.Fatalf("status %d, want %d (%v)", res.StatusCode, tc.want, body)
			}
			if tc.want == 401 {
				if d, _ := body["detail"].(string); d == "" {
					t.Fatalf("401 without a detail: %v", body)
				}
			}
		})
	}
}

func TestBizdata(t *testing.T) {
	f := newFixture(t)
	auth := map[string]string{"X-API-Key": f.key}
	for _, tc := range []struct {
		query      string
		want       int
		wantDomain string
		detailHas  string
	}{
		{"domain=acme.com", 200, "acme.com", ""},
		{"domain=https://www.Acme.com/about?x=1", 200, "acme.com", ""},
		{"domain=shop.brightbank.co.uk", 200, "brightbank.co.uk", ""},
		{"domain=unknown-company.com", 404, "", "unknown-company.com"},
		{"domain=not a domain", 422, "", "domain"},
		{"domain=co.uk", 422, "", "domain"},
		{"", 422, "", "domain"},
	} {
		t.Run(tc.query, func(t *testing.T) {
			res, body := f.do(t, "GET", "/v1/bizdata?"+strings.ReplaceAll(tc.query, " ", "%20"), auth)
			if res.StatusCode != tc.want {
				t.Fatalf("status %d, want %d: %v", res.StatusCode, tc.want, body)
			}
			if tc.wantDomain != "" && body["domain"] != tc.wantDomain {
				t.Fatalf("domain = %v, want %s", body["domain"], tc.wantDomain)
			}
			if tc.detailHas != "" {
				if d, _ := body["detail"].(string); !strings.Contains(d, tc.detailHas) {
					t.Fatalf("detail %q does not mention %q", d, tc.detailHas)
				}
			}
		})
	}
}

func TestBizdataProfileShape(t *testing.T) {
	f := newFixture(t)
	_, body := f.do(t, "GET", "/v1/bizdata?domain=closedco.com", map[string]string{"X-API-Key": f.key})
	for _, k := range []string{"domain", "name", "status", "score", "start_date", "end_date", "address", "phones", "public_emails",
		"social_urls", "description", "keywords", "industry_groups", "employees", "redirect_domain", "update_date", "mx_provider"} {
		if _, ok := body[k]; !ok {
			t.Errorf("profile lacks %q", k)
		}
	}
	if body["phones"] == nil {
		t.Error("empty phones must be [] not null")
	}
	if body["end_date"] != "2019-12-31" || body["redirect_domain"] != "acme.com" {
		t.Errorf("end_date/redirect_domain: %v %v", body["end_date"], body["redirect_domain"])
	}
	if _, ok := body["site_text"]; ok {
		t.Error("site_text must not be part of the profile")
	}
	if _, ok := body["$schema"]; ok {
		t.Error("no $schema link in bodies")
	}
}

func TestHealthAndOpenAPINeedNoKey(t *testing.T) {
	f := newFixture(t)
	res, body := f.do(t, "GET", "/v1/health", nil)
	if res.StatusCode != 200 || body["status"] != "ok" {
		t.Fatalf("health: %d %v", res.StatusCode, body)
	}
	res, body = f.do(t, "GET", "/v1/openapi.json", nil)
	if res.StatusCode != 200 {
		t.Fatalf("openapi: %d", res.StatusCode)
	}
	if v, _ := body["openapi"].(string); !strings.HasPrefix(v, "3.1") {
		t.Fatalf("openapi version %v", body["openapi"])
	}
	paths, _ := body["paths"].(map[string]any)
	for _, p := range []string{"/v1/health", "/v1/bizdata"} {
		if _, ok := paths[p]; !ok {
			t.Errorf("openapi lacks %s", p)
		}
	}
}

func TestUnknownRouteIsProblemJSON(t *testing.T) {
	f := newFixture(t)
	res, body := f.do(t, "GET", "/v1/nope", nil)
	if res.StatusCode != 404 || body["detail"] == nil {
		t.Fatalf("unknown route: %d %v", res.StatusCode, body)
	}
}
