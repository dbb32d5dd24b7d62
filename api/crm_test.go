package api

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pb33f/libopenapi"
	"github.com/pb33f/libopenapi-validator/schema_validation"
	"github.com/rs/zerolog"

	"github.com/openprospect/prospectd/account"
	"github.com/openprospect/prospectd/crm"
	"github.com/openprospect/prospectd/crm/crmfake"
	"github.com/openprospect/prospectd/secrets"
	"github.com/openprospect/prospectd/store"
	"github.com/openprospect/prospectd/web"
)

// crmLog is a log sink whose text the tests scan.
type crmLog struct{ lockedBuffer }

func (l *crmLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

type crmFixture struct {
	fixture
	fakes  map[string]*crmfake.Server
	log    *crmLog
	bodies *crmLog // every response body, scanned for tokens
	org    store.Org
}

func newCRMFixture(t *testing.T) *crmFixture {
	t.Helper()
	fakes := map[string]*crmfake.Server{crm.HubSpot: crmfake.New(crm.HubSpot), crm.Salesforce: crmfake.New(crm.Salesforce)}
	for _, f := range fakes {
		t.Cleanup(f.Close)
	}
	box, err := secrets.New(bytes.Repeat([]byte{9}, 32))
	if err != nil {
		t.Fatal(err)
	}
	cf := &crmFixture{fakes: fakes, log: &crmLog{}, bodies: &crmLog{}}
	providers := map[string]crm.ProviderConfig{}
	for p, f := range fakes {
		providers[p] = crm.ProviderConfig{ClientID: crmfake.ClientID, ClientSecret: crmfake.ClientSecret, AuthURL: f.AuthURL(), TokenURL: f.TokenURL(), APIBase: f.APIBase()}
	}
	log := zerolog.New(cf.log)
	cf.fixture = newFixtureWith(t, func(d *Deps) {
		d.Log = log
		// The general limits are not under test here.
		d.Limits = &account.Limits{KeyPerSecond: 1000, KeyBurst: 1000, OrgPerSecond: 1000, OrgBurst: 1000}
		d.CRM = crm.NewService(d.Store.(crm.Store), box, crm.Config{Providers: providers, PublicURL: "http://prospect.test", Log: log})
	})
	app := web.New(web.Config{State: cf.st, Log: log})
	cf.srv.SetWebSessions(app)
	cf.org, _ = cf.st.OrgByName(context.Background(), "acme")
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	if err := cf.srv.StartJobs(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cf.srv.StopJobs() })
	return cf
}

// call sends a request with optional headers and decodes the JSON answer.
func (f *crmFixture) call(t *testing.T, method, target string, hdr map[string]string, out any) *http.Response {
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
	f.bodies.Write(b)
	f.bodies.Write([]byte("\n"))
	if out != nil && len(b) > 0 {
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatalf("%s %s: %d %s", method, target, res.StatusCode, b)
		}
	}
	return res
}

func keyHdr(key string) map[string]string { return map[string]string{"X-API-Key": key} }

// connect runs the OAuth flow through the API: authorize, the fake's
// consent redirect, the callback.
func (f *crmFixture) connect(t *testing.T, key, provider string) {
	t.Helper()
	var auth struct {
		AuthorizeURL string `json:"authorize_url"`
	}
	if res := f.call(t, "GET", "/v1/crm/"+provider+"/authorize", keyHdr(key), &auth); res.StatusCode != 200 {
		t.Fatalf("authorize: %d", res.StatusCode)
	}
	hc := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := hc.Get(auth.AuthorizeURL)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	loc, err := url.Parse(res.Header.Get("Location"))
	if err != nil || !strings.HasPrefix(loc.String(), "http://prospect.test/v1/crm/"+provider+"/callback?") {
		t.Fatalf("redirected to %q", res.Header.Get("Location"))
	}
	var cb map[string]any
	if res := f.call(t, "GET", loc.RequestURI(), nil, &cb); res.StatusCode != 200 || cb["status"] != "active" {
		t.Fatalf("callback: %d %v", res.StatusCode, cb)
	}
	// The same redirect again: the state was single-use.
	var again map[string]any
	if res := f.call(t, "GET", loc.RequestURI(), nil, &again); res.StatusCode != 400 || !strings.Contains(again["detail"].(string), "state") {
		t.Fatalf("replayed callback: %d %v", res.StatusCode, again)
	}
}

