package query

import (
	"context"
	"errors"
	"fmt"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/record"
)

// ErrNotCrawled: the company is indexed but its site was never crawled.
var ErrNotCrawled = errors.New("site not crawled")

// SiteExtract is what the crawler stored of one company's site
// (GET /v1/extract).
type SiteExtract struct {
	Domain string `json:"domain"`
	// CrawledAt is when the site was last crawled; CrawlError why that
	// crawl read no page (null when it did).
	CrawledAt  string  `json:"crawled_at" doc:"When the site was last crawled (RFC 3339)"`
	CrawlError *string `json:"crawl_error" doc:"Why the last crawl read no page (unreachable, disallowed by robots.txt, not an HTML page…); null when it read one"`
	URL        *string `json:"url" doc:"The page the last crawl ended on, after redirects; null when it got no answer"`
	// SiteText is the page text the crawler stored, with when it was read
	// (an older crawl's when the last one read nothing); null when no
	// crawl read any.
	SiteText  *string  `json:"site_text" doc:"Visible text of the home page: title, meta description, then one line per block; null when no crawl read a page"`
	TextAt    *string  `json:"text_crawled_at" doc:"When site_text was read (RFC 3339)"`
	Languages []string `json:"languages" doc:"Languages detected in site_text (ISO 639-1), the most text first"`
}

// Billable reports whether the extraction carries site text: only such
// answers cost a record.
func (e SiteExtract) Billable() bool { return e.SiteText != nil }

// Extract returns what the crawler stored for the company of domain (a
// normalized root domain). It never fetches anything. It returns an error
// wrapping index.ErrNotFound when no company has the domain and ErrNotCrawled
// when its site was never crawled.
func (c *Companies) Extract(ctx context.Context, domain string) (SiteExtract, error) {
	got, err := c.Engine.GetCompanies(ctx, []string{domain})
	if err != nil {
		return SiteExtract{}, fmt.Errorf("extract %s: %w", domain, err)
	}
	if len(got) == 0 {
		return SiteExtract{}, fmt.Errorf("extract %s: %w", domain, index.ErrNotFound)
	}
	return SiteExtractOf(got[0])
}

// SiteExtractOf shapes a company's crawl as Extract returns it.
func SiteExtractOf(co record.Company) (SiteExtract, error) {
	cr := co.Crawl
	if cr == nil {
		return SiteExtract{}, fmt.Errorf("extract %s: %w", co.Domain, ErrNotCrawled)
	}
	e := SiteExtract{Domain: co.Domain, CrawledAt: cr.At, CrawlError: optionalString(cr.Error), URL: optionalString(cr.URL),
		Languages: record.List(cr.Languages)}
	if cr.TextAt != "" {
		text, at := co.SiteText, cr.TextAt
		e.SiteText, e.TextAt = &text, &at
	}
	return e, nil
}

func optionalString(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
