package api

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/openprospect/prospectd/email"
	"github.com/openprospect/prospectd/email/mailworld"
	"github.com/openprospect/prospectd/jobs"
	"github.com/openprospect/prospectd/store"
)

func emailFixture(t *testing.T) fixture {
	t.Helper()
	w, err := mailworld.New()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Close)
	if err := w.AddHost("mx.acme-mail.example.com", mailworld.Behaviour{OfferTLS: true}); err != nil {
		t.Fatal(err)
	}
	w.AddDomain(mailworld.Domain{Name: "acme-mail.example.com", MX: []string{"mx.acme-mail.example.com"}, Mailboxes: []string{"jane.doe", "bob"}})
	w.AddDomain(mailworld.Domain{Name: "catchall.example.com", MX: []string{"mx.acme-mail.example.com"}, CatchAll: true})
	f := newFixtureWith(t, func(d *Deps) {
		cfg := email.Config{DNSServer: w.DNSAddr(), SMTPPort: w.SMTPPort(), SenderDomain: "sender.example.com", AllowPrivate: true,
			RatePerMinute: -1, MaxActive: 5, CommandTimeout: 2 * time.Second}
		var err error
		d.EmailTasks, d.Email, err = jobs.NewEmail(jobs.Config{Engine: d.Engine, Log: d.Log}, d.Store.(jobs.EmailState), cfg)
		if err != nil {
			t.Fatal(err)
		}
	})
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	if err := f.srv.StartJobs(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(f.srv.StopJobs)
	return f
}

