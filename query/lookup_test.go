package query

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/index/embedded"
	"github.com/openprospect/prospectd/index/enginetest"
	"github.com/openprospect/prospectd/query/datasets"
	"github.com/openprospect/prospectd/record/domain"
)

func TestLookupDomains(t *testing.T) {
	for _, tc := range []struct {
		in   []string
		want []string
		err  string
	}{
		{[]string{"acme.com"}, []string{"acme.com"}, ""},
		{[]string{"https://www.Acme.com/about, shop.brightbank.co.uk", "acme.com", " ,cloudguard.io,"}, []string{"acme.com", "brightbank.co.uk", "cloudguard.io"}, ""},
		{nil, nil, "give at least one domain"},
		{[]string{"", " , "}, nil, "give at least one domain"},
		{[]string{"acme.com,not a domain"}, nil, `"not a domain" is not a domain`},
		{[]string{"co.uk"}, nil, `"co.uk" is not a domain`},
		{[]string{strings.Repeat("x.com,", 500)}, []string{"x.com"}, ""},
		{[]string{manyDomains(100)}, nil, ""},
		{[]string{manyDomains(101)}, nil, "at most 100 domains per request, got 101"},
	} {
		got, err := LookupDomains(tc.in)
		switch {
		case tc.err != "":
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%.40q: err %v, want %q", tc.in, err, tc.err)
			}
		case err != nil:
			t.Errorf("%.40q: %v", tc.in, err)
		case tc.want != nil && !slices.Equal(got, tc.want):
			t.Errorf("%.40q: %v, want %v", tc.in, got, tc.want)
		}
	}
}

func manyDomains(n int) string {
	s := make([]string, n)
	for i := range s {
		s[i] = fmt.Sprintf("d%d.com", i)
	}
	return strings.Join(s, ",")
}

// FuzzLookupDomains: any parameter values give an error or 1-100 distinct
// root domains, each already normalized.
func FuzzLookupDomains(f *testing.F) {
	for _, s := range []string{"acme.com", "https://www.acme.com/x,acme.com", ",,", "a.co.uk, b.de", "xn--bcher-kva.example", "ACME.COM.", "[::1]", "a..com"} {
		f.Add(s, "b.com")
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		got, err := LookupDomains([]string{a, b})
		if err != nil {
			return
		}
		if len(got) == 0 || len(got) > MaxLookupDomains {
			t.Fatalf("%d domains", len(got))
		}
		seen := map[string]bool{}
		for _, d := range got {
			if n, err := domain.Normalize(d); err != nil || n != d {
				t.Fatalf("%q normalizes to %q (%v)", d, n, err)
			}
			if seen[d] {
				t.Fatalf("%q twice", d)
			}
			seen[d] = true
		}
	})
}

// TestLookupDatasetAndMatches: a lookup is append's rows for the domains,
// and the match helpers read the whole stored lists.
func TestLookupDatasetAndMatches(t *testing.T) {
	ctx := context.Background()
	eng, err := embedded.Open(filepath.Join(t.TempDir(), "index"), embedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	if err := eng.SetMeta(ctx, index.Meta{EmbedderID: "test", Dimension: enginetest.Dim}); err != nil {
		t.Fatal(err)
	}
	docs := enginetest.Fixtures()
	if _, err := eng.UpsertCompanies(ctx, docs); err != nil {
		t.Fatal(err)
	}
	s := &Companies{Engine: eng}
	tab, err := s.LookupDataset(ctx, []string{"acme.com", "nobody-here.com", "brightbank.co.uk"}, datasets.Vendors)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(tab.Columns, []string{"domain", "vendors"}) || len(tab.Rows) != 3 || tab.Rows[1][1] != nil ||
		fmt.Sprint(tab.Rows[0][1]) != "[salesforce.com hubspot.com]" || !slices.Equal(tab.Billable[datasets.Vendors], []int{0, 2}) {
		t.Fatalf("table %v %v billable %v", tab.Columns, tab.Rows, tab.Billable)
	}
	if !UsesVendor(tab.Lines[0].Company, "hubspot.com") || UsesVendor(tab.Lines[2].Company, "hubspot.com") {
		t.Error("UsesVendor")
	}
	sel := tab.Select("vendors", "nope", "domain")
	if !slices.Equal(sel.Columns, []string{"vendors", "domain"}) || sel.Rows[0][1] != "acme.com" {
		t.Errorf("Select: %v %v", sel.Columns, sel.Rows[0])
	}
	tab.AddColumn("k", func(i int) any { return i })
	if tab.Value(2, "k") != 2 || tab.Value(0, "nope") != nil {
		t.Error("AddColumn/Value")
	}

	red, err := s.LookupDataset(ctx, []string{"acme.com"}, datasets.Redirects)
	if err != nil {
		t.Fatal(err)
	}
	acme := red.Lines[0].Company
	for src, want := range map[string]bool{"acme.net": true, "closedco.com": true, "brightbank.co.uk": false, "unindexed-source.com": false} {
		m, err := s.NewRedirectMatcher(ctx, src)
		if err != nil {
			t.Fatal(err)
		}
		if got := m.RedirectsTo(acme); got != want {
			t.Errorf("%s redirects to acme.com: %v, want %v", src, got, want)
		}
	}
}
