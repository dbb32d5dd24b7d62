package api

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/openprospect/prospectd/store"
)

func TestContactBulkMatch(t *testing.T) {
	f := contactFixture(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if err := f.srv.StartJobs(ctx); err != nil {
		t.Fatal(err)
	}
	defer f.srv.StopJobs()

	var acc TaskAccepted
	res := f.postJSON(t, "/v1/contacts/bulk-match", `{"queries": [
		{"email": "PRIYA@brightbank.co.uk", "name": "Priya Shah"},
		{"name": "Ana Garcia", "domain": "https://acme.com"},
		{"name": "Jurgen Muller", "company_name": "Wachdienst"},
		{"name": "Nobody Known"}
	], "limit": 3}`, &acc)
	if res.StatusCode != http.StatusAccepted || acc.TaskID == "" {
		t.Fatalf("submit: %d %+v", res.StatusCode, acc)
	}
	var st TaskStatusBody
	for deadline := time.Now().Add(10 * time.Second); ; {
		f.getJSON(t, "/v1/contactmatch/status/"+acc.TaskID, &st)
		if st.Status == store.TaskCompleted || st.Status == store.TaskFailed || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if st.Status != store.TaskCompleted || st.Progress != 100 {
		t.Fatalf("task %+v", st)
	}
	var results []ContactMatchResult
	if err := json.Unmarshal(st.Results, &results); err != nil || len(results) != 4 {
		t.Fatalf("results %s: %v", st.Results, err)
	}
	first := func(i int) map[string]any {
		if len(results[i].Matches) == 0 {
			t.Fatalf("query %d: no match", i)
		}
		return results[i].Matches[0]
	}
	if m := first(0); m["persona_id"] != 20.0 || m["match_score"] != 100.0 {
		t.Errorf("email match %v", m)
	}
	if m := first(1); m["persona_id"] != 1.0 || m["match_score"].(float64) < 90 || m["phone"] != nil {
		t.Errorf("name at domain %v", m)
	}
	if m := first(2); m["persona_id"] != 10.0 || m["match_score"].(float64) < 80 {
		t.Errorf("accent-free name with company %v", m)
	}
	if len(results[3].Matches) != 0 {
		t.Errorf("unknown person matched %v", results[3].Matches)
	}
	// The other status path serves the same task; another organization
	// does not see it.
	if res := f.getJSON(t, "/v1/bulkcontactmatch/status/"+acc.TaskID, nil); res.StatusCode != http.StatusOK {
		t.Errorf("second status path: %d", res.StatusCode)
	}
	other := f.keyFor(t, "other", store.PlanStarter)
	if res := f.getWith(t, other, "/v1/contactmatch/status/"+acc.TaskID, nil); res.StatusCode != http.StatusNotFound {
		t.Errorf("another organization's task: %d", res.StatusCode)
	}
	if res := f.getJSON(t, "/v1/contactmatch/status/nope", nil); res.StatusCode != http.StatusNotFound {
		t.Errorf("unknown task: %d", res.StatusCode)
	}

	// enrich returns full records.
	f.postJSON(t, "/v1/contacts/bulk-match", `{"queries": [{"email": "ana@acme.com"}], "enrich": true}`, &acc)
	for deadline := time.Now().Add(10 * time.Second); ; {
		f.getJSON(t, "/v1/contactmatch/status/"+acc.TaskID, &st)
		if st.Status == store.TaskCompleted || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	json.Unmarshal(st.Results, &results)
	if m := results[0].Matches[0]; m["phone"] == nil || m["match_score"] != 100.0 || m["skills"] == nil {
		t.Errorf("enriched match %v", m)
	}

	for _, tc := range []struct{ body, detail string }{
		{`{"queries": [{"company_name": "Acme"}]}`, "give a name or an email"},
		{`{"queries": [{"email": "not-an-email"}]}`, "not an email address"},
		{`{"queries": []}`, "queries"},
		{`{"queries": [{"name": "A"}], "limit": 21}`, "limit"},
		{`{"queries": [{"name": "A", "person_country": "Atlantis"}]}`, "person_country"},
		{`{"queries": [{"name": "A"}], "colour": 1}`, "colour"},
	} {
		var e map[string]any
		res := f.postJSON(t, "/v1/contacts/bulk-match", tc.body, &e)
		if res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(e["detail"].(string), tc.detail) {
			t.Errorf("%s: %d %v", tc.body, res.StatusCode, e["detail"])
		}
	}
	many := `{"queries": [` + strings.Repeat(`{"name": "A B"},`, 500) + `{"name": "A B"}]}`
	if res := f.postJSON(t, "/v1/contacts/bulk-match", many, nil); res.StatusCode != http.StatusUnprocessableEntity {
		t.Errorf("501 queries: %d", res.StatusCode)
	}
}
