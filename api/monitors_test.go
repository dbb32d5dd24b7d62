package api

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/openprospect/prospectd/account"
	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/index/enginetest"
	"github.com/openprospect/prospectd/saved"
	"github.com/openprospect/prospectd/store"
)

func TestMonitorEndpoints(t *testing.T) {
	var mu sync.Mutex
	var logs syncBuffer
	clock := time.Date(2026, 11, 25, 9, 30, 0, 0, time.UTC)
	f := newFixtureWith(t, func(d *Deps) {
		d.Log = zerolog.New(&logs)
		d.Now = func() time.Time { mu.Lock(); defer mu.Unlock(); return clock }
		d.WebhookPrivateHosts = true
		d.Plans = account.DefaultPlans()
		p := d.Plans[store.PlanStarter]
		p.RateMultiplier = 100
		d.Plans[store.PlanStarter] = p
	})
	var secret string
	var got []http.Header
	var bodies [][]byte
	rcv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		defer mu.Unlock()
		if err := saved.Verify(secret, r.Header, b, time.Now(), 5*time.Minute); err != nil {
			t.Errorf("webhook signature: %v", err)
		}
		got, bodies = append(got, r.Header.Clone()), append(bodies, b)
		w.WriteHeader(http.StatusOK)
	}))
	defer rcv.Close()

	const params = `{"min_digital_footprint":0,"exclude_leadgen":false,"country":["US","DE"]}`
	res, body := f.call(t, f.key, http.MethodPost, "/v1/queries/save-results", `{"query_name":"watch","action":"discover","query_params":`+params+`,"data":[{"domain":"acme.com"}]}`)
	want(t, res, body, 200, "")
	id := body["query_id"].(string)
	path := "/v1/queries/" + id + "/monitor"

	for _, tc := range []struct{ body, detail string }{
		{`{"schedule":"* * * * *","webhook_url":"` + rcv.URL + `"}`, "schedule"},
		{`{"schedule":"@hourly","webhook_url":"mailto:x@y.z"}`, "webhook_url"},
	} {
		res, body := f.call(t, f.key, http.MethodPut, path, tc.body)
		want(t, res, body, 400, tc.detail)
	}
	res, body = f.call(t, f.key, http.MethodPost, "/v1/queries/save-results", `{"query_name":"bad","action":"discover","query_params":{"colour":"red"},"data":[{"domain":"acme.com"}]}`)
	bad := body["query_id"].(string)
	res, body = f.call(t, f.key, http.MethodPut, "/v1/queries/"+bad+"/monitor", `{"schedule":"@hourly","webhook_url":"`+rcv.URL+`"}`)
	want(t, res, body, 400, "colour")

	res, body = f.call(t, f.key, http.MethodPut, path, `{"schedule":"@hourly","webhook_url":"`+rcv.URL+`"}`)
	want(t, res, body, 200, "")
	mu.Lock()
	secret, _ = body["secret"].(string)
	mu.Unlock()
	if body["next_run_at"] != "2026-11-25T10:00:00Z" || body["last_run_at"] != nil || len(secret) < 20 {
		t.Fatalf("put monitor: %v", body)
	}
	res, body = f.call(t, f.key, http.MethodGet, path, "")
	want(t, res, body, 200, "")
	if _, shown := body["secret"]; shown {
		t.Fatalf("GET shows the secret: %v", body)
	}

	ms := f.srv.queries.monitors
	tick := func(at time.Time, want int) {
		t.Helper()
		mu.Lock()
		clock = at
		mu.Unlock()
		n, err := ms.Tick(context.Background())
		if err != nil || n != want {
			t.Fatalf("tick: %d %v, want %d", n, err, want)
		}
		ms.Wait()
	}
	tick(time.Date(2026, 11, 25, 10, 0, 1, 0, time.UTC), 1) // baseline
	// A new US company appears in the index.
	doc := enginetest.Fixtures()[0]
	doc.Company.Domain, doc.Company.Name = "newco.com", "NewCo"
	if _, err := f.srv.deps.Engine.(index.Engine).UpsertCompanies(context.Background(), []index.CompanyDoc{doc}); err != nil {
		t.Fatal(err)
	}
	tick(time.Date(2026, 11, 25, 11, 0, 1, 0, time.UTC), 1)

	mu.Lock()
	if len(got) != 1 {
		mu.Unlock()
		t.Fatalf("%d webhooks, want 1", len(got))
	}
	var ev saved.ChangeEvent
	json.Unmarshal(bodies[0], &ev)
	mu.Unlock()
	if fmt.Sprint(ev.Data.Added) != "[newco.com]" || len(ev.Data.Dropped) != 0 || ev.Data.QueryID != id {
		t.Fatalf("event %+v", ev)
	}
	res, body = f.call(t, f.key, http.MethodGet, path+"/changes", "")
	want(t, res, body, 200, "")
	results := body["results"].([]any)
	if len(results) != 1 {
		t.Fatalf("changes %v", body)
	}
	ch := results[0].(map[string]any)
	if fmt.Sprint(ch["added"]) != "[newco.com]" || len(ch["deliveries"].([]any)) != 1 || ch["deliveries"].([]any)[0].(map[string]any)["status"] != 200.0 {
		t.Fatalf("change %v", ch)
	}
	res, body = f.call(t, f.key, http.MethodGet, path, "")
	if body["last_run_at"] != "2026-11-25T11:00:01Z" || body["domain_count"] == nil {
		t.Fatalf("monitor after runs: %v", body)
	}
	// The secret was shown once: the stored row holds it sealed, and
	// neither the other answers nor the logs carry it.
	key := strings.TrimPrefix(secret, "whsec_")
	p, err := f.st.Authenticate(context.Background(), f.key)
	if err != nil {
		t.Fatal(err)
	}
	stored, err := f.st.(saved.MonitorStore).MonitorOf(context.Background(), p.Org.ID, id)
	if err != nil || !strings.HasPrefix(stored.Secret, "v1:") || strings.Contains(stored.Secret, key) {
		t.Fatalf("stored secret %q, %v", stored.Secret, err)
	}
	for _, route := range []string{path, path + "/changes"} {
		if _, body := f.call(t, f.key, http.MethodGet, route, ""); strings.Contains(fmt.Sprint(body), key) || strings.Contains(fmt.Sprint(body), stored.Secret) {
			t.Fatalf("GET %s shows the secret: %v", route, body)
		}
	}
	if strings.Contains(logs.String(), key) || !strings.Contains(logs.String(), "webhook delivered") {
		t.Fatalf("the logs carry the secret, or logged no delivery:\n%s", logs.String())
	}

	// Another organization: 404 on every monitor route.
	other := f.keyFor(t, "other", store.PlanStarter)
	for _, c := range [][3]string{
		{http.MethodPut, path, `{"schedule":"@hourly","webhook_url":"` + rcv.URL + `"}`},
		{http.MethodGet, path, ""}, {http.MethodGet, path + "/changes", ""}, {http.MethodDelete, path, ""},
	} {
		res, body := f.call(t, other, c[0], c[1], c[2])
		want(t, res, body, 404, "not found")
	}
	res, body = f.call(t, f.key, http.MethodDelete, path, "")
	want(t, res, body, 200, "")
	res, body = f.call(t, f.key, http.MethodGet, path, "")
	want(t, res, body, 404, "not found")
}
