package demo

import (
	"net/http"
	"testing"
)

// TestDatasets: every demo company carries what the append datasets read,
// consistent with the rest of its profile.
func TestDatasets(t *testing.T) {
	g := New(Options{Companies: 5000, Seed: 3})
	withSources, startedLate := 0, 0
	for i := range g.Len() {
		c := g.Company(i)
		h := c.HTTPStatus
		if h == nil || http.StatusText(h.Code) == "" || h.Reason != http.StatusText(h.Code) || h.RecordDate == "" {
			t.Fatalf("%s: status %+v", c.Domain, h)
		}
		if c.RedirectDomain != nil && h.Code != http.StatusMovedPermanently && h.Code != http.StatusFound {
			t.Errorf("%s redirects but answers %d", c.Domain, h.Code)
		}
		if c.RedirectCount < len(c.RedirectSources) || (c.RedirectCount > 0) != (len(c.RedirectSources) > 0) {
			t.Errorf("%s: %d sources, count %d", c.Domain, len(c.RedirectSources), c.RedirectCount)
		}
		for _, s := range c.RedirectSources {
			if s == c.Domain {
				t.Errorf("%s redirects to itself", c.Domain)
			}
		}
		if len(c.RedirectSources) > 0 {
			withSources++
		}
		gr := c.Growth
		if gr == nil || len(gr.Scores) != historyQuarters || len(gr.Subdomains) != historyQuarters || gr.Through != historyThrough {
			t.Fatalf("%s: growth %+v", c.Domain, gr)
		}
		if gr.Scores[historyQuarters-1] != c.Score || gr.Subdomains[historyQuarters-1] != len(c.Subdomains) {
			t.Errorf("%s: history ends at %d/%d, profile has %d/%d", c.Domain, gr.Scores[historyQuarters-1], gr.Subdomains[historyQuarters-1], c.Score, len(c.Subdomains))
		}
		if gr.Scores[0] == 0 {
			startedLate++
		}
	}
	if share := float64(withSources) / float64(g.Len()); share < 0.2 || share > 0.7 {
		t.Errorf("%.0f%% of companies have redirect sources", 100*share)
	}
	if startedLate == 0 {
		t.Error("no company younger than the history window")
	}
	// Deterministic.
	a, b := New(Options{Companies: 10, Seed: 3}).Company(7), g.Company(7)
	if a.HTTPStatus.Code != b.HTTPStatus.Code || len(a.RedirectSources) != len(b.RedirectSources) || a.Growth.Scores[0] != b.Growth.Scores[0] {
		t.Error("datasets differ between generators of one seed")
	}
}
