package api

import (
	"context"
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/index/enginetest"
	"github.com/openprospect/prospectd/record"
	"github.com/openprospect/prospectd/store"
)

// extractFixture indexes crawled.com (crawled, text read), failed.com
// (crawled, nothing read: its text came from a file) and big.com (never
// crawled), with credits for two records.
func extractFixture(t *testing.T) fixture {
	f := lookupFixture(t, 2)
	fx := enginetest.Fixtures()
	crawled, failed := fx[2], fx[3]
	crawled.Company.Domain, crawled.Company.SiteText = "crawled.com", "Acme Anvils\nHeavy and durable anvils since 1920."
	crawled.Company.Crawl = &record.Crawl{At: "2026-11-25T10:00:00Z", URL: "https://www.crawled.com/", Languages: []string{"en"}, TextAt: "2026-11-25T10:00:00Z"}
	failed.Company.Domain, failed.Company.SiteText = "failed.com", "text from a loaded file"
	failed.Company.Crawl = &record.Crawl{At: "2026-11-24T08:00:00Z", Error: "disallowed by robots.txt"}
	if _, err := f.srv.deps.Engine.(index.Engine).UpsertCompanies(context.Background(), []index.CompanyDoc{crawled, failed}); err != nil {
		t.Fatal(err)
	}
	return f
}

func TestExtract(t *testing.T) {
	f := extractFixture(t)
	text := "Acme Anvils\nHeavy and durable anvils since 1920."
	tests := []struct {
		name, query string
		status      int
		billed      string
		want        map[string]any // expected fields of a 200
		detail      string         // fragment of an error's detail
	}{
		{"crawled", "domain=https://shop.crawled.com/path", 200, "1", map[string]any{"domain": "crawled.com", "crawled_at": "2026-11-25T10:00:00Z",
			"crawl_error": nil, "url": "https://www.crawled.com/", "site_text": text, "text_crawled_at": "2026-11-25T10:00:00Z", "languages": []any{"en"}}, ""},
		{"crawled, nothing read: free", "domain=failed.com", 200, "0", map[string]any{"domain": "failed.com", "crawled_at": "2026-11-24T08:00:00Z",
			"crawl_error": "disallowed by robots.txt", "url": nil, "site_text": nil, "text_crawled_at": nil, "languages": []any{}}, ""},
		{"never crawled", "domain=big.com", 404, "", nil, `the site of "big.com" has not been crawled`},
		{"not indexed", "domain=nowhere.com", 404, "", nil, `no company profile for "nowhere.com"`},
		{"not a domain", "domain=not_a_domain", 422, "", nil, "domain:"},
		{"missing", "", 422, "", nil, "domain"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, b := f.getRaw(t, f.key, "/v1/extract?"+tc.query)
			if res.StatusCode != tc.status {
				t.Fatalf("status %d, want %d: %s", res.StatusCode, tc.status, b)
			}
			if tc.status != 200 {
				var p struct{ Detail string }
				if err := json.Unmarshal(b, &p); err != nil || !strings.Contains(p.Detail, tc.detail) {
					t.Errorf("detail %s lacks %q", b, tc.detail)
				}
				return
			}
			if got := res.Header.Get("X-Credits-Billed"); got != tc.billed {
				t.Errorf("X-Credits-Billed %q, want %q", got, tc.billed)
			}
			var got map[string]any
			if err := json.Unmarshal(b, &got); err != nil {
				t.Fatal(err)
			}
			delete(got, "$schema")
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("body %v\nwant %v", got, tc.want)
			}
		})
	}
	// Billed every time (no 90-day cache), like the dataset lookups; once
	// the credits are spent, 402.
	if res, b := f.getRaw(t, f.key, "/v1/extract?domain=crawled.com"); res.StatusCode != 200 || res.Header.Get("X-Credits-Billed") != "1" || res.Header.Get("X-Credits-Remaining") != "0" {
		t.Errorf("second extract: %d billed %s left %s: %s", res.StatusCode, res.Header.Get("X-Credits-Billed"), res.Header.Get("X-Credits-Remaining"), b)
	}
	if res, b := f.getRaw(t, f.key, "/v1/extract?domain=crawled.com"); res.StatusCode != http.StatusPaymentRequired {
		t.Errorf("extract without credits: %d %s", res.StatusCode, b)
	}
	if res, _ := f.getRaw(t, f.key, "/v1/extract?domain=failed.com"); res.StatusCode != 200 {
		t.Errorf("a free extract without credits: %d", res.StatusCode)
	}
	credits, billed, _ := f.usageOf(t, f.key)
	if credits != 2 || billed[store.KindRow] != 2 {
		t.Errorf("ledger: %d credits, billed %v", credits, billed)
	}
	// Plans below Starter are refused, as on the other lookups.
	if res, _ := f.getRaw(t, f.keyFor(t, "free", store.PlanNone), "/v1/extract?domain=crawled.com"); res.StatusCode != http.StatusForbidden {
		t.Errorf("plan none: %d", res.StatusCode)
	}
}
