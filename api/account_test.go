package api

import (
	"bytes"
	"encoding/json"
	"io"
	"mime/quotedprintable"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/openprospect/prospectd/account"
	"github.com/openprospect/prospectd/account/mailtest"
	"github.com/openprospect/prospectd/store"
)

func (f fixture) getWith(t *testing.T, key, target string, out any) *http.Response {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, target, nil)
	if key != "" {
		req.Header.Set("X-API-Key", key)
	}
	res, err := f.srv.App().Test(req, -1)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatalf("GET %s: %d %s", target, res.StatusCode, b)
		}
	}
	return res
}

func TestPlanGating(t *testing.T) {
	f := newFixture(t)
	none := f.keyFor(t, "freeloader", store.PlanNone)
	for _, target := range []string{"/v1/bizdata?domain=acme.com", "/v1/discover?country=US", "/v1/count"} {
		var body map[string]any
		res := f.getWith(t, none, target, &body)
		if res.StatusCode != http.StatusForbidden || !strings.Contains(body["detail"].(string), "needs a paid plan") {
			t.Errorf("%s on plan none: %d %v", target, res.StatusCode, body["detail"])
		}
	}
	// Usage is open to every plan.
	var u UsageBody
	if res := f.getWith(t, none, "/v1/usage", &u); res.StatusCode != http.StatusOK || u.Plan != "none" || u.CreditsQuota != 0 {
		t.Errorf("usage on plan none: %d %+v", res.StatusCode, u)
	}
}

func TestCreditsAndUsage(t *testing.T) {
	plans := account.DefaultPlans()
	plans[store.PlanStarter] = account.PlanConfig{PricePer1K: 20, Credits: 3, RateMultiplier: 1}
	f := newFixtureWith(t, func(d *Deps) { d.Plans = plans })
	// Filter-only discovery of 4 active companies with a quota of 3: the
	// response is cut to the 3 the credits cover.
	var got []map[string]any
	res := f.getJSON(t, "/v1/discover?min_digital_footprint=0&exclude_leadgen=false", &got)
	if res.StatusCode != http.StatusOK || len(got) != 3 || res.Header.Get("X-Total-Count") != "3" ||
		res.Header.Get("X-Credits-Billed") != "3" || res.Header.Get("X-Credits-Remaining") != "0" {
		t.Fatalf("cut response: %d, %d results, headers %v", res.StatusCode, len(got), res.Header)
	}
	// The same companies again are free; a new one is refused with 402.
	first := got[0]["domain"].(string)
	res = f.getJSON(t, "/v1/bizdata?domain="+first, nil)
	if res.StatusCode != http.StatusOK || res.Header.Get("X-Credits-Billed") != "0" {
		t.Fatalf("cached bizdata: %d %v", res.StatusCode, res.Header)
	}
	var body map[string]any
	res = f.getJSON(t, "/v1/bizdata?domain=closedco.com", &body)
	if res.StatusCode != http.StatusPaymentRequired || !strings.Contains(body["detail"].(string), "no credits left") {
		t.Fatalf("out of credits: %d %v", res.StatusCode, body)
	}
	var u UsageBody
	f.getJSON(t, "/v1/usage", &u)
	if u.CreditsUsed != 3 || u.CreditsLeft != 0 || u.RecordsBilled["company"] != 3 || u.RecordsFree["company"] != 1 || u.EstimatedCost != 0.06 {
		t.Fatalf("usage %+v", u)
	}
	// Another organization sees only its own usage.
	other := f.keyFor(t, "other", store.PlanStarter)
	var ou UsageBody
	f.getWith(t, other, "/v1/usage", &ou)
	if ou.CreditsUsed != 0 || len(ou.RecordsBilled) != 0 {
		t.Fatalf("other organization's usage %+v", ou)
	}
}

