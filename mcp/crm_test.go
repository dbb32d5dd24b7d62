package mcp_test

import (
	"bytes"
	"context"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/openprospect/prospectd/api"
	"github.com/openprospect/prospectd/crm"
	"github.com/openprospect/prospectd/crm/crmfake"
	"github.com/openprospect/prospectd/secrets"
)

func TestCRMTools(t *testing.T) {
	fake := crmfake.New(crm.HubSpot)
	t.Cleanup(fake.Close)
	fake.SetCompanies([]string{"https://www.acme.com", "cloudguard.io"})
	box, err := secrets.New(bytes.Repeat([]byte{3}, 32))
	if err != nil {
		t.Fatal(err)
	}
	var svc *crm.Service
	f := newFixtureWith(t, func(d *api.Deps) {
		svc = crm.NewService(d.Store.(crm.Store), box, crm.Config{PublicURL: "http://prospect.test", Log: zerolog.Nop(),
			Providers: map[string]crm.ProviderConfig{crm.HubSpot: {ClientID: crmfake.ClientID, ClientSecret: crmfake.ClientSecret,
				AuthURL: fake.AuthURL(), TokenURL: fake.TokenURL(), APIBase: fake.APIBase()}}})
		d.CRM = svc
	}, nil)
	ctx := context.Background()
	org, _ := f.st.OrgByName(ctx, "org-a")
	user, _ := f.st.UserByEmail(ctx, "ops@org-a.test")
	cs := connect(t, f.url, f.keyA, nil)

	out, isErr := callTool(t, cs, "list_crm_connections", map[string]any{})
	if isErr || len(out["results"].([]any)) != 0 {
		t.Fatalf("before connecting: %v", out)
	}
	for _, tc := range []struct {
		args   map[string]any
		status float64
	}{
		{map[string]any{"provider": "zoho"}, 404},
		{map[string]any{"provider": "hubspot"}, 404}, // not connected
		{map[string]any{"provider": "hubspot", "kind": "people"}, 422},
		{map[string]any{"provider": "pipedrive"}, 503},
	} {
		if out, isErr := callTool(t, cs, "start_crm_suppression", tc.args); !isErr || out["status"] != tc.status {
			t.Fatalf("%v: %v, want %v", tc.args, out, tc.status)
		}
	}

	// Connect org A (the consent happens in a browser, not through a tool).
	u, err := svc.AuthorizeURL(ctx, org.ID, user.ID, crm.HubSpot)
	if err != nil {
		t.Fatal(err)
	}
	hc := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := hc.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	loc, _ := url.Parse(res.Header.Get("Location"))
	if _, err := svc.Callback(ctx, crm.HubSpot, loc.Query().Get("state"), loc.Query().Get("code")); err != nil {
		t.Fatal(err)
	}

	out, isErr = callTool(t, cs, "start_crm_suppression", map[string]any{"provider": "hubspot", "kind": "companies"})
	if isErr || out["task_id"] == nil || out["kind"] != "companies" {
		t.Fatalf("start: %v", out)
	}
	id := out["task_id"].(string)
	var st map[string]any
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		st, _ = callTool(t, cs, "get_task_status", map[string]any{"task_id": id})
		if st["status"] != "in_progress" || time.Now().After(deadline) {
			break
		}
	}
	results, _ := st["results"].(map[string]any)
	if st["status"] != "completed" || results["domain_count"] != 2.0 {
		t.Fatalf("snapshot: %v", st)
	}
	out, _ = callTool(t, cs, "list_crm_connections", map[string]any{"probe": true})
	conns := out["results"].([]any)
	if len(conns) != 1 || conns[0].(map[string]any)["companies_query_id"] != results["query_id"] || conns[0].(map[string]any)["status"] != "active" {
		t.Fatalf("connections: %v", out)
	}
	// Org B sees none of it.
	csB := connect(t, f.url, f.keyB, nil)
	if out, _ := callTool(t, csB, "list_crm_connections", map[string]any{}); len(out["results"].([]any)) != 0 {
		t.Fatalf("org B lists %v", out)
	}
	if out, isErr := callTool(t, csB, "start_crm_suppression", map[string]any{"provider": "hubspot"}); !isErr || out["status"] != 404.0 {
		t.Fatalf("org B starts a snapshot: %v", out)
	}
}
