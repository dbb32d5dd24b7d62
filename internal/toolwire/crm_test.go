package toolwire_test

import (
	"bytes"
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"github.com/openprospect/prospectd/api"
	"github.com/openprospect/prospectd/crm"
	"github.com/openprospect/prospectd/crm/crmfake"
	"github.com/openprospect/prospectd/internal/toolwire"
	"github.com/openprospect/prospectd/secrets"
	"github.com/openprospect/prospectd/store"
)

// TestCRMDisconnectNeedsTheAppSession: an admin signed in to the web app
// sees the organization's CRM connections and removes one, with the
// account page's form or with DELETE /v1/crm/{provider}/connection
// carrying the session cookie and its CSRF token; an API key cannot.
func TestCRMDisconnectNeedsTheAppSession(t *testing.T) {
	fake := crmfake.New(crm.HubSpot)
	t.Cleanup(fake.Close)
	box, err := secrets.New(bytes.Repeat([]byte{5}, 32))
	if err != nil {
		t.Fatal(err)
	}
	var svc *crm.Service
	e := newEnvWith(t, func(d *api.Deps) {
		svc = crm.NewService(d.Store.(crm.Store), box, crm.Config{PublicURL: "http://prospect.test", Log: zerolog.Nop(),
			Providers: map[string]crm.ProviderConfig{crm.HubSpot: {ClientID: crmfake.ClientID, ClientSecret: crmfake.ClientSecret,
				AuthURL: fake.AuthURL(), TokenURL: fake.TokenURL(), APIBase: fake.APIBase()}}})
		d.CRM = svc
	}, func(c *toolwire.Config) { c.CRM = svc })
	p := e.signUp(t, "ana@acme-corp.com", store.PlanStarter)
	ctx := context.Background()
	connect := func() {
		u, err := svc.AuthorizeURL(ctx, p.user.OrgID, p.user.ID, crm.HubSpot)
		if err != nil {
			t.Fatal(err)
		}
		res, err := p.noRedirect().Get(u)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		loc, _ := url.Parse(res.Header.Get("Location"))
		if _, err := svc.Callback(ctx, crm.HubSpot, loc.Query().Get("state"), loc.Query().Get("code")); err != nil {
			t.Fatal(err)
		}
	}
	connect()
	_, page := p.get(t, e.origin+"/app/")
	if !strings.Contains(page, "CRM connections") || !strings.Contains(page, "hubspot") || !strings.Contains(page, "Disconnect") {
		t.Fatalf("account page lacks the connection: %s", page)
	}
	csrf := csrfOf(t, page)
	del := func(hdr map[string]string) int {
		req, _ := http.NewRequest(http.MethodDelete, e.origin+"/v1/crm/hubspot/connection", nil)
		for k, v := range hdr {
			req.Header.Set(k, v)
		}
		res, err := p.browser.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	key, _, err := e.st.CreateAPIKey(ctx, p.user.ID)
	if err != nil {
		t.Fatal(err)
	}
	if st := del(map[string]string{"X-API-Key": key, "X-CSRF-Token": csrf}); st != http.StatusForbidden {
		t.Fatalf("DELETE with an API key: %d", st)
	}
	if st := del(nil); st != http.StatusForbidden {
		t.Fatalf("DELETE without the CSRF token: %d", st)
	}
	if st := del(map[string]string{"X-CSRF-Token": csrf}); st != http.StatusOK {
		t.Fatalf("DELETE with the session: %d", st)
	}
	if n := fake.Stats().Revocations; n != 1 {
		t.Fatalf("DELETE revoked %d grants at the CRM, want 1", n)
	}
	if st := del(map[string]string{"X-CSRF-Token": csrf}); st != http.StatusNotFound {
		t.Fatalf("DELETE again: %d", st)
	}

	connect()
	_, page = p.get(t, e.origin+"/app/")
	res, page := p.post(t, e.origin+"/app/crm/disconnect", url.Values{"csrf": {csrfOf(t, page)}, "provider": {"hubspot"}})
	if res.StatusCode != http.StatusOK || !strings.Contains(page, "No CRM is connected") {
		t.Fatalf("disconnect form: %d %s", res.StatusCode, page)
	}
	if n := fake.Stats().Revocations; n != 2 {
		t.Fatalf("the disconnect form revoked %d grants in all, want 2", n)
	}
	if res, _ := p.post(t, e.origin+"/app/crm/disconnect", url.Values{"provider": {"hubspot"}}); res.StatusCode != http.StatusForbidden {
		t.Fatalf("disconnect without CSRF: %d", res.StatusCode)
	}
}