func (f *crmFixture) suppress(t *testing.T, key, provider, kind string) crm.SnapshotResult {
	t.Helper()
	var acc map[string]any
	res := f.call(t, "POST", "/v1/crm/"+provider+"/suppress?kind="+kind, keyHdr(key), &acc)
	if res.StatusCode != http.StatusAccepted || acc["provider"] != provider || acc["kind"] != kind || acc["message"] == "" {
		t.Fatalf("suppress: %d %v", res.StatusCode, acc)
	}
	var st TaskStatusBody
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		f.call(t, "GET", "/v1/crm/suppress/status/"+acc["task_id"].(string), keyHdr(key), &st)
		if st.Status != store.TaskInProgress || time.Now().After(deadline) {
			break
		}
	}
	if st.Status != store.TaskCompleted {
		t.Fatalf("snapshot task %s: %s", st.Status, st.Error)
	}
	var out crm.SnapshotResult
	b, _ := json.Marshal(st.Results)
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func discoverDomains(t *testing.T, f *crmFixture, query string) []string {
	t.Helper()
	var got []map[string]any
	if res := f.call(t, "GET", "/v1/discover?min_digital_footprint=0&max_records=100"+query, keyHdr(f.key), &got); res.StatusCode != 200 {
		t.Fatalf("discover: %d", res.StatusCode)
	}
	var out []string
	for _, p := range got {
		out = append(out, p["domain"].(string))
	}
	slices.Sort(out)
	return out
}

func TestCRMRoutes(t *testing.T) {
	f := newCRMFixture(t)
	hs := f.fakes[crm.HubSpot]
	hs.SetCompanies([]string{"https://www.acme.com/about", "CloudGuard.io", "not a site", "unindexed-customer.com"})
	for _, tc := range []struct {
		method, path string
		want         int
		detail       string
	}{
		{"GET", "/v1/crm/zoho/authorize", 404, "zoho"},
		{"GET", "/v1/crm/pipedrive/authorize", 503, "not configured"},
		{"POST", "/v1/crm/zoho/suppress", 404, "zoho"},
		{"POST", "/v1/crm/hubspot/suppress", 404, "no hubspot connection"},
		{"POST", "/v1/crm/hubspot/suppress?kind=people", 422, "kind"},
		{"GET", "/v1/crm/hubspot/callback?code=x&state=forged", 400, "state"},
		{"GET", "/v1/crm/hubspot/callback?error=access_denied&state=x", 400, "access_denied"},
		{"GET", "/v1/crm/zoho/callback?code=x&state=y", 404, "zoho"},
		{"GET", "/v1/crm/connections?probe=maybe", 422, "probe"},
	} {
		t.Run(tc.method+" "+tc.path, func(t *testing.T) {
			var body map[string]any
			res := f.call(t, tc.method, tc.path, keyHdr(f.key), &body)
			if res.StatusCode != tc.want || !strings.Contains(strings.ToLower(body["detail"].(string)+" "+jsonString(body["errors"])), tc.detail) {
				t.Fatalf("%d %v, want %d naming %q", res.StatusCode, body, tc.want, tc.detail)
			}
		})
	}
	var conns []map[string]any
	if res := f.call(t, "GET", "/v1/crm/connections", keyHdr(f.key), &conns); res.StatusCode != 200 || len(conns) != 0 {
		t.Fatalf("connections before connecting: %d %v", res.StatusCode, conns)
	}
	if res := f.call(t, "GET", "/v1/crm/connections", nil, nil); res.StatusCode != 401 {
		t.Fatalf("connections without a key: %d", res.StatusCode)
	}

	f.connect(t, f.key, crm.HubSpot)
	f.call(t, "GET", "/v1/crm/connections?probe=true", keyHdr(f.key), &conns)
	if len(conns) != 1 || conns[0]["provider"] != "hubspot" || conns[0]["status"] != "active" || conns[0]["connected_at"] == nil || conns[0]["companies_query_id"] != nil {
		t.Fatalf("connections = %v", conns)
	}

	before := discoverDomains(t, f, "")
	if !slices.Contains(before, "acme.com") || !slices.Contains(before, "cloudguard.io") {
		t.Fatalf("fixture lacks the CRM's companies: %v", before)
	}
	res := f.suppress(t, f.key, crm.HubSpot, crm.KindCompanies)
	if res.Domains != 3 || res.Skipped != 1 || res.QueryID == "" {
		t.Fatalf("snapshot result %+v", res)
	}
	after := discoverDomains(t, f, "&exclusion_query_id="+res.QueryID)
	want := slices.DeleteFunc(slices.Clone(before), func(d string) bool { return d == "acme.com" || d == "cloudguard.io" })
	if !slices.Equal(after, want) {
		t.Fatalf("with the CRM list discovery returns %v, want %v", after, want)
	}
	var savedList struct {
		Results []SavedQueryBody `json:"results"`
	}
	f.call(t, "GET", "/v1/queries/saved?action=exclusion", keyHdr(f.key), &savedList)
	if len(savedList.Results) != 1 || savedList.Results[0].QueryID != res.QueryID || !slices.Contains(savedList.Results[0].Tags, "crm") {
		t.Fatalf("saved queries = %+v", savedList.Results)
	}
	f.call(t, "GET", "/v1/crm/connections", keyHdr(f.key), &conns)
	if conns[0]["companies_query_id"] != res.QueryID {
		t.Fatalf("connection list = %v", conns[0])
	}

	// Another organization sees nothing of it.
	other := f.keyFor(t, "beta", store.PlanStarter)
	f.call(t, "GET", "/v1/crm/connections?probe=true", keyHdr(other), &conns)
	if len(conns) != 0 {
		t.Fatalf("another organization lists %v", conns)
	}
	var body map[string]any
	if r := f.call(t, "POST", "/v1/crm/hubspot/suppress", keyHdr(other), &body); r.StatusCode != 404 {
		t.Fatalf("another organization's suppress: %d %v", r.StatusCode, body)
	}
	if r := f.call(t, "GET", "/v1/discover?min_digital_footprint=0&exclusion_query_id="+res.QueryID, keyHdr(other), &body); r.StatusCode != 404 {
		t.Fatalf("another organization uses the list: %d", r.StatusCode)
	}
	if r := f.call(t, "GET", "/v1/crm/suppress/status/"+res.QueryID, keyHdr(other), &body); r.StatusCode != 404 {
		t.Fatalf("status of an unknown task: %d", r.StatusCode)
	}

	// Revoked in the CRM: the probe says so, and suppression is refused.
	hs.Revoke()
	f.call(t, "GET", "/v1/crm/connections?probe=true", keyHdr(f.key), &conns)
	if conns[0]["status"] != "needs_reauth" {
		t.Fatalf("after revocation: %v", conns)
	}
	if r := f.call(t, "POST", "/v1/crm/hubspot/suppress", keyHdr(f.key), &body); r.StatusCode != 409 || !strings.Contains(body["detail"].(string), "reconnect") {
		t.Fatalf("suppress with revoked tokens: %d %v", r.StatusCode, body)
	}
	// The list of the last whole snapshot stays in force.
	if got := discoverDomains(t, f, "&exclusion_query_id="+res.QueryID); !slices.Equal(got, want) {
		t.Fatalf("list changed after revocation: %v", got)
	}

	// Salesforce contacts: emails resolved against the contact index.
	f.connect(t, f.key, crm.Salesforce)
	f.fakes[crm.Salesforce].SetContacts([]string{"ana@acme.com", "stranger@nowhere.test"})
	cres := f.suppress(t, f.key, crm.Salesforce, crm.KindContacts)
	if cres.PersonaIDs+cres.Skipped != 2 || cres.QueryID == "" {
		t.Fatalf("contacts snapshot %+v", cres)
	}

	// Tokens never appear in responses or logs.
	tokens := append(hs.Tokens(), f.fakes[crm.Salesforce].Tokens()...)
	if len(tokens) == 0 {
		t.Fatal("no live tokens to look for")
	}
	for _, tok := range tokens {
		if strings.Contains(f.bodies.String(), tok) || strings.Contains(f.log.String(), tok) {
			t.Fatal("a CRM token appears in a response or the log")
		}
	}
}

