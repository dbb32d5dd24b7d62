package crm

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strconv"
	"testing"
)

// answer is a transport that answers every request with one response.
type answer struct {
	status int
	header http.Header
	body   []byte
}

func (a answer) RoundTrip(r *http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: a.status, Header: a.header, Body: io.NopCloser(bytes.NewReader(a.body)), Request: r}, nil
}

// FuzzProviderAnswers feeds arbitrary provider answers (status, body,
// rate-limit headers, stored cursor) to every provider's page reader: it
// returns a page or an error, never panics, and a rate limit always
// carries a positive wait.
func FuzzProviderAnswers(f *testing.F) {
	f.Add(200, []byte(`{"results":[{"id":"1","properties":{"website":"a.com"}}],"paging":{"next":{"after":"1"}}}`), "", "", "")
	f.Add(429, []byte(`{"status":"error","policyName":"DAILY"}`), "1", "0", "")
	f.Add(429, []byte(`{"success":false,"error":"Request over limit"}`), "", "", "5")
	f.Add(401, []byte(`[{"message":"Session expired or invalid","errorCode":"INVALID_SESSION_ID"}]`), "", "", "/services/data/v59.0/query/x-200")
	f.Add(403, []byte(`[{"errorCode":"REQUEST_LIMIT_EXCEEDED"}]`), "Wed, 21 Oct 2015 07:28:00 GMT", "", "")
	f.Add(200, []byte(`{"success":true,"data":null,"additional_data":{"pagination":{"more_items_in_collection":true,"next_start":-3}}}`), "", "", "-1")
	f.Fuzz(func(t *testing.T, status int, body []byte, retry, daily, cursor string) {
		if status < 100 || status > 599 {
			status = 200
		}
		h := http.Header{}
		h.Set("Retry-After", retry)
		h.Set("X-HubSpot-RateLimit-Daily-Remaining", daily)
		h.Set("X-Daily-Requests-Left", daily)
		h.Set("X-RateLimit-Reset", retry)
		h.Set("X-HubSpot-RateLimit-Interval-Milliseconds", strconv.Itoa(len(retry)*100))
		hc := &http.Client{Transport: answer{status: status, header: h, body: body}}
		for _, p := range ProviderNames {
			for _, kind := range []string{KindCompanies, KindContacts} {
				_, err := fetchPage(context.Background(), hc, p, "http://crm.invalid", kind, cursor, pageSize)
				var rl *RateLimitError
				if asRateLimit(err, &rl) && rl.RetryAfter <= 0 {
					t.Fatalf("%s: rate limit with wait %v", p, rl.RetryAfter)
				}
			}
		}
	})
}

func asRateLimit(err error, rl **RateLimitError) bool {
	r, ok := err.(*RateLimitError)
	if ok {
		*rl = r
	}
	return ok
}

func TestRetryAfter(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want bool // a positive wait
	}{
		{"5", true}, {"0.5", true}, {"1e300", true}, {"+Inf", true}, {"-5", false}, {"NaN", false}, {"soon", false}, {"", false},
	} {
		d := retryAfter(tc.in)
		if (d > 0) != tc.want || d > 24*3600*1e9 {
			t.Errorf("retryAfter(%q) = %v", tc.in, d)
		}
	}
}
