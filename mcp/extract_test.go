package mcp_test

import (
	"context"
	"testing"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/index/enginetest"
	"github.com/openprospect/prospectd/mcp"
	"github.com/openprospect/prospectd/record"
)

func TestSiteTextTool(t *testing.T) {
	var w index.CompanyWriter
	f := newFixture(t, func(c *mcp.Config) { w = c.Companies.Engine.(index.CompanyWriter) })
	crawled := enginetest.Fixtures()[2]
	crawled.Company.Domain, crawled.Company.SiteText = "crawled.com", "Acme Anvils\nHeavy anvils since 1920."
	crawled.Company.Crawl = &record.Crawl{At: "2026-11-25T10:00:00Z", URL: "https://crawled.com/", Languages: []string{"en"}, TextAt: "2026-11-25T10:00:00Z"}
	if _, err := w.UpsertCompanies(context.Background(), []index.CompanyDoc{crawled}); err != nil {
		t.Fatal(err)
	}
	cs := connect(t, f.url, f.keyA, nil)
	out := confirmed(t, cs, "get_site_text", map[string]any{"domain": "www.crawled.com"})
	if out["domain"] != "crawled.com" || out["site_text"] != "Acme Anvils\nHeavy anvils since 1920." || out["credits_billed"] != float64(1) ||
		len(out["languages"].([]any)) != 1 || out["text_crawled_at"] != "2026-11-25T10:00:00Z" {
		t.Errorf("get_site_text: %v", out)
	}
	for _, tc := range []struct {
		domain string
		status float64
	}{{"acme.com", 404}, {"nowhere.com", 404}, {"not a domain", 422}} {
		if out, isErr := callTool(t, cs, "get_site_text", map[string]any{"domain": tc.domain}); !isErr || out["status"] != tc.status {
			t.Errorf("%s: %v", tc.domain, out)
		}
	}
}
