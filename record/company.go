package record

import "slices"

// Company is a company profile as ingested, stored and served. Field names
// follow the spec's "Company profile" table; the fields after MXProvider are
// the ones discovery filters and append datasets need beyond the profile.
type Company struct {
	Domain         string             `json:"domain"`
	Name           string             `json:"name"`
	Status         Status             `json:"status"`
	Score          int                `json:"score"`
	StartDate      string             `json:"start_date,omitempty"`
	EndDate        *string            `json:"end_date"`
	Address        Address            `json:"address"`
	Phones         []string           `json:"phones"`
	PublicEmails   []string           `json:"public_emails"`
	SocialURLs     []string           `json:"social_urls"`
	Description    string             `json:"description"`
	Keywords       map[string]float64 `json:"keywords"`
	IndustryGroups map[string]float64 `json:"industry_groups"`
	Employees      string             `json:"employees"`
	RedirectDomain *string            `json:"redirect_domain"`
	UpdateDate     string             `json:"update_date,omitempty"`
	MXProvider     string             `json:"mx_provider"`

	// RevenueRange is one of RevenueBuckets, or empty when unknown.
	RevenueRange   string   `json:"revenue_range,omitempty"`
	BusinessModels []string `json:"business_models,omitempty"`
	Languages      []string `json:"languages,omitempty"`
	Vendors        []string `json:"vendors,omitempty"`
	Subdomains     []string `json:"subdomains,omitempty"`
	// SiteText is text from the company's website; phrase matching and the
	// embedder read it, profiles do not return it.
	SiteText string `json:"site_text,omitempty"`

	// The fields below feed the append datasets domain_status, redirects
	// and growth; profiles do not return them.

	// HTTPStatus is the domain's latest HTTP check.
	HTTPStatus *HTTPStatus `json:"http_status,omitempty"`
	// RedirectSources are domains that redirect to this one, at most
	// MaxRedirectSources of them; RedirectCount is the true total.
	RedirectSources []string `json:"redirect_sources,omitempty"`
	RedirectCount   int      `json:"redirect_count,omitempty"`
	// Growth is the quarterly footprint history.
	Growth *Growth `json:"growth,omitempty"`
	// Crawl is the latest crawl of the company's site (ingest/crawl); nil
	// when the site was never crawled, whatever SiteText holds (a loaded
	// file or the demo generator may fill that).
	Crawl *Crawl `json:"crawl,omitempty"`
}

// Crawl records one crawl of a company's site: when it ran, where it
// ended and why it stopped short, if it did.
type Crawl struct {
	// At is when the crawl ran (RFC 3339, UTC).
	At string `json:"at"`
	// URL is the page the text was read from, after redirects.
	URL string `json:"url,omitempty"`
	// Error says why no page was read (unreachable, refused address,
	// disallowed by robots.txt, not HTML); empty on success.
	Error string `json:"error,omitempty"`
	// Languages are the languages detected in the page text (ISO 639-1).
	Languages []string `json:"languages,omitempty"`
	// TextAt is when the crawler last read the page text the record holds
	// as SiteText (RFC 3339); kept across later crawls that read none, and
	// empty while SiteText is not the crawler's.
	TextAt string `json:"text_at,omitempty"`
}

// MaxRedirectSources is how many redirect sources a profile keeps (the
// spec's cap on the redirects dataset).
const MaxRedirectSources = 1000

// HTTPStatus is the result of fetching a domain's home page.
type HTTPStatus struct {
	Code   int    `json:"status_code"`
	Reason string `json:"status_reason,omitempty"`
	// RecordDate is when the check ran (YYYY-MM-DD).
	RecordDate string `json:"record_date,omitempty"`
}

// Growth is a quarterly history of the digital-footprint score and of the
// number of subdomains seen, oldest first; the last entry is quarter Through.
type Growth struct {
	Through    Quarter `json:"through"`
	Scores     []int   `json:"scores"`
	Subdomains []int   `json:"subdomains"`
}

// Status is the operating status of a company with the confidence of that call.
type Status struct {
	Status     string  `json:"status"`
	Confidence float64 `json:"confidence"`
}

// Address is a postal address; Country is ISO-3166-1 alpha-2 and State an
// ISO 3166-2 subdivision code (for example "US-CA").
type Address struct {
	Street  string `json:"street,omitempty"`
	City    string `json:"city,omitempty"`
	State   string `json:"state,omitempty"`
	Zip     string `json:"zip,omitempty"`
	Country string `json:"country,omitempty"`
}

// Closed reports whether the company is known to have stopped operating.
func (c *Company) Closed() bool { return c.Status.Status == StatusClosed }

// Industries returns the company's industry labels, strongest first.
func (c *Company) Industries() []string {
	if k := KeysByWeight(c.IndustryGroups); k != nil {
		return k
	}
	return []string{} // an empty list, not null, in JSON
}

// SocialNetworks returns the distinct networks of the company's social URLs.
func (c *Company) SocialNetworks() []string {
	var out []string
	for _, u := range c.SocialURLs {
		if n := SocialNetworkOf(u); n != "" && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// LeadGen reports whether the company looks like a lead-generation site:
// a known, low digital footprint and no phone, email or social profile. An
// unknown score (0) is not a low one: a list exported from a CRM carries
// no scores, and its companies are not lead-generation sites for that.
func (c *Company) LeadGen() bool {
	return c.Score > 0 && c.Score < LeadGenMaxScore && len(c.Phones) == 0 && len(c.PublicEmails) == 0 && len(c.SocialURLs) == 0
}

// LeadGenMaxScore is the digital-footprint score below which a site with no
// contact channel counts as suspected lead generation.
const LeadGenMaxScore = 100

// HTTPStatusOrNew returns c.HTTPStatus, allocating it first when nil.
func (c *Company) HTTPStatusOrNew() *HTTPStatus {
	if c.HTTPStatus == nil {
		c.HTTPStatus = &HTTPStatus{}
	}
	return c.HTTPStatus
}

// GrowthOrNew returns c.Growth, allocating it first when nil.
func (c *Company) GrowthOrNew() *Growth {
	if c.Growth == nil {
		c.Growth = &Growth{}
	}
	return c.Growth
}
