package query

import (
	"context"
	"fmt"
	"strings"

	"github.com/openprospect/prospectd/query/datasets"
	"github.com/openprospect/prospectd/record"
	"github.com/openprospect/prospectd/record/domain"
)

// MaxLookupDomains bounds the domains of one per-domain dataset lookup
// (GET /v1/vendors and its siblings).
const MaxLookupDomains = 100

// LookupDomains normalizes the domain parameter of a per-domain lookup:
// repeated and comma-separated values, each a domain or URL, normalized to
// the root domain and deduplicated in first-seen order. Errors name the
// offending value.
func LookupDomains(values []string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	for _, v := range values {
		for _, part := range strings.Split(v, ",") {
			part = strings.TrimSpace(part)
			if part == "" {
				continue
			}
			d, err := domain.Normalize(part)
			if err != nil {
				return nil, fmt.Errorf("%q is not a domain: %w", part, err)
			}
			if !seen[d] {
				seen[d] = true
				out = append(out, d)
			}
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("give at least one domain")
	}
	if len(out) > MaxLookupDomains {
		return nil, fmt.Errorf("at most %d domains per request, got %d", MaxLookupDomains, len(out))
	}
	return out, nil
}

// LookupDataset reads one append dataset for normalized domains: exactly
// the rows POST /v1/append returns for a file holding only those domains
// (no input columns), one per domain in order, nulls for unknown domains.
func (s *Companies) LookupDataset(ctx context.Context, domains []string, set datasets.Name) (datasets.Table, error) {
	rows := make([][]string, len(domains))
	for i, d := range domains {
		rows[i] = []string{d}
	}
	return s.Append(ctx, datasets.Input{Rows: rows, DomainColumn: 0}, []datasets.Name{set})
}

// UsesVendor reports whether c lists vendor (a normalized domain) among
// all its vendors, not only the first datasets.MaxVendors returned.
func UsesVendor(c *record.Company, vendor string) bool {
	for _, v := range c.Vendors {
		if strings.EqualFold(v, vendor) {
			return true
		}
	}
	return false
}

// RedirectMatcher answers "does domain D receive redirects from source":
// source is among D's stored redirect sources, or source's own profile
// names D as its redirect domain — which also answers for the sources
// past the MaxRedirectSources a profile keeps.
type RedirectMatcher struct {
	source string
	target string // source's redirect domain, normalized; "" when none
}

// NewRedirectMatcher reads source's profile (a normalized domain; an
// unindexed source is matched against redirect sources only).
func (s *Companies) NewRedirectMatcher(ctx context.Context, source string) (RedirectMatcher, error) {
	m := RedirectMatcher{source: source}
	got, err := s.Engine.GetCompanies(ctx, []string{source})
	if err != nil {
		return m, fmt.Errorf("read redirect source %s: %w", source, err)
	}
	if len(got) > 0 && got[0].RedirectDomain != nil {
		if d, err := domain.Normalize(*got[0].RedirectDomain); err == nil {
			m.target = d
		}
	}
	return m, nil
}

// RedirectsTo reports whether the matcher's source redirects to c.
func (m RedirectMatcher) RedirectsTo(c *record.Company) bool {
	if m.target != "" && m.target == c.Domain {
		return true
	}
	for _, s := range c.RedirectSources {
		if strings.EqualFold(s, m.source) {
			return true
		}
	}
	return false
}

// AddMatchColumn adds the `match` column of a vendors or redirects lookup
// to t: whether each row's company uses vendor m, or receives redirects
// from m (a normalized domain). A row without the dataset's values
// (unindexed, or withheld for want of credits) has no answer either:
// null. Other datasets take no match and are left as they are.
func (s *Companies) AddMatchColumn(ctx context.Context, t *datasets.Table, set datasets.Name, m string) error {
	var has string
	var uses func(i int) bool
	switch set {
	case datasets.Vendors:
		has = "vendors"
		uses = func(i int) bool { return UsesVendor(t.Lines[i].Company, m) }
	case datasets.Redirects:
		rm, err := s.NewRedirectMatcher(ctx, m)
		if err != nil {
			return err
		}
		has = "redirect_sources"
		uses = func(i int) bool { return rm.RedirectsTo(t.Lines[i].Company) }
	default:
		return nil
	}
	t.AddColumn("match", func(i int) any {
		if t.Lines[i].Company == nil || t.Value(i, has) == nil {
			return nil
		}
		return uses(i)
	})
	return nil
}