func jsonString(v any) string {
	b, _ := json.Marshal(v)
	return strings.ToLower(string(b))
}

func TestCRMDeleteNeedsWebSession(t *testing.T) {
	f := newCRMFixture(t)
	f.connect(t, f.key, crm.HubSpot)
	ctx := context.Background()
	admin, _ := f.st.UserByEmail(ctx, "ops@acme.test")
	member, err := f.st.CreateUser(ctx, f.org.ID, "member@acme.test", store.RoleMember)
	if err != nil {
		t.Fatal(err)
	}
	session := func(u store.User) (cookie, csrf string) {
		id, csrf := "cookie-"+u.ID, "csrf-"+u.ID
		if err := f.st.CreateWebSession(ctx, store.WebSession{IDHash: store.HashSecret(id), UserID: u.ID, CSRF: csrf,
			CreatedAt: time.Now(), ExpiresAt: time.Now().Add(time.Hour)}); err != nil {
			t.Fatal(err)
		}
		return "prospect_session=" + id, csrf
	}
	adminCookie, adminCSRF := session(admin)
	memberCookie, memberCSRF := session(member)
	for _, tc := range []struct {
		name   string
		path   string
		hdr    map[string]string
		want   int
		detail string
	}{
		{"api key", "/v1/crm/hubspot/connection", keyHdr(f.key), 403, "api key"},
		{"bearer", "/v1/crm/hubspot/connection", map[string]string{"Authorization": "Bearer " + f.key}, 403, "api key"},
		{"no session", "/v1/crm/hubspot/connection", nil, 401, "web app"},
		{"forged cookie", "/v1/crm/hubspot/connection", map[string]string{"Cookie": "prospect_session=nope", "X-CSRF-Token": adminCSRF}, 401, "web app"},
		{"no csrf", "/v1/crm/hubspot/connection", map[string]string{"Cookie": adminCookie}, 403, "csrf"},
		{"other session's csrf", "/v1/crm/hubspot/connection", map[string]string{"Cookie": adminCookie, "X-CSRF-Token": memberCSRF}, 403, "csrf"},
		{"member", "/v1/crm/hubspot/connection", map[string]string{"Cookie": memberCookie, "X-CSRF-Token": memberCSRF}, 403, "admin"},
		{"unknown provider", "/v1/crm/zoho/connection", map[string]string{"Cookie": adminCookie, "X-CSRF-Token": adminCSRF}, 404, "zoho"},
		{"admin", "/v1/crm/hubspot/connection", map[string]string{"Cookie": adminCookie, "X-CSRF-Token": adminCSRF}, 200, ""},
		{"again", "/v1/crm/hubspot/connection", map[string]string{"Cookie": adminCookie, "X-CSRF-Token": adminCSRF}, 404, "no hubspot connection"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var body map[string]any
			res := f.call(t, "DELETE", tc.path, tc.hdr, &body)
			text := strings.ToLower(jsonString(body))
			if res.StatusCode != tc.want || !strings.Contains(text, tc.detail) {
				t.Fatalf("%d %v, want %d naming %q", res.StatusCode, body, tc.want, tc.detail)
			}
		})
	}
	var conns []map[string]any
	if f.call(t, "GET", "/v1/crm/connections", keyHdr(f.key), &conns); len(conns) != 0 {
		t.Fatalf("connection still listed: %v", conns)
	}
}