func (f fixture) waitEmailJob(t *testing.T, id string) email.JobView {
	t.Helper()
	var v email.JobView
	for deadline := time.Now().Add(15 * time.Second); ; {
		res := f.getJSON(t, "/v1/email/jobs/"+id, &v)
		if res.StatusCode != http.StatusOK {
			t.Fatalf("GET job: %d", res.StatusCode)
		}
		if v.Status == store.EmailCompleted || v.Status == store.EmailFailed {
			return v
		}
		if time.Now().After(deadline) {
			t.Fatalf("job %s still %s", id, v.Status)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestEmailFindEndpoint(t *testing.T) {
	f := emailFixture(t)
	var acc EmailJobAccepted
	res := f.postJSON(t, "/v1/email/find", `{"first_name": "Jane", "last_name": "Doe", "domain": "acme-mail.example.com"}`, &acc)
	if res.StatusCode != http.StatusAccepted || acc.JobID == "" || acc.Status != store.EmailQueued || acc.Kind != "find" {
		t.Fatalf("submit: %d %+v", res.StatusCode, acc)
	}
	v := f.waitEmailJob(t, acc.JobID)
	r := v.Result
	if v.Status != store.EmailCompleted || v.Kind != "find" || r == nil || r.Status != email.StatusFound || r.Result == nil ||
		r.Result.Email != "jane.doe@acme-mail.example.com" || r.Result.Pattern != "{first}.{last}" || r.Result.SMTPCode != 250 || !r.Result.Valid ||
		r.FirstName != "Jane" || r.Domain != "acme-mail.example.com" || r.Attempts != 1 || r.Evidence == nil || !r.Evidence.TLS {
		t.Fatalf("job %+v result %+v", v, r)
	}
	// A found address is billed once.
	var usage map[string]any
	f.getJSON(t, "/v1/usage", &usage)
	if !strings.Contains(fmt.Sprint(usage), "email:1") {
		t.Fatalf("usage after a found email: %v", usage)
	}

	var ver EmailJobAccepted
	f.postJSON(t, "/v1/email/verify", `{"email": "Bob@acme-mail.example.com"}`, &ver)
	if v := f.waitEmailJob(t, ver.JobID); v.Kind != "verify" || v.Result.Status != email.StatusFound || v.Result.Result.Email != "bob@acme-mail.example.com" {
		t.Fatalf("verify: %+v %+v", v, v.Result)
	}

	// Delivery feedback moves the domain's pattern.
	var fb email.FeedbackResult
	if res := f.postJSON(t, "/v1/email/feedback", `{"email": "jane.doe@acme-mail.example.com", "outcome": "delivered"}`, &fb); res.StatusCode != http.StatusOK ||
		fb.Pattern != "{first}.{last}" || fb.DomainPattern != "{first}.{last}" || fb.CachedResults != 1 {
		t.Fatalf("feedback: %d %+v", res.StatusCode, fb)
	}
	var prob map[string]any
	if res := f.postJSON(t, "/v1/email/feedback", `{"email": "jane.doe@acme-mail.example.com", "outcome": "lost"}`, &prob); res.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("bad outcome: %d %v", res.StatusCode, prob)
	}

	// Another organization cannot see the job.
	other := f.keyFor(t, "other", store.PlanTeam)
	if res := f.getWith(t, other, "/v1/email/jobs/"+acc.JobID, nil); res.StatusCode != http.StatusNotFound {
		t.Fatalf("another org's job: %d", res.StatusCode)
	}
	// Plan none is refused.
	none := f.keyFor(t, "free", store.PlanNone)
	req := fixture{srv: f.srv, key: none, st: f.st}
	if res := req.postJSON(t, "/v1/email/find", `{"first_name": "Jane", "last_name": "Doe", "domain": "acme-mail.example.com"}`, nil); res.StatusCode != http.StatusForbidden {
		t.Fatalf("plan none: %d", res.StatusCode)
	}
}

func TestEmailFindValidation(t *testing.T) {
	f := emailFixture(t)
	for _, tc := range []struct{ body, want string }{
		{`{"first_name": "Jane", "last_name": "Doe"}`, "domain"},
		{`{"first_name": "  ", "last_name": "Doe", "domain": "acme-mail.example.com"}`, "body.first_name"},
		{`{"first_name": "Jane", "last_name": "Doe", "domain": "not a domain"}`, "body.domain"},
		{`{"first_name": "Jane", "last_name": "Doe", "domain": "acme-mail.example.com", "known_pattern": "{middle}"}`, "body.known_pattern"},
	} {
		var prob map[string]any
		res := f.postJSON(t, "/v1/email/find", tc.body, &prob)
		if res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(fmt.Sprint(prob), tc.want) {
			t.Errorf("%s: %d %v, want 422 naming %s", tc.body, res.StatusCode, prob, tc.want)
		}
	}
	var prob map[string]any
	if res := f.postJSON(t, "/v1/email/verify", `{"email": "not-an-address"}`, &prob); res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(fmt.Sprint(prob), "body.email") {
		t.Errorf("verify of a non-address: %d %v", res.StatusCode, prob)
	}
}

func TestEmailBatchEndpoint(t *testing.T) {
	f := emailFixture(t)
	items := `[{"first_name": "Jane", "last_name": "Doe", "domain": "acme-mail.example.com"},
		{"first_name": "Nobody", "last_name": "Here", "domain": "acme-mail.example.com"},
		{"kind": "verify", "email": "x@catchall.example.com"}]`
	for _, tc := range []struct{ body, want string }{
		{`{"requests": ` + items + `, "refs": ["a", "b", "c"]}`, "requires source_query_id"},
		{`{"requests": ` + items + `, "refs": ["a"], "source_query_id": "q"}`, "must align"},
		{`{"requests": ` + items + `, "refs": ["a", 1.5, "c"], "source_query_id": "q"}`, "body.refs[1]"},
		{`{"requests": []}`, "requests"},
		{`{"requests": null}`, "body.requests"},
		{`{"requests": ` + items + `, "round": "again"}`, "round"},
		{`{"requests": [{"first_name": "Jane", "domain": "acme-mail.example.com"}]}`, "body.requests[0].last_name"},
	} {
		var prob map[string]any
		res := f.postJSON(t, "/v1/email/find/batch", tc.body, &prob)
		if res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(fmt.Sprint(prob), tc.want) {
			t.Errorf("%s: %d %v, want 422 naming %s", tc.body, res.StatusCode, prob, tc.want)
		}
	}
	var many []string
	for i := 0; i < 501; i++ {
		many = append(many, `{"first_name": "A", "last_name": "B", "domain": "acme-mail.example.com"}`)
	}
	if res := f.postJSON(t, "/v1/email/find/batch", `{"requests": [`+strings.Join(many, ",")+`]}`, nil); res.StatusCode != http.StatusUnprocessableEntity {
		t.Errorf("501 requests: %d", res.StatusCode)
	}

	// The account cap (5 here) refuses a whole request with 429.
	req := f.postJSON(t, "/v1/email/find/batch", `{"requests": [`+strings.Join(many[:6], ",")+`]}`, nil)
	if req.StatusCode != http.StatusTooManyRequests || req.Header.Get("Retry-After") != "60" {
		t.Fatalf("over the cap: %d Retry-After %q", req.StatusCode, req.Header.Get("Retry-After"))
	}

	var acc EmailBatchAccepted
	res := f.postJSON(t, "/v1/email/find/batch", `{"requests": `+items+`, "refs": ["r1", 2, "r3"], "source_query_id": "q-1"}`, &acc)
	if res.StatusCode != http.StatusAccepted || acc.BatchID == "" || acc.Total != 3 || len(acc.JobIDs) != 3 {
		t.Fatalf("batch submit: %d %+v", res.StatusCode, acc)
	}
	var v email.BatchView
	for deadline := time.Now().Add(15 * time.Second); ; {
		f.getJSON(t, "/v1/email/batch/"+acc.BatchID+"/results", &v)
		if v.Completed+v.Failed == v.Total || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if v.Total != 3 || v.Completed != 3 || len(v.Results) != 3 {
		t.Fatalf("batch results %+v", v)
	}
	want := []struct{ status, ref, kind string }{{email.StatusFound, "r1", "find"}, {email.StatusNotFound, "2", "find"}, {email.StatusCatchAll, "r3", "verify"}}
	for i, w := range want {
		j := v.Results[i]
		if j.JobID != acc.JobIDs[i] || j.Result.Status != w.status || j.Ref != w.ref || j.Kind != w.kind {
			t.Errorf("job %d: %+v %+v, want %+v", i, j, j.Result, w)
		}
	}
	if res := f.getWith(t, f.key, "/v1/email/batch/nope/results", nil); res.StatusCode != http.StatusNotFound {
		t.Fatalf("unknown batch: %d", res.StatusCode)
	}
}