func TestRateLimit(t *testing.T) {
	f := newFixtureWith(t, func(d *Deps) {
		d.Limits = &account.Limits{KeyPerSecond: 0.01, KeyBurst: 2, OrgPerSecond: 100, OrgBurst: 100}
	})
	for i := 0; i < 2; i++ {
		if res := f.getJSON(t, "/v1/usage", nil); res.StatusCode != http.StatusOK {
			t.Fatalf("request %d: %d", i, res.StatusCode)
		}
	}
	var body map[string]any
	res := f.getJSON(t, "/v1/usage", &body)
	if res.StatusCode != http.StatusTooManyRequests || res.Header.Get("Retry-After") == "" {
		t.Fatalf("over the limit: %d %v", res.StatusCode, res.Header)
	}
	// Another key is not affected; unauthenticated endpoints are not limited.
	if res := f.getWith(t, f.keyFor(t, "other", store.PlanStarter), "/v1/usage", nil); res.StatusCode != http.StatusOK {
		t.Errorf("other key: %d", res.StatusCode)
	}
	if res := f.getWith(t, "", "/v1/health", nil); res.StatusCode != http.StatusOK {
		t.Errorf("health: %d", res.StatusCode)
	}
}

func post(t *testing.T, f fixture, target, body string) (*http.Response, map[string]any) {
	t.Helper()
	req := httptest.NewRequest(http.MethodPost, target, bytes.NewBufferString(body))
	req.Header.Set("Content-Type", "application/json")
	res, err := f.srv.App().Test(req, -1)
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	b, _ := io.ReadAll(res.Body)
	json.Unmarshal(b, &out)
	return res, out
}

func TestSignupEndpoints(t *testing.T) {
	smtp := mailtest.Start(t)
	f := newFixtureWith(t, func(d *Deps) {
		d.Mailer = &account.SMTPMailer{URL: smtp.URL, From: "noreply@prospect.test"}
		d.PublicURL = "http://127.0.0.1:8080"
	})
	good := `{"email":"ana@nordwind-logistik.de","first_name":"Ana","last_name":"Berg","agent":"cursor"}`
	res, body := post(t, f, "/v1/public/signup", good)
	if res.StatusCode != http.StatusAccepted || body["status"] != "pending_confirmation" || !strings.Contains(body["next_step"].(string), "confirmation email") {
		t.Fatalf("signup: %d %v", res.StatusCode, body)
	}
	raw, _ := json.Marshal(body)
	if strings.Contains(string(raw), store.KeyPrefix) {
		t.Fatal("signup returned a credential")
	}
	msgs := smtp.Messages()
	if len(msgs) != 1 {
		t.Fatalf("%d emails", len(msgs))
	}
	_, qp, _ := strings.Cut(msgs[0].Data, "\r\n\r\n")
	text, _ := io.ReadAll(quotedprintable.NewReader(strings.NewReader(qp)))
	link := regexp.MustCompile(`http://127\.0\.0\.1:8080(/v1/public/signup/confirm\?token=\S+)`).FindStringSubmatch(string(text))
	if link == nil {
		t.Fatalf("no link in %s", text)
	}
	var conf SignupResult
	if res := f.getWith(t, "", link[1], &conf); res.StatusCode != http.StatusOK || conf.Status != "confirmed" {
		t.Fatalf("confirm: %d %+v", res.StatusCode, conf)
	}
	if res := f.getWith(t, "", link[1], nil); res.StatusCode != http.StatusNotFound {
		t.Errorf("confirm twice: %d", res.StatusCode)
	}
	for _, tc := range []struct {
		body   string
		status int
		detail string
	}{
		{good, http.StatusConflict, "already exists"},
		{`{"email":"ana@gmail.com","first_name":"Ana","last_name":"Berg","agent":"cursor"}`, 422, "free email provider"},
		{`{"email":"ana@mailinator.com","first_name":"Ana","last_name":"Berg","agent":"cursor"}`, 422, "disposable"},
		{`{"email":"nope","first_name":"Ana","last_name":"Berg","agent":"cursor"}`, 422, "email"},
		{`{"email":"a@b.de","first_name":"","last_name":"Berg","agent":"cursor"}`, 422, "first_name"},
		{`{"email":"a@b.de"}`, 422, "first_name"},
	} {
		res, body := post(t, f, "/v1/public/signup", tc.body)
		if res.StatusCode != tc.status || !strings.Contains(body["detail"].(string), tc.detail) {
			t.Errorf("%s: %d %v", tc.body, res.StatusCode, body["detail"])
		}
	}
	// Without a relay, signup says so.
	bare := newFixture(t)
	if res, body := post(t, bare, "/v1/public/signup", good); res.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("no relay: %d %v", res.StatusCode, body)
	}
}