func TestCRMRateLimits(t *testing.T) {
	f := newCRMFixture(t)
	for _, tc := range []struct {
		method, path string
		limit        int
	}{
		{"GET", "/v1/crm/connections", CRMConnectionsPerMinute},
		{"GET", "/v1/crm/hubspot/authorize", CRMAuthorizePerMinute},
		{"POST", "/v1/crm/hubspot/suppress", CRMSuppressPerMinute},
	} {
		t.Run(tc.path, func(t *testing.T) {
			key := f.keyFor(t, "org-"+strings.ReplaceAll(tc.path, "/", "-"), store.PlanStarter)
			for i := 0; i < tc.limit; i++ {
				if res := f.call(t, tc.method, tc.path, keyHdr(key), nil); res.StatusCode == 429 {
					t.Fatalf("request %d refused under the limit of %d", i+1, tc.limit)
				}
			}
			var body map[string]any
			res := f.call(t, tc.method, tc.path, keyHdr(key), &body)
			if res.StatusCode != 429 || res.Header.Get("Retry-After") == "" || !strings.Contains(body["detail"].(string), "a minute") {
				t.Fatalf("request over the limit: %d %v", res.StatusCode, body)
			}
		})
	}
	// The Team plan's multiplier raises the limit.
	team := f.keyFor(t, "team-org", store.PlanTeam)
	for i := 0; i < CRMSuppressPerMinute*2; i++ {
		if res := f.call(t, "POST", "/v1/crm/hubspot/suppress", keyHdr(team), nil); res.StatusCode == 429 {
			t.Fatalf("team request %d refused", i+1)
		}
	}
}

// TestCRMOpenAPIDocumentValid validates the document with the CRM routes
// served (the shared validity test's fixture has no CRM service).
func TestCRMOpenAPIDocumentValid(t *testing.T) {
	f := newCRMFixture(t)
	for name, b := range map[string][]byte{
		"3.1 /v1/openapi.json": servedDocument(t, f.fixture, "/v1/openapi.json"),
		"3.0 client document":  clientDocument(t, f.fixture),
	} {
		t.Run(name, func(t *testing.T) {
			doc, err := libopenapi.NewDocument(b)
			if err != nil {
				t.Fatal(err)
			}
			if ok, errs := schema_validation.ValidateOpenAPIDocument(doc); !ok {
				for _, e := range errs {
					t.Errorf("%s", e.Error())
				}
			}
			if _, err := doc.BuildV3Model(); err != nil {
				t.Errorf("build model: %v", err)
			}
			for _, p := range []string{"/v1/crm/connections", "/v1/crm/{provider}/authorize", "/v1/crm/{provider}/callback",
				"/v1/crm/{provider}/suppress", "/v1/crm/{provider}/connection", "/v1/crm/suppress/status/{task_id}"} {
				if !strings.Contains(string(b), `"`+p+`"`) {
					t.Errorf("%s is not in the document", p)
				}
			}
		})
	}
}
