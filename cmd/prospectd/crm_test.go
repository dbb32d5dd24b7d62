package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"testing"
	"time"

	"github.com/openprospect/prospectd/crm/crmfake"
)

// crmCall sends a request with the key and decodes the JSON answer.
func crmCall(t *testing.T, addr, key, method, path string, out any) int {
	t.Helper()
	req, _ := http.NewRequest(method, "http://"+addr+path, nil)
	if key != "" {
		req.Header.Set("X-API-Key", key)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if out != nil {
		json.NewDecoder(res.Body).Decode(out)
	}
	return res.StatusCode
}

func countWith(t *testing.T, addr, key, exclusion string) int {
	t.Helper()
	var c struct{ Count int }
	path := "/v1/count?min_digital_footprint=0"
	if exclusion != "" {
		path += "&exclusion_query_id=" + exclusion
	}
	if st := crmCall(t, addr, key, "GET", path, &c); st != 200 {
		t.Fatalf("count: %d", st)
	}
	return c.Count
}

func domainsWith(t *testing.T, addr, key, exclusion string) []string {
	t.Helper()
	var got []struct{ Domain string }
	path := "/v1/discover?min_digital_footprint=0&max_records=1000"
	if exclusion != "" {
		path += "&exclusion_query_id=" + exclusion
	}
	if st := crmCall(t, addr, key, "GET", path, &got); st != 200 {
		t.Fatalf("discover: %d", st)
	}
	var out []string
	for _, p := range got {
		out = append(out, p.Domain)
	}
	return out
}

type crmConn struct {
	Provider         string  `json:"provider"`
	Status           string  `json:"status"`
	CompaniesQueryID *string `json:"companies_query_id"`
}

func companiesList(t *testing.T, addr, key string) string {
	t.Helper()
	var cs []crmConn
	if st := crmCall(t, addr, key, "GET", "/v1/crm/connections", &cs); st != 200 || len(cs) != 1 {
		t.Fatalf("connections: %d %+v", st, cs)
	}
	if cs[0].CompaniesQueryID == nil {
		return ""
	}
	return *cs[0].CompaniesQueryID
}

func waitSnapshot(t *testing.T, addr, key, id string, within time.Duration) map[string]any {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		var st map[string]any
		crmCall(t, addr, key, "GET", "/v1/crm/suppress/status/"+id, &st)
		switch st["status"] {
		case "completed":
			return st["results"].(map[string]any)
		case "failed", "cancelled":
			t.Fatalf("snapshot %v: %v", st["status"], st["error"])
		}
		if time.Now().After(deadline) {
			t.Fatalf("snapshot not done: %v", st)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestKilledServerResumesCRMSnapshot connects HubSpot (a loopback fake)
// through the binary's OAuth routes, takes a first snapshot, starts a
// second one over a larger CRM, kills the server with SIGKILL mid-way and
// restarts it: until the second snapshot is whole the first list stays
// in force (and excludes its domains from discovery); then the resumed
// task finishes without reading the CRM from the start, its list replaces
// the first and excludes exactly its domains.
func TestKilledServerResumesCRMSnapshot(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test builds and runs the binary")
	}
	fake := crmfake.New(crmfake.HubSpot)
	defer fake.Close()
	t.Setenv("PROSPECT_CRM_HUBSPOT_CLIENT_SECRET", crmfake.ClientSecret)
	bin := buildBinary(t)
	dir := t.TempDir()
	addr := freeAddr(t)
	flags := []string{"--task-lease", "2s", "--public-url", "http://" + addr,
		"--crm-hubspot-client-id", crmfake.ClientID, "--crm-hubspot-auth-url", fake.AuthURL(),
		"--crm-hubspot-token-url", fake.TokenURL(), "--crm-hubspot-api-url", fake.APIBase()}
	key, _, _, proc := startServeCmd(t, bin, dir, addr, flags...)

	// Connect: authorize, the fake's consent redirect, the callback.
	var auth struct {
		AuthorizeURL string `json:"authorize_url"`
	}
	if st := crmCall(t, addr, key, "GET", "/v1/crm/hubspot/authorize", &auth); st != 200 {
		t.Fatalf("authorize: %d", st)
	}
	hc := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := hc.Get(auth.AuthorizeURL)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	loc, _ := url.Parse(res.Header.Get("Location"))
	if st := crmCall(t, addr, "", "GET", loc.RequestURI(), nil); st != 200 {
		t.Fatalf("callback: %d", st)
	}

	all := domainsWith(t, addr, key, "")
	if len(all) < 200 {
		t.Fatalf("demo corpus has %d companies", len(all))
	}
	total := countWith(t, addr, key, "")
	first, second := all[:40], all[40:100]
	filler := func(n int) []string {
		var out []string
		for i := range n {
			out = append(out, fmt.Sprintf("https://www.crm-only-%05d.com/", i))
		}
		return out
	}
	fake.SetCompanies(append(slices.Clone(first), filler(60)...))
	var acc map[string]any
	if st := crmCall(t, addr, key, "POST", "/v1/crm/hubspot/suppress", &acc); st != 202 {
		t.Fatalf("suppress: %d %v", st, acc)
	}
	r1 := waitSnapshot(t, addr, key, acc["task_id"].(string), 30*time.Second)
	list1 := r1["query_id"].(string)
	if got := countWith(t, addr, key, list1); got != total-len(first) {
		t.Fatalf("first list leaves %d of %d companies, want %d", got, total, total-len(first))
	}

	// The second snapshot: 3,060 companies, 31 pages, slowly.
	fake.SetCompanies(append(slices.Clone(second), filler(3000)...))
	fake.PageDelay = 60 * time.Millisecond
	if st := crmCall(t, addr, key, "POST", "/v1/crm/hubspot/suppress", &acc); st != 202 {
		t.Fatalf("suppress: %d %v", st, acc)
	}
	id := acc["task_id"].(string)
	base := fake.Stats().Listings
	deadline := time.Now().Add(30 * time.Second)
	for fake.Stats().Listings-base < 8 {
		if time.Now().After(deadline) {
			t.Fatal("second snapshot never got going")
		}
		time.Sleep(10 * time.Millisecond)
	}
	proc.Kill()
	proc.Wait()
	readBefore := fake.Stats().Listings - base
	fake.PageDelay = 100 * time.Millisecond // the rest takes a few seconds

	_, _, stop := startServe(t, bin, dir, addr, flags...)
	defer stop()
	// Until the new snapshot is whole the first list is in force.
	if got := companiesList(t, addr, key); got != list1 {
		t.Fatalf("connection list %q before the new snapshot is whole, want %q", got, list1)
	}
	if got := countWith(t, addr, key, list1); got != total-len(first) {
		t.Fatalf("first list leaves %d companies after the restart, want %d", got, total-len(first))
	}
	r2 := waitSnapshot(t, addr, key, id, 90*time.Second)
	list2 := r2["query_id"].(string)
	if list2 == list1 || companiesList(t, addr, key) != list2 {
		t.Fatalf("lists %q then %q", list1, list2)
	}
	if n := r2["domain_count"].(float64); int(n) != len(second)+3000 {
		t.Fatalf("second list has %v domains, want %d", n, len(second)+3000)
	}
	var gone map[string]any
	if st := crmCall(t, addr, key, "GET", "/v1/count?exclusion_query_id="+list1, &gone); st != 404 {
		t.Fatalf("replaced list still usable: %d", st)
	}
	left := domainsWith(t, addr, key, list2)
	for _, d := range second {
		if slices.Contains(left, d) {
			t.Fatalf("%s is in the CRM but still discovered", d)
		}
	}
	if got := countWith(t, addr, key, list2); got != total-len(second) {
		t.Fatalf("second list leaves %d companies, want %d", got, total-len(second))
	}
	// Resumed, not restarted: the pages read before the kill are not read
	// again (one in flight at the kill may be).
	pages := (len(second) + 3000 + 99) / 100
	if read := fake.Stats().Listings - base; read > pages+1 {
		t.Fatalf("read %d pages for a %d-page CRM (%d before the kill): the snapshot started over", read, pages, readBefore)
	}
	t.Logf("%d pages read before the kill, %d after", readBefore, fake.Stats().Listings-base-readBefore)
}
